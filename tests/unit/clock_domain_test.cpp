#include <gtest/gtest.h>
#include <algorithm>
#include <vector>

#include "sim/clock_domain.h"

using namespace cohsim;

// Expected values are computed by hand from floor(k * 10^15 / f):
//   832 MHz: period = 10^15/832e6 fs = 1201923.076923... fs
//   1.75 GHz: period = 571428.571428... fs

TEST(ClockDomain, NonIntegerPeriod832MHz) {
    clock_domain d("little", frequency{832'000'000});
    EXPECT_EQ(d.time_of(0).fs, 0u);
    EXPECT_EQ(d.time_of(1).fs, 1'201'923u);
    EXPECT_EQ(d.time_of(2).fs, 2'403'846u);   // 2403846.15 -> floor
    EXPECT_EQ(d.time_of(13).fs, 15'625'000u);  // 13/832 us = 15.625 ns exactly
    EXPECT_EQ(d.time_of(832).fs, 1'000'000'000u);  // 832 cycles = 1 us exactly
}

TEST(ClockDomain, NonIntegerPeriod1750MHz) {
    clock_domain d("big", frequency{1'750'000'000});
    EXPECT_EQ(d.time_of(1).fs, 571'428u);
    EXPECT_EQ(d.time_of(3).fs, 1'714'285u);  // 1714285.714
    EXPECT_EQ(d.time_of(7).fs, 4'000'000u);  // 7 / 1.75 GHz = 4 ns exactly
}

TEST(ClockDomain, NoDriftAfter1e11Cycles) {
    // 10^11 cycles at 832 MHz = 10^11/832e6 s = 120.192307692307... s
    // = 120192307692307692.307... fs -> floor.
    clock_domain d("little", frequency{832'000'000});
    EXPECT_EQ(d.time_of(100'000'000'000ULL).fs, 120'192'307'692'307'692ULL);
    // Accumulating the rounded period (1201923 fs) would be 7.7 us early:
    EXPECT_NE(d.time_of(100'000'000'000ULL).fs, 1'201'923ULL * 100'000'000'000ULL);
    // 1.75 GHz: 10^11 cycles = 57.142857142857... s
    clock_domain b("big", frequency{1'750'000'000});
    EXPECT_EQ(b.time_of(100'000'000'000ULL).fs, 57'142'857'142'857'142ULL);
    // Exact multiples land exactly: 832e9 cycles at 832 MHz = 1000 s.
    EXPECT_EQ(d.time_of(832'000'000'000ULL).fs, 1000 * fs_per_second);
}

TEST(ClockDomain, CycleAtIsTheLastEdgeAtOrBefore) {
    clock_domain d("little", frequency{832'000'000});
    EXPECT_EQ(d.cycle_at(duration{0}), 0u);
    EXPECT_EQ(d.cycle_at(duration{1'201'922}), 0u);
    EXPECT_EQ(d.cycle_at(duration{1'201'923}), 1u);
    EXPECT_EQ(d.cycle_at(duration{2'403'845}), 1u);
    EXPECT_EQ(d.cycle_at(duration{2'403'846}), 2u);
    const std::uint64_t k = 100'000'000'000ULL;
    EXPECT_EQ(d.cycle_at(d.time_of(k)), k);
    EXPECT_EQ(d.cycle_at(duration{d.time_of(k).fs - 1}), k - 1);
}

TEST(ClockDomain, NextEdgeIsTheFirstEdgeAtOrAfter) {
    clock_domain d("little", frequency{832'000'000});
    EXPECT_EQ(d.next_edge(duration{0}).fs, 0u);
    EXPECT_EQ(d.next_edge(duration{1}).fs, 1'201'923u);
    EXPECT_EQ(d.next_edge(duration{1'201'923}).fs, 1'201'923u);  // on an edge: that edge
    EXPECT_EQ(d.next_edge(duration{1'201'924}).fs, 2'403'846u);
    EXPECT_EQ(d.edge_after(duration{1}, cycles{4}).fs, d.time_of(5).fs);
    // Property over a range: next_edge(t) >= t and the edge before it is < t.
    for (std::uint64_t t = 0; t < 5'000'000; t += 9'973) {
        const auto k = d.next_edge_cycle(duration{t});
        EXPECT_GE(d.time_of(k).fs, t);
        if (k > 0) {
            EXPECT_LT(d.time_of(k - 1).fs, t);
        }
    }
}

TEST(ClockDomain, AlignmentAcrossDomains) {
    // A message sent by the 1.8 GHz core on its edge 5 (2.777... ns) is seen
    // by the 832 MHz core at its first edge at or after that: edge 3 at
    // 3.605769 ns. Hand check: 5e15/1.8e9 = 2777777.7 -> 2777777 fs;
    // ceil(2777777 * 832e6 / 1e15) = ceil(2.311) = 3; 3e15/832e6 = 3605769.2.
    clock_domain big("big", frequency{1'800'000'000});
    clock_domain little("little", frequency{832'000'000});
    const duration sent = big.time_of(5);
    EXPECT_EQ(sent.fs, 2'777'777u);
    EXPECT_EQ(little.next_edge_cycle(sent), 3u);
    EXPECT_EQ(little.next_edge(sent).fs, 3'605'769u);
    // And back: little edge 3 seen by big at ceil(3605769 * 1.8e9 / 1e15) = ceil(6.49) = 7.
    EXPECT_EQ(big.next_edge_cycle(little.time_of(3)), 7u);
    EXPECT_EQ(big.next_edge(little.time_of(3)).fs, 3'888'888u);
    // Same frequency, same edges: alignment is the identity on edges.
    clock_domain other("other", frequency{832'000'000});
    for (std::uint64_t k : {0ULL, 1ULL, 7ULL, 1'000'003ULL})
        EXPECT_EQ(other.next_edge(little.time_of(k)).fs, little.time_of(k).fs);
}

TEST(ClockDomain, ZeroFrequencyRejected) {
    EXPECT_THROW(clock_domain("x", frequency{0}), std::invalid_argument);
}

TEST(ClockDomain, SteppingFromTheLastEdgeAgreesWithDirectArithmetic) {
    // The domain remembers its last edge to step without division; any
    // sequence of queries must give the closed forms, computed here directly.
    for (std::uint64_t hz : {832'000'000ULL, 1'750'000'000ULL, 533'000'000ULL, 1'920'000ULL, 1'000'000'000ULL}) {
        clock_domain d("d", frequency{hz});
        std::uint64_t state = 12345;
        auto next = [&] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL; };
        std::uint64_t k = 0;
        for (int i = 0; i < 20000; ++i) {
            const std::uint64_t r = next();
            const std::uint64_t k_max = hz * 10000;  // 10000 s: inside the 64-bit fs range
            k = (r % 4 == 0) ? (r >> 20) % k_max : (k + (r >> 40) % 50) % k_max;  // jumps and small steps
            const duration t = d.time_of(k);
            using u128 = unsigned __int128;
            const u128 F = 1'000'000'000'000'000ULL;
            EXPECT_EQ(t.fs, static_cast<std::uint64_t>(u128(k) * F / hz)) << hz << " k=" << k;  // floor(kF/f)
            const duration q{t.fs + (r >> 50) % 3000};
            EXPECT_EQ(d.next_edge_cycle(q), static_cast<std::uint64_t>((u128(q.fs) * hz + F - 1) / F))  // ceil(t f/F)
                << hz << " t=" << q.fs;
            if (::testing::Test::HasFailure()) return;
        }
    }
}

// Spread spectrum. Hand example: 1 GHz (period 10^6 fs), 1% down-spread
// (peak stretch D = 10^4 fs), modulation at 100 MHz: H = 5 cycles, so the
// triangle over one modulation period is 0, .2, .4, .6, .8, 1, .8, .6, .4, .2
// and periods are 10^6 fs plus 0, 2000, 4000, 6000, 8000, 10000, 8000, 6000,
// 4000, 2000 fs.
TEST(ClockDomain, SpreadSpectrumStretchesPeriodsInATriangle) {
    clock_domain d("d", frequency{1'000'000'000}, spread_spectrum{10'000, frequency{100'000'000}, 0});
    const std::uint64_t stretch[] = {0, 2000, 4000, 6000, 8000, 10000, 8000, 6000, 4000, 2000};
    std::uint64_t t = 0;
    for (std::uint64_t k = 0; k < 30; ++k) {
        EXPECT_EQ(d.time_of(k).fs, t) << "edge " << k;
        t += 1'000'000 + stretch[k % 10];
    }
    EXPECT_EQ(d.time_of(10).fs, 10'050'000u);  // one modulation period: D * H = 50000 fs late
    EXPECT_EQ(d.time_of(5).fs, 5'020'000u);
    // A phase of 3 cycles starts the triangle at .6; edge 0 stays at 0.
    clock_domain p("p", frequency{1'000'000'000}, spread_spectrum{10'000, frequency{100'000'000}, 13});
    EXPECT_EQ(p.time_of(0).fs, 0u);
    EXPECT_EQ(p.time_of(1).fs, 1'006'000u);
    EXPECT_EQ(p.time_of(3).fs, 3'000'000u + 6000 + 8000 + 10000);
}

TEST(ClockDomain, SpreadSpectrumLowersTheMeanFrequencyByHalfTheSpread) {
    // 1.8 GHz, 0.5% at 31.5 kHz: H = round(1.8e9 / 63e3) = 28571 cycles. Over
    // 1000 modulation periods the clock loses 0.25% of its cycles.
    clock_domain d("big", frequency{1'800'000'000}, spread_spectrum{5'000, frequency{31'500}, 777});
    const duration one_ms{fs_per_second / 1000};
    const double cycles = static_cast<double>(d.cycle_at(duration{one_ms.fs * 32}));
    EXPECT_NEAR(cycles / (1.8e6 * 32), 1.0 / 1.0025, 2e-6);
    // Each period lies between the nominal one and 0.5% longer, and both ends are reached.
    std::uint64_t shortest = ~0ULL, longest = 0;
    for (std::uint64_t k = 0; k < 60'000; ++k) {
        const std::uint64_t p = d.time_of(k + 1).fs - d.time_of(k).fs;
        shortest = std::min(shortest, p), longest = std::max(longest, p);
    }
    EXPECT_GE(shortest, 555'555u);
    EXPECT_LE(shortest, 555'556u);
    EXPECT_GE(longest, 558'332u);  // 555555.6 * 1.005 = 558333.3
    EXPECT_LE(longest, 558'334u);
}

TEST(ClockDomain, SpreadSpectrumEdgeQueriesInvertTimeOf) {
    // next_edge_cycle and cycle_at against time_of, at random times and in
    // random order (the answers must not depend on the queries before).
    for (std::uint32_t ppm : {1u, 5'000u, 50'000u}) {
        clock_domain d("d", frequency{832'000'000}, spread_spectrum{ppm, frequency{33'000}, 4242});
        std::uint64_t state = 99;
        for (int i = 0; i < 20'000; ++i) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            const duration t{(state >> 20) % (fs_per_second / 10)};  // up to 100 ms
            const std::uint64_t k = d.next_edge_cycle(t);
            ASSERT_GE(d.time_of(k).fs, t.fs);
            if (k > 0) {
                ASSERT_LT(d.time_of(k - 1).fs, t.fs);
            }
            const std::uint64_t c = d.cycle_at(t);
            ASSERT_LE(d.time_of(c).fs, t.fs);
            ASSERT_GT(d.time_of(c + 1).fs, t.fs);
            // And stepping on from the answer (the common case).
            ASSERT_EQ(d.next_edge_cycle(duration{d.time_of(k).fs + 1}), k + 1);
        }
    }
}

// Queries a few periods to a few hundred periods after the last answer (how
// a message's next hop asks): the answer lies between gap / longest period
// and gap / nominal period on, found with few or no edge times. Checked
// against a second domain's edge times (no state shared): the first edge at
// or after t.
TEST(ClockDomain, SpreadSpectrumQueriesAheadOfTheLastAnswerAreTheFirstEdgeAtOrAfter) {
    for (std::uint32_t ppm : {1u, 3'615u, 50'000u}) {
        for (std::uint64_t hz : {533'000'000ULL, 1'800'000'000ULL, 1'000'000'000ULL}) {
            clock_domain d("d", frequency{hz}, spread_spectrum{ppm, frequency{31'000}, 777});
            const clock_domain oracle("o", frequency{hz}, spread_spectrum{ppm, frequency{31'000}, 777});
            std::uint64_t state = 5, t = 1;
            for (int i = 0; i < 20'000; ++i) {
                state = state * 6364136223846793005ULL + 1442695040888963407ULL;
                const std::uint64_t period = 1'000'000'000'000'000ULL / hz;
                t += (state >> 33) % (300 * period);  // 0 to 300 periods on
                const std::uint64_t k = d.next_edge_cycle(duration{t});
                ASSERT_GE(oracle.time_of(k).fs, t) << ppm << " " << hz << " t=" << t;
                if (k > 0) {
                    ASSERT_LT(oracle.time_of(k - 1).fs, t) << ppm << " " << hz << " t=" << t;
                }
            }
        }
    }
}

TEST(ClockDomain, SpreadSpectrumRejectsImpossibleRates) {
    EXPECT_THROW(clock_domain("x", frequency{1'000'000}, spread_spectrum{100, frequency{0}, 0}), std::invalid_argument);
    EXPECT_THROW(clock_domain("x", frequency{1'000'000}, spread_spectrum{100, frequency{600'000}, 0}), std::invalid_argument);
}

// Edge times, whatever order they are asked in (the remembered answers, the
// closed form), against edge times summed here period by period: with
// spread spectrum, 2H times the triangle's value at cycle i is
// 2 min(i', 2H - i') for i' = i mod 2H, so 2H S(j) is a running sum, and
// edge k lies at floor(k 10^15 / f) + floor(A 2H S(k + phase) / M) - (same at
// phase), A = 10^9 ppm, M = 2H f. Small H (a high modulation rate) so that
// the runs wrap many triangles, and the real rate (31.5 kHz: H in the
// thousands); queries in a random mix of short steps, steps of up to two
// triangles, steps of a few thousand cycles (past every remembered edge),
// steps past the window within which edges are stepped from one computed in
// full (16,384 cycles) and back behind that one, jumps and steps back.
TEST(ClockDomain, EdgesAgreeWithPeriodsSummedOneByOne) {
    using u128 = unsigned __int128;
    const u128 F = 1'000'000'000'000'000ULL;
    for (std::uint64_t hz : {832'000'000ULL, 1'800'000'000ULL, 1'000'000'000ULL, 24'000'000ULL})
      for (const bool real_rate : {false, true})
        for (std::uint32_t ppm : {0u, 1u, 3'615u, 50'000u}) {
            const std::uint64_t rate = real_rate ? 31'500 : hz / 74;  // H = 37 cycles, or f / 63 kHz
            const std::uint64_t phase = 1'000'003;
            clock_domain d("d", frequency{hz}, spread_spectrum{ppm, frequency{rate}, phase});
            const std::uint64_t h = (hz + rate) / (2 * rate), two_h = 2 * h;
            if (!real_rate) {
                ASSERT_EQ(h, 37u);
            }
            const std::uint64_t n = 200'000;  // edges summed
            std::vector<u128> s2h(n + two_h + 1);  // 2H S(j) for j = 0 .. n + phase mod 2H
            for (std::uint64_t j = 0; j + 1 < s2h.size(); ++j) {
                const std::uint64_t i = j % two_h;
                s2h[j + 1] = s2h[j] + 2 * std::min(i, two_h - i);
            }
            const u128 a = u128(1'000'000'000ULL) * ppm, m = u128(two_h) * hz;
            const std::uint64_t p0 = phase % two_h;
            auto expected = [&](std::uint64_t k) {
                const u128 nominal = u128(k) * F / hz;
                if (ppm == 0) return static_cast<std::uint64_t>(nominal);
                return static_cast<std::uint64_t>(nominal + a * s2h[k + p0] / m - a * s2h[p0] / m);
            };
            std::uint64_t state = hz ^ ppm, k = 0;
            for (int i = 0; i < 40'000; ++i) {
                state = state * 6364136223846793005ULL + 1442695040888963407ULL;
                const std::uint64_t r = state >> 24;
                switch (r % 11) {
                    case 0: k = (r >> 8) % (n - 200); break;                 // a jump
                    case 1: k = k > 50 ? k - (r >> 8) % 50 : k; break;       // a step back
                    case 2: k += (r >> 8) % (2 * two_h + 1); break;          // up to two triangles
                    case 3: k += (r >> 8) % 5'000; break;                    // a few thousand edges on
                    case 4: k += (r >> 8) % 40'000; break;                   // past the stepping window
                    case 5: k = k > 8'000 ? k - (r >> 8) % 8'000 : k; break; // behind where stepping starts
                    default: k += (r >> 8) % 4; break;                       // the next few edges
                }
                if (k >= n) k = (r >> 8) % 1000;
                ASSERT_EQ(d.time_of(k).fs, expected(k)) << hz << " Hz, " << ppm << " ppm, edge " << k;
            }
        }
}

// Verdicts and fairness on the published runs (calibration.yaml), where the
// right answer is known, on hand-built edge cases, and against Jain's index.
#include <gtest/gtest.h>

#include "sim/units.h"
#include "workloads/contention.h"

using namespace cohsim;

TEST(Contention, PublishedStarvationIsStarved) {
    // asr_freq_skew_no_backoff, run 1: 182 vs 38371616 in 20 s, max wait 1.95 s.
    const auto r = judge({{"little.2", 182, 1'951'954e3}, {"big.3", 38'371'616, 1e3}}, 20e9);
    EXPECT_EQ(r.cores[0].v, verdict::starved);   // share 4.7e-6 < 1% of 0.5
    EXPECT_EQ(r.cores[1].v, verdict::dominant);  // it shut its contender out: never fair
    EXPECT_NEAR(r.cores[0].share, 182.0 / (182 + 38'371'616), 1e-12);
    // Jain: (a+b)^2 / (2 (a^2 + b^2)) = 0.5000047...
    EXPECT_NEAR(r.jain, 0.5000047, 1e-6);
    // A turn: 20 s * 2 cores / 38371798 acquisitions = 1042.3 ns; 1.95 s is 1.87e6 of them (1.9M in words).
    EXPECT_NEAR(r.turn_ns, 20e9 * 2 / 38'371'798.0, 1e-6);
    EXPECT_EQ(r.cores[0].reason,
              "little.2 STARVED: 182 acquisitions vs 38.4M for big.3 (share 4.7e-06); longest wait 1.95 s "
              "(1.9M turns)");
}

TEST(Contention, PublishedBackoffIsDisadvantaged) {
    // asr_freq_skew_wfe_backoff, run 1: 1849898 vs 37799379, max wait 131 ms.
    const auto r = judge({{"little.2", 1'849'898, 131'255e3}, {"big.3", 37'799'379, 1e3}}, 20e9);
    EXPECT_EQ(r.cores[0].v, verdict::disadvantaged);  // share 0.047 < 50% of 0.5; wait 0.66% of the run
    EXPECT_EQ(r.cores[1].v, verdict::dominant);       // 0.953 > 3/4
}

TEST(Contention, PublishedEqualFrequencyIsFair) {
    const auto r = judge({{"little.2", 12'945'632, 14e3}, {"big.3", 13'021'576, 14e3}}, 20e9);
    EXPECT_EQ(r.cores[0].v, verdict::fair);
    EXPECT_EQ(r.cores[1].v, verdict::fair);
    EXPECT_GT(r.jain, 0.9999);
}

TEST(Contention, ALongWaitAloneIsDisadvantagedNeverStarved) {
    // Even shares of 1000 each in 1 s: a turn is 1 s * 2 / 2000 = 1 ms.
    // One wait of 30% of the run: disadvantaged, not starved (it got its
    // share); of 100 turns (0.1 s): disadvantaged; of 99 turns: fair.
    EXPECT_EQ(judge({{"a", 1000, 0.30e9}, {"b", 1000, 0}}, 1e9).cores[0].v, verdict::disadvantaged);
    // 10000 each: a turn is 0.1 ms; a wait of 25% of the run (2500 turns) is
    // disadvantaged, one of 24% too (by turns).
    EXPECT_EQ(judge({{"a", 10000, 0.25e9}, {"b", 10000, 0}}, 1e9).cores[0].v, verdict::disadvantaged);
    EXPECT_EQ(judge({{"a", 1000, 0.100e9}, {"b", 1000, 0}}, 1e9).cores[0].v, verdict::disadvantaged);
    EXPECT_EQ(judge({{"a", 1000, 0.099e9}, {"b", 1000, 0}}, 1e9).cores[0].v, verdict::fair);
    EXPECT_NEAR(judge({{"a", 1000, 0.099e9}, {"b", 1000, 0}}, 1e9).cores[0].longest_wait_turns, 99, 1e-9);
}

TEST(Contention, TheSameLockAtTwoRunLengthsGetsTheSameLabel) {
    // 28 cores, even shares, waits of a few turns: at 100 us (41 each) too few
    // samples; at 1 ms (410 each) and 10 ms fair. A wait against T would have
    // called the short run DISADVANTAGED (2 us is 2% of 100 us).
    std::vector<contender> shortrun, longrun, longer;
    for (int i = 0; i < 28; ++i) {
        shortrun.push_back({"c" + std::to_string(i), 41, 2e3});
        longrun.push_back({"c" + std::to_string(i), 410, 5e3});
        longer.push_back({"c" + std::to_string(i), 4100, 8e3});
    }
    for (const auto& c : judge(shortrun, 100e3).cores) EXPECT_EQ(c.v, verdict::too_few) << c.reason;
    for (const auto& c : judge(longrun, 1e6).cores) EXPECT_EQ(c.v, verdict::fair) << c.reason;
    for (const auto& c : judge(longer, 10e6).cores) EXPECT_EQ(c.v, verdict::fair) << c.reason;
    EXPECT_FALSE(judge(shortrun, 100e3).enough);
}

TEST(Contention, TooFewSamplesIsNeverALabel) {
    // 99 per core on average: no verdict, even for a core with nothing.
    const auto r = judge({{"a", 198, 0}, {"b", 0, 1e6}}, 1e6);
    for (const auto& c : r.cores) EXPECT_EQ(c.v, verdict::too_few);
    EXPECT_EQ(r.cores[0].reason, "a: too few samples: 99 acquisitions per core on average, a verdict needs 100 (run longer)");
    // 100 per core: the labels return.
    const auto s = judge({{"a", 200, 0}, {"b", 0, 1e6}}, 1e6);
    EXPECT_EQ(s.cores[0].v, verdict::dominant);
    EXPECT_EQ(s.cores[1].v, verdict::starved);
    // A run of 1 ns with nothing acquired.
    EXPECT_EQ(judge({{"a", 0, 0}, {"b", 0, 0}}, 1).cores[0].v, verdict::too_few);
}

TEST(Contention, DominantIsAboveWhatLeavesOthersHalfTheirDue) {
    // Two cores: dominant above a share of 3/4; four: above 5/8.
    EXPECT_EQ(judge({{"a", 751, 0}, {"b", 249, 0}}, 1e9).cores[0].v, verdict::dominant);
    EXPECT_EQ(judge({{"a", 750, 0}, {"b", 250, 0}}, 1e9).cores[0].v, verdict::fair);
    EXPECT_EQ(judge({{"a", 750, 0}, {"b", 250, 0}}, 1e9).cores[1].v, verdict::fair);
    EXPECT_EQ(judge({{"a", 626, 0}, {"b", 125, 0}, {"c", 125, 0}, {"d", 124, 0}}, 1e9).cores[0].v, verdict::dominant);
    EXPECT_EQ(judge({{"a", 625, 0}, {"b", 125, 0}, {"c", 125, 0}, {"d", 125, 0}}, 1e9).cores[0].v, verdict::fair);
}

TEST(Contention, LabelsAgreeWithJainsIndex) {
    // On random share vectors: a core at share a/n caps Jain's index at
    // n(n-1) / (a^2 (n-1) + (n-a)^2); so STARVED by share means J <= that bound at
    // a = 0.01, DISADVANTAGED by share J below it at a = 0.5; and equal shares
    // with short waits are fair for every core.
    std::uint64_t x = 88172645463325252ULL;
    auto rnd = [&] {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        return x;
    };
    auto cap = [](double n, double a) { return n * (n - 1) / (a * a * (n - 1) + (n - a) * (n - a)); };
    int starved = 0, disadvantaged = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        const int n = 2 + static_cast<int>(rnd() % 30);
        std::vector<contender> cs;
        for (int i = 0; i < n; ++i) {
            const std::uint64_t k = rnd() % 5 == 0 ? rnd() % 50 : 1000 + rnd() % 100000;
            cs.push_back({"c" + std::to_string(i), k, 0});
        }
        const auto r = judge(cs, 1e9);
        if (!r.enough) continue;
        for (const auto& c : r.cores) {
            if (c.v == verdict::starved) {
                ++starved;
                EXPECT_LE(r.jain, cap(n, 0.01) + 1e-12);
            }
            if (c.v == verdict::disadvantaged && c.share < 0.5 / n) {
                ++disadvantaged;
                EXPECT_LT(r.jain, cap(n, 0.5));
            }
        }
    }
    EXPECT_GT(starved, 100);  // the property was exercised
    EXPECT_GT(disadvantaged, 100);
    EXPECT_NEAR(cap(2, 0.5), 0.8, 1e-12);  // 1 - 1/(4n-3)
    std::vector<contender> even;
    for (int i = 0; i < 8; ++i) even.push_back({"c" + std::to_string(i), 5000, 1e3});
    const auto e = judge(even, 1e9);
    EXPECT_EQ(e.jain, 1.0);
    for (const auto& c : e.cores) EXPECT_EQ(c.v, verdict::fair);
}

TEST(Contention, OneCoreOrNoAcquisitions) {
    EXPECT_EQ(judge({{"a", 5, 1e9}}, 1e9).cores[0].v, verdict::fair);  // nobody to lose to
    const auto r = judge({{"a", 0, 0}, {"b", 0, 0}}, 1e9);
    EXPECT_EQ(r.jain, 1.0);
    EXPECT_EQ(r.cores[0].share, 0.5);
    EXPECT_EQ(r.cores[0].v, verdict::too_few);
    EXPECT_EQ(count_text(38'371'616), "38.4M");
    EXPECT_EQ(count_text(12'345), "12.3k");
    EXPECT_EQ(time_text(15'309'597e3), "15.3 s");
}

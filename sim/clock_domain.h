// A clock domain: one frequency, counted in its own cycles, converted to
// simulated time only at its boundary. There is no clock signal and nothing
// ticks; a component asks "when is my cycle k?" or "when is my next edge at or
// after time t?" and schedules one event there.
//
// Exactness: edge k lies at floor(k * 10^15 / f) femtoseconds, computed in
// 128-bit integers from the cycle number, never by accumulating a rounded
// period. So a 832 MHz domain has no drift however long it runs, and two
// domains agree on every instant. The only rounding is the floor to a whole
// femtosecond, which is the simulator's time resolution.
//
// Spread-spectrum clocking (a noise source): a PLL with down-spread
// modulation stretches each period by up to `ppm` parts per million, rising
// and falling in a triangle of `rate` (modulation periods of 2H cycles, H =
// f / (2 rate) rounded). Edge k then lies at the exact edge above plus
// floor(10^9 ppm / f * S(k + phase) - same at phase) fs, S(j) the sum of the
// triangle tri(i) = i/H (rising) or (2H-i)/H (falling) over cycles i < j, in
// closed form and integers. The mean frequency is f (1 - ppm/2e6); the phase,
// in cycles, is the caller's (drawn from the run's seed), so the edges are a
// pure function of the cycle number, never of the order of queries. Modelled
// in cycle space (the triangle advances per cycle, not per second): the two
// differ by ppm of the modulation period, far below anything that matters.
//
// Speed: an edge's time is stepped from an anchor, an edge up to a window of
// cycles before it whose closed form was computed in full, with the
// remainders of both divisions kept: d more cycles add d whole periods, the
// carry of d fractional ones, and, while the triangle keeps one slope, a
// stretch that grows as d times a linear term in d; each a single 64-bit
// division, none of 128 bits outside the anchor. The anchor moves when a
// query lies behind it, past its window (a few thousand cycles) or on the
// triangle's next slope: rarely, as simulated time moves on. The result is
// the closed form's, exactly.
//
// Every answer is a pure function of its question, so each domain
// remembers recent ones in two small direct-mapped tables (edge number ->
// time, and time -> first edge at or after it; every edge computed is
// entered in both, as an edge's own time maps to itself). The same edges are
// asked about again and again (a message's arrival is the next hop's
// departure), and a remembered answer costs a multiply, a load and a compare
// instead of the closed form. With spread spectrum, the first edge at or
// after a time shortly past the last answer is found from the bounds on a
// period (the nominal one's whole fs, longest_period_fs()): often one
// candidate, no edge time computed.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "sim/units.h"

namespace cohsim {

// A PLL's spread-spectrum modulation; ppm 0: none (exact edges).
struct spread_spectrum {
    std::uint32_t ppm = 0;       // down-spread at the triangle's peak, parts per million of the period
    frequency rate{31'500};      // modulation frequency
    std::uint64_t phase = 0;     // where in the triangle cycle 0 falls, in cycles (taken modulo 2H)
};

class clock_domain {
public:
    clock_domain(std::string name, frequency freq, spread_spectrum ssc = {});

    const std::string& name() const { return m_name; }
    frequency freq() const { return m_freq; }  // nominal (the top of a spread-spectrum sweep)
    const spread_spectrum& spread() const { return m_ssc; }

    // Time of rising edge number `cycle` (edge 0 is at time 0).
    duration time_of(std::uint64_t cycle) const {
        const edge& e = m_by_cycle[cycle & memo_mask];
        return e.k == cycle ? duration{e.t} : computed_time_of(cycle);
    }

    // Index of the last edge at or before t.
    std::uint64_t cycle_at(duration t) const;

    // Index and time of the first edge at or after t: where a message that
    // arrives from another domain at t is first seen by this domain.
    std::uint64_t next_edge_cycle(duration t) const {
        const edge& e = m_by_time[time_slot(t)];
        return e.t == t.fs ? e.k : computed_next_edge_cycle(t);
    }
    duration next_edge(duration t) const { return time_of(next_edge_cycle(t)); }

    // An upper bound on any one period's length, in fs.
    std::uint64_t longest_period_fs() const { return m_ssc.ppm == 0 ? m_period_fs + 1 : m_longest_period; }

    // The edge `n` cycles after the first edge at or after t.
    duration edge_after(duration t, cycles n) const { return time_of(next_edge_cycle(t) + n.n); }

private:
    // Remembered answers: edge k at time t; in m_by_time, k is the first edge
    // at or after t. Empty slots hold {0, 0}, which is true of every domain.
    struct edge {
        std::uint64_t k = 0, t = 0;
    };
    static constexpr unsigned memo_bits = 8;
    static constexpr std::uint64_t memo_mask = (1u << memo_bits) - 1;
    static std::size_t time_slot(duration t) {
        return static_cast<std::size_t>((t.fs * 0x9E3779B97F4A7C15ULL) >> (64 - memo_bits));
    }
    duration computed_time_of(std::uint64_t cycle) const;
    duration reanchored_time_of(std::uint64_t cycle) const;
    void set_anchor(std::uint64_t cycle) const;
    duration remember(std::uint64_t cycle, std::uint64_t t) const {
        m_by_cycle[cycle & memo_mask] = {cycle, t};
        m_by_time[time_slot(duration{t})] = {cycle, t};
        return duration{t};
    }
    std::uint64_t computed_next_edge_cycle(duration t) const;
    std::uint64_t nominal_fs(std::uint64_t cycle, std::uint64_t& rem) const;
    std::uint64_t nominal_cycle_at(duration t) const;
    std::uint64_t nominal_next_edge_cycle(duration t) const;
    // floor(D * S(j)), D the peak stretch; and the division's remainder.
    std::uint64_t spread_fs(std::uint64_t j, std::uint64_t* rem = nullptr) const;
    std::uint64_t spread_next_edge_cycle(duration t) const;
    // The same, for a t far from the last answer (out of line: it needs the
    // registers that the near case can do without).
    __attribute__((noinline)) std::uint64_t spread_next_edge_far(duration t) const;

    std::string m_name;
    frequency m_freq;
    // 10^15 = m_period_fs * f + m_period_rem: the period's whole and
    // fractional femtoseconds, for finding the edge after a known one.
    std::uint64_t m_period_fs, m_period_rem;
    // The last edge computed without spread spectrum: cycle, time, and
    // (cycle * 10^15) mod f (nominal_next_edge_cycle steps from it; a spread
    // domain leaves it at edge 0, which is as true).
    mutable std::uint64_t m_last_k = 0, m_last_t = 0, m_last_r = 0;
    // Spread spectrum: half-period H in cycles, the phase modulo 2H, and the
    // stretch at the phase (subtracted so that edge 0 stays at time 0).
    spread_spectrum m_ssc;
    std::uint64_t m_half = 0, m_phase = 0, m_spread0 = 0;
    // The stretch's numerator factor A = 10^9 ppm and divisor M = 2H f.
    std::uint64_t m_spread_a = 0, m_spread_m = 1;
    std::uint64_t m_longest_period = 0;  // fs, an upper bound on any one period's length
    // The anchor (see Speed above): edge k, its nominal time tn and stretch s
    // (both whole fs), the remainders r = (k 10^15) mod f and rs = (A 2H S(j))
    // mod M, j = k + phase; the triangle's slope there (rising or falling,
    // and the factor of its growth). Edges k .. k + span - 1 are stepped
    // from it: within the window, and on one slope of the triangle.
    struct anchor_edge {
        std::uint64_t k = 0, tn = 0, s = 0, r = 0, rs = 0, slope = 0, span = 1;
        std::uint64_t turn = 1;  // 1 rising, 2^64 - 1 falling: the growth is d (slope + turn d)
    };
    mutable anchor_edge m_anchor;
    std::uint64_t m_window = 1;
    // The last edge found by a spread next_edge query, and its time.
    mutable std::uint64_t m_ssc_k = 0, m_ssc_t = 0;
    mutable std::array<edge, memo_mask + 1> m_by_cycle{}, m_by_time{};
};

}  // namespace cohsim

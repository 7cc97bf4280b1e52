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
#pragma once

#include <cstdint>
#include <string>

#include "sim/units.h"

namespace cohsim {

class clock_domain {
public:
    clock_domain(std::string name, frequency freq);

    const std::string& name() const { return m_name; }
    frequency freq() const { return m_freq; }

    // Time of rising edge number `cycle` (edge 0 is at time 0).
    duration time_of(std::uint64_t cycle) const;

    // Index of the last edge at or before t.
    std::uint64_t cycle_at(duration t) const;

    // Index and time of the first edge at or after t: where a message that
    // arrives from another domain at t is first seen by this domain.
    std::uint64_t next_edge_cycle(duration t) const;
    duration next_edge(duration t) const { return time_of(next_edge_cycle(t)); }

    // The edge `n` cycles after the first edge at or after t.
    duration edge_after(duration t, cycles n) const { return time_of(next_edge_cycle(t) + n.n); }

private:
    std::uint64_t exact_time_of(std::uint64_t cycle) const;

    std::string m_name;
    frequency m_freq;
    // 10^15 = m_period_fs * f + m_period_rem: the period's whole and
    // fractional femtoseconds, for stepping from a known edge without a
    // 128-bit division.
    std::uint64_t m_period_fs, m_period_rem;
    // The last edge computed: cycle, time, and (cycle * 10^15) mod f.
    mutable std::uint64_t m_last_k = 0, m_last_t = 0, m_last_r = 0;
};

}  // namespace cohsim

// A DynamIQ Shared Unit: the clusters that name it form one coherence
// domain, and share its L3, in the DSU's own clock.
//
// Modelled: a transfer between two clusters under one DSU is served inside
// the domain (the SCU hops of both clusters), without the interconnect; the
// L3 is a timing filter like the L2 (filled on use, LRU), and a miss whose
// data no cache owns and that no L2 of the requester holds is served in
// `l3.latency` DSU cycles when the L3 holds it.
// Not modelled: the DSU's own snoop-filter hop and queueing on transfers
// between its clusters (they cost only the clusters' SCU hops today), L3
// partitioning, slices, and data values (the functional memory holds them).
// Timing assumptions: `l3.latency` from the request reaching the DSU to its
// data, in DSU cycles.
#pragma once

#include <cstdint>
#include <string>

#include "models/cache_array.h"
#include "sim/clock_domain.h"
#include "sim/schema.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

struct l3_params {
    byte_size size{2 * 1024 * 1024};
    std::uint32_t ways = 16;
    cycles latency{20};
    static void describe(cfg::struct_schema<l3_params>& s);
};

struct dsu_params {
    frequency freq;
    l3_params l3;
    static void describe(cfg::struct_schema<dsu_params>& s);
};

class dsu {
public:
    dsu(const std::string& name, const clock_domain& clock, const l3_params& l3, std::uint32_t line_bytes);

    // When an L3 access asked at `t` has its data.
    duration l3_data(duration t) const { return m_clock->edge_after(t, m_p.latency); }
    bool l3_holds(std::uint64_t line) { return m_l3.find(line) != nullptr; }
    void l3_fill(std::uint64_t line);
    void l3_drop(std::uint64_t line);

    const stat_group& stats() const { return m_stats; }

private:
    const clock_domain* m_clock;
    l3_params m_p;
    cache_array<char> m_l3;
    stat_group m_stats;

public:
    counter l3_hits{m_stats, "l3_hits", "data supplied by the shared L3"};
};

}  // namespace cohsim

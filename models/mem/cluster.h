// A cluster's Snoop Control Unit and shared L2, in the cluster's (core)
// clock.
//
// Modelled: the SCU keeps duplicate tags of its L1s and is the point of
// serialisation for a request it can serve inside the cluster; each hop
// between an L1 and the SCU costs `scu.request_latency` (L1 to SCU) or
// `scu.snoop_latency` (SCU to L1) core cycles, and a message from outside
// arrives at the cluster's next clock edge. The L2 is a timing filter: it
// holds the lines the cluster has had (filled by grants from outside and by
// writebacks, LRU), and a miss whose data no cache owns is served in
// `l2.latency` cycles when the L2 holds it.
// Not modelled: L2 data values (the functional memory holds them), L2
// inclusion or exclusion policies beyond "filled on use", L2 MSHRs and
// banking, the SCU's own queueing.
// Timing assumptions: an L2 hit costs l1.hit_latency + scu.request_latency +
// l2.latency + scu.snoop_latency core cycles, as the platform files derive.
#pragma once

#include <cstdint>
#include <string>

#include "models/cache_array.h"
#include "sim/clock_domain.h"
#include "sim/schema.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

struct l2_params {
    byte_size size{1024 * 1024};
    std::uint32_t ways = 16;
    cycles latency{13};
    static void describe(cfg::struct_schema<l2_params>& s);
};

// Message hops inside a cluster, in the cluster's (core) clock.
struct scu_params {
    cycles request_latency{2};     // L1 -> SCU: a request, snoop response or unblock
    cycles snoop_latency{4};       // SCU -> L1: a snoop, or a grant
    cycles snoop_miss_latency{6};  // an interconnect snoop no L1 here needs to see
    static void describe(cfg::struct_schema<scu_params>& s);
};

class cluster {
public:
    cluster(const std::string& name, const clock_domain& clock, const l2_params& l2, const scu_params& scu,
            std::uint32_t line_bytes);

    const std::string& name() const { return m_name; }
    const clock_domain& clock() const { return *m_clock; }
    const scu_params& scu() const { return m_scu; }
    cycles l2_latency() const { return m_l2p.latency; }

    // `n` cycles of this cluster's clock after `t`'s next edge.
    duration after(duration t, cycles n) const { return m_clock->edge_after(t, n); }
    // A message from outside, sent at `t`, reaches the SCU (next edge).
    duration arrive(duration t) const { return m_clock->next_edge(t); }

    bool l2_holds(std::uint64_t line) { return m_l2.find(line) != nullptr; }
    // The L2 now holds the line (most recently used).
    void l2_fill(std::uint64_t line);
    // Another cluster wrote the line: the L2's copy is stale.
    void l2_drop(std::uint64_t line);

    const stat_group& stats() const { return m_stats; }

private:
    std::string m_name;
    const clock_domain* m_clock;
    l2_params m_l2p;
    scu_params m_scu;
    cache_array<char> m_l2;
    stat_group m_stats;

public:
    counter local_transactions{m_stats, "local_transactions", "requests served inside the cluster by the SCU"};
    counter l2_hits{m_stats, "l2_hits", "data supplied by the L2"};
    counter core_transfers{m_stats, "core_transfers", "lines handed from one core of the cluster to another"};
    counter interconnect_snoops{m_stats, "interconnect_snoops", "snoops received from the interconnect"};
};

// Fills a timing-filter cache with `line` (LRU), or refreshes it.
void fill_filter(cache_array<char>& a, std::uint64_t line);

}  // namespace cohsim

// The coherent memory system: a private L1 per core, a shared L2 and an SCU
// per cluster, a CCI-like interconnect between clusters, and memory. It runs
// the MOESI protocol of coherence_protocol.h with timing.
//
// Modelled:
//   - L1 data caches: set-associative, LRU, 64-byte lines; a hit costs
//     `l1.hit_latency` core cycles. Evicted lines wait in a writeback buffer
//     until their Put is acknowledged, so the new line can be filled at once.
//   - One point of serialisation per line (the home), blocking from a
//     request until the requester's Unblock. A request is served inside its
//     cluster when every copy it must snoop and the data it needs are there
//     (the SCU with its duplicate L1 tags is then the point of
//     serialisation); otherwise it travels on to the interconnect, which
//     snoops the other clusters: all of them (broadcast, CCI-400) or only
//     those holding the line (snoop filter, CCI-500/550).
//   - Each hop costs cycles of the clock of the component that sends it and
//     arrives at the receiver's next clock edge. Interconnect channels
//     (request, snoop, data) and memory have a busy-until time; simultaneous
//     arrivals are ordered by the arbitration policy, never by host order.
//   - The L2 is a timing filter: a miss whose data no other cache owns is
//     served at `l2.latency` if the cluster's L2 holds the line, else from
//     memory; writebacks from an L1 land in its cluster's L2.
//   - Exclusive monitors (exclusive_monitor.h), cleared when another core
//     writes the granule or takes the line away, and optionally on eviction;
//     a hold window delays snoops to a freshly reserved line. An STXR's
//     upgrade that lost its copy on the way fails at the home and takes
//     nothing (ACE exclusive CleanUnique).
//   - LSE atomics performed near: in the L1, after obtaining the line unique.
//   - LSE atomics performed far when the platform says so: at the point of
//     serialisation, after every cached copy is invalidated; the requester
//     gets the old value and no copy of the line.
//   - Several sockets: each cluster sits on a socket, and each socket has its
//     own interconnect (channels) and memory; a line's home is on socket
//     (line / 64) mod sockets (interleaved); every hop between a cluster and
//     a home on another socket crosses the link, which adds `link_latency`
//     and holds the link for the message's bytes.
//   - DynamIQ-style sharing: clusters under one DSU are one coherence domain
//     (a transfer between them is served by the DSU, in the clusters' own
//     hop latencies) and share an L3, a timing filter like the L2 with its
//     latency in the DSU's clock.
// Store buffers are the core's (models/core.h): here a store is an access
// like any other, performed when the protocol lets it.
// Not modelled (yet): instruction fetch.
// Data values live in one functional memory read and written at the instant
// an access performs in its L1; the protocol decides when that may happen.
#pragma once

#include <systemc>

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/coherence_protocol.h"
#include "models/mem/access.h"
#include "models/mem/cluster.h"
#include "models/mem/dram.h"
#include "models/mem/dsu.h"
#include "models/mem/interconnect.h"
#include "models/mem/l1_cache.h"
#include "sim/clock_domain.h"
#include "sim/event_queue.h"
#include "sim/observer.h"
#include "sim/schema.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

// Per cluster: its caches and SCU (the cluster's clock is its cores' clock).
struct cluster_memory_params {
    l1_params l1;
    l2_params l2;
    scu_params scu;
    exclusive_params exclusive;
};

class memory_system : public sc_core::sc_module {
public:
    struct cluster_spec {
        std::string name;
        const clock_domain* clock;
        unsigned cores;
        cluster_memory_params params;
        unsigned socket = 0;
        int dsu = -1;  // index into the DSUs, -1 for none
    };
    struct dsu_spec {
        std::string name;
        const clock_domain* clock;
        l3_params l3;
    };

    memory_system(const sc_core::sc_module_name& name, const std::vector<cluster_spec>& clusters,
                  const interconnect_params& ic, const memory_params& mem, const std::vector<dsu_spec>& dsus = {});
    ~memory_system() override;

    // Most accesses one L1 may have in flight (each to a different line).
    static constexpr unsigned max_outstanding = cohsim::max_outstanding;

    // Core `agent` (numbered over all clusters in order) joins; its port is
    // told when its reservation is lost.
    void attach(unsigned agent, core_port* port);

    // Starts an access at the current time. `done` runs once, at the time the
    // result is ready; for an L1 hit it runs before access() returns. An L1
    // may have several accesses in flight, to different lines (the core
    // keeps to its own limit, at most max_outstanding).
    void access(unsigned agent, const mem_request& r, std::function<void(const mem_response&)> done);

    // Load-to-use cycles of an L1 hit at `agent` (its cluster's l1.hit_latency).
    cycles l1_hit_latency(unsigned agent) const;

    // Functional memory, for setting up and checking workloads.
    std::uint64_t peek(std::uint64_t addr, unsigned size) const;
    void poke(std::uint64_t addr, unsigned size, std::uint64_t value);

    // Coherence state of a line in an agent's L1 (for tests and traces).
    protocol::cstate l1_state(unsigned agent, std::uint64_t addr) const;
    bool reservation_held(unsigned agent, std::uint64_t addr) const;
    // CLREX, and what an exception return does to the local monitor.
    void clear_exclusive(unsigned agent);

    std::vector<const stat_group*> stat_groups() const;

    // Coherence traffic of one line, counted where its home serves requests.
    struct line_traffic {
        std::uint64_t line = 0;  // address of the line
        std::uint64_t gets = 0, getm = 0, upgrades = 0;  // requests served (read, write, upgrade)
        std::uint64_t puts = 0;                          // evictions
        std::uint64_t exclusive_fails = 0;               // store-exclusive upgrades failed at the home
        std::uint64_t snoops = 0;                        // snoops sent to L1s for it
        std::uint64_t cross_cluster = 0;                 // data supplied by another cluster's cache
        std::uint64_t cross_socket = 0;                  // requests from a cluster on another socket than its home
        std::uint64_t requests() const { return gets + getm + upgrades; }
    };
    // Every line the home has seen, by address.
    std::vector<line_traffic> traffic() const;

    // How often each protocol-table cell was executed: cache controllers
    // (all L1s together) and the home.
    struct transition_counts {
        protocol::cache_counts cache{};
        protocol::home_counts home{};
    };
    const transition_counts& transitions() const;

    // Testing aid: after every L1 state change, check single-writer /
    // multiple-readers for that line over all L1s; a violation throws.
    void check_invariants(bool on);

    // Who watches: the timeline (misses, snoops, line states, request-to-grant
    // arrows) and the line explainer.
    void observe(const observers& o);

    // Progress watchdog: a description of the first access outstanding for
    // longer than `older_than` (a protocol deadlock: an access that the
    // protocol never completes), or empty. Starvation is different: its
    // accesses complete, they just never win.
    std::string stuck_access(duration older_than) const;

private:
    struct impl;
    std::unique_ptr<impl> m;
};

}  // namespace cohsim

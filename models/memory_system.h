// The coherent memory system: the composition of its components, built from
// the config and wired together, behind the API the cores and the tools use.
// Each component has its own file under models/mem/, with what it models,
// what it does not, and its timing:
//   l1_cache, l1_controller  a core's private L1 and its coherence controller
//   home                     the point of serialisation (full-map directory)
//   cluster                  a cluster's SCU and shared L2
//   dsu                      a DynamIQ Shared Unit and its L3
//   interconnect             the CCI-like channels and arbitration
//   socket_link              the link between sockets
//   dram                     one memory controller per socket
//   functional_memory        the data values
//   delivery                 when each message arrives (hop by hop)
//   fabric                   what the controllers share (queue, counts, checks)
// The protocol is the MOESI of coherence_protocol.h. Store buffers are the
// core's (models/core.h): here a store is an access like any other,
// performed when the protocol lets it. Not modelled (yet): instruction fetch.
#pragma once

#include "sim/noise.h"

#include <systemc>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/coherence_protocol.h"
#include "models/mem/access.h"
#include "models/mem/cluster.h"
#include "models/mem/dram.h"
#include "models/mem/dsu.h"
#include "models/mem/fabric.h"
#include "models/mem/home.h"
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
        dsu_params params;
    };

    memory_system(const sc_core::sc_module_name& name, const std::vector<cluster_spec>& clusters,
                  const interconnect_params& ic, const memory_params& mem, const std::vector<dsu_spec>& dsus = {},
                  const noise& n = {});
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
    void access(unsigned agent, const mem_request& r, const access_done& done);

    // Load-to-use cycles of an L1 hit at `agent` (its cluster's l1.hit_latency).
    cycles l1_hit_latency(unsigned agent) const;
    // The socket of `agent`'s cluster (0 on a one-socket platform): its NUMA node.
    unsigned socket_of_agent(unsigned agent) const;

    // Functional memory, for setting up and checking workloads.
    std::uint64_t peek(std::uint64_t addr, unsigned size) const;
    void poke(std::uint64_t addr, unsigned size, std::uint64_t value);

    // Coherence state of a line in an agent's L1 (for tests and traces).
    protocol::cstate l1_state(unsigned agent, std::uint64_t addr) const;
    bool reservation_held(unsigned agent, std::uint64_t addr) const;
    // CLREX, and what an exception return does to the local monitor.
    void clear_exclusive(unsigned agent);

    std::vector<const stat_group*> stat_groups() const;

    // Coherence traffic of one line (models/mem/home.h).
    using line_traffic = cohsim::line_traffic;
    // Every line the home has seen, by address.
    std::vector<line_traffic> traffic() const;

    // How often each protocol-table cell was executed (models/mem/fabric.h).
    using transition_counts = cohsim::transition_counts;
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
    // When the oldest access still outstanding was issued (none: empty).
    std::optional<duration> oldest_access() const;

private:
    struct impl;
    std::unique_ptr<impl> m;
};

}  // namespace cohsim

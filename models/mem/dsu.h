// A DynamIQ Shared Unit: the clusters that name it form one coherence
// domain, and share its L3 and its snoop unit, in the DSU's own clock.
//
// Modelled: a request of a core under the DSU that must snoop other cores
// (a line another core holds) is served inside the domain, without the
// interconnect, through the DSU: the snoops leave `snoop_latency` DSU cycles
// after the request reaches it (snoop-filter lookup and arbitration), and a
// snooped core's answer (with the line's data) reaches the requester's
// cluster `transfer_latency` DSU cycles after it reaches the DSU, on top of
// the clusters' own SCU hops. That holds for two cores of one cluster too:
// in a DynamIQ cluster each core has a private L2 and the DSU keeps them
// coherent. The L3 is a timing filter like the L2 (filled on use, LRU), and
// a miss whose data no cache owns and that no L2 of the requester holds is
// served in `l3.latency` DSU cycles when the L3 holds it. Counted apart:
// hand-offs between cores of one cluster and between clusters of the DSU.
// With `far_atomics`, an LSE atomic of a core under the DSU whose L1 does
// not hold the line unique is performed at the L3 (a CHI home node's far
// atomic): the request travels `snoop_latency` DSU cycles to the L3, every
// copy inside the domain (the requester's own included) is snooped away,
// the L3 (or the cluster's L2, or the old owner's answer) supplies the
// data in `l3.latency`, the L3 keeps the line and no L1 has it; the old
// value returns `transfer_latency` DSU cycles later. The line serves its
// next request once the atomic has performed: one atomic per line at a
// time, each an L3 access. A line with a copy outside the domain goes to
// the interconnect instead (as interconnect.far_atomics does). On a mesh
// the atomic is performed at the line's home node: the request travels
// there over the mesh (mesh.h) and is looked up (`snoop_latency`) as any
// request; the snooped copies' answers travel to the home node (an owner's
// line `transfer_latency` after its answer, as CHI's SnpRespData), the SLC
// slice's data comes in `l3.latency`, and the old value returns over the
// mesh as one flit (CompData), without `transfer_latency`.
// With `overlapped_lookup`, a request that waited for its line (another
// request held it) had its snoop-filter lookup and its snoops' trip done
// while it waited: its snoops leave `snoop_latency` after it reached the
// DSU, or as the line frees (the previous requester's Unblock) if that is
// later, so they follow the line to its new owner, which completes its own
// access first (a home that forwards the next request while the line is on
// its way). A request for an idle line is timed as without it.
// With `mesh` (mesh.h), the domain is a coherent mesh: its cores sit on
// crosspoints and each line has its home node on one; a request that its
// core's own L2 cannot serve alone travels to the home node and is
// serialised there (so a core nearer the home node wins a race); the
// lookup (`snoop_latency`) runs there; snoops, grants and L3 (SLC) data
// travel from it to the cores' XPs; a snooped owner's line goes straight
// to the requester after `transfer_latency` (or through the home node
// without direct_transfer), other answers through the home node; the
// requester's Unblock (CHI's CompAck) travels back to the home node before
// the line serves its next request. Each trip is mesh::route's (hops and
// link contention). A message between a mesh's core and a home on another
// socket crosses the mesh to or from its gateway (mesh.h).
// Not modelled: queueing in the DSU (each hop is a fixed latency), L3
// partitioning, the snoop filter's capacity, and data values (the
// functional memory holds them).
// Timing assumptions: `l3.latency` from the request reaching the DSU to its
// data, in DSU cycles; every hop arrives at the receiver's next clock edge.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/cache_array.h"
#include "models/mem/mesh.h"
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
    cycles snoop_latency{0};     // request at the DSU -> snoops leave for the cores holding the line
    cycles transfer_latency{0};  // a snooped core's answer at the DSU -> the requester's cluster
    bool far_atomics = false;    // LSE atomics on lines not unique in the L1 are performed at the L3
    bool overlapped_lookup = false;  // a waiting request's snoop lookup and trip overlap its wait
    l3_params l3;
    mesh_params mesh;  // width 0: no mesh
    static void describe(cfg::struct_schema<dsu_params>& s);
};

class dsu {
public:
    dsu(const std::string& name, const clock_domain& clock, const dsu_params& p, std::uint32_t line_bytes);

    // When an L3 access asked at `t` has its data.
    duration l3_data(duration t) const { return m_clock->edge_after(t, m_p.l3.latency); }
    // A request reaching the DSU at `t`: when its snoops leave.
    duration snoops_leave(duration t) const { return m_clock->edge_after(t, m_p.snoop_latency); }
    // A request that reached the DSU at `arrived`, served at `now` (later if
    // it waited for its line): when its snoops leave.
    duration snoops_leave(duration arrived, duration now) const {
        if (!m_p.overlapped_lookup) return snoops_leave(now);
        const duration looked_up = snoops_leave(arrived), freed = m_clock->next_edge(now);
        return looked_up < freed ? freed : looked_up;
    }
    // A snooped core's answer reaching the DSU at `t`: when it leaves for the requester.
    duration answer_leaves(duration t) const { return m_clock->edge_after(t, m_p.transfer_latency); }
    // A far atomic reaching the DSU at `t`: when it reaches the L3.
    duration far_at_l3(duration t) const { return snoops_leave(t); }
    bool far_atomics() const { return m_p.far_atomics; }

    // The mesh, when the DSU is one. `agents`: the agent numbers of the
    // domain's cores in order (placed so on the crosspoints), of `total` agents.
    bool is_mesh() const { return m_mesh != nullptr; }
    bool meshed() const { return m_p.mesh.enabled(); }  // a mesh once placed (place())
    void place(const std::vector<unsigned>& agents, unsigned total);
    const mesh* geometry() const { return m_mesh.get(); }
    // A request of `agent` leaving its XP at `t`: when it reaches the line's home node.
    duration to_home(unsigned agent, std::uint64_t line, duration t);
    // From the line's home node at `t` to `agent`'s XP (a snoop, a grant, or with `data` a line).
    duration from_home(unsigned agent, std::uint64_t line, duration t, bool data);
    // A snooped core's answer leaving its XP at `t`: when it reaches the
    // requester's XP (the owner's line after transfer_latency, straight or
    // through the home node; anything else through the home node).
    duration answer_reaches(unsigned from, unsigned requester, std::uint64_t line, duration t, bool data);
    // A snooped core's answer to a far atomic leaving its XP at `t`: when it
    // reaches the line's home node (with `data`, transfer_latency first).
    duration answer_to_home(unsigned from, std::uint64_t line, duration t, bool data);
    // A message crossing sockets (mesh.h), over this mesh: from `agent`'s XP
    // at `t` to the gateway; from the line's home node (a request it
    // forwards); from the gateway to `agent`'s XP. With `data`, a line.
    duration core_to_gateway(unsigned agent, duration t, bool data);
    duration home_node_to_gateway(std::uint64_t line, duration t);
    duration gateway_to_core(unsigned agent, duration t, bool data);
    bool l3_holds(std::uint64_t line) { return m_l3.find(line) != nullptr; }
    void l3_fill(std::uint64_t line);
    void l3_drop(std::uint64_t line);

    const stat_group& stats() const { return m_stats; }

private:
    const clock_domain* m_clock;
    dsu_params m_p;
    cache_array<char> m_l3;
    stat_group m_stats;
    std::unique_ptr<mesh> m_mesh;
    std::vector<unsigned> m_member;  // by agent: its place in the domain (meshes only)
    unsigned member(unsigned agent) const { return m_member[agent]; }
    unsigned home_xp(std::uint64_t line) const { return m_mesh->xp_of_home(line, m_line_bytes); }
    std::string m_name;
    std::uint32_t m_line_bytes;

public:
    counter l3_hits{m_stats, "l3_hits", "data supplied by the shared L3"};
    counter transfers{m_stats, "transfers", "lines handed from a core of one cluster to a core of another cluster of the DSU"};
    counter far_atomics_done{m_stats, "far_atomics", "LSE atomics performed at the L3 (far_atomics)"};
};

}  // namespace cohsim

// A coherent mesh (Arm CMN-600/650/700 style): crosspoints (XPs) in a W x H
// grid, the cores placed on them, a line's home node (HN-F: a slice of the
// system-level cache and its snoop filter) on the XP its address hashes to,
// and each message routed between XPs with per-hop latency and per-link
// contention. It is the geometry and the wires of a DSU-like domain (dsu.h:
// `dsus.<name>.mesh`); the DSU keeps its lookup and transfer latencies and
// its L3 (the SLC slices together), and asks the mesh when a message that
// leaves one XP reaches another.
//
// Modelled:
//   - placement: the domain's cores in their order (clusters in config
//     order, cores within), `cores_per_xp` to an XP, XPs in row-major order
//     (x first); home nodes: `home_nodes` slices spread evenly over the XPs
//     (0: one on every XP); a line's slice is its line number modulo the
//     slice count (a stand-in for CMN's address hash, uniform as it is);
//   - routes: dimension order (X, then Y), as CMN routes; each hop between
//     adjacent XPs costs `hop_latency` mesh cycles, and holds that link in
//     that direction for `link_occupancy` cycles per flit (a request,
//     snoop or response is one flit, a line of data `data_flits`); a
//     message waits for a link another message holds; a message between
//     two ports of one XP crosses no link and arrives at the next edge;
//   - a second socket: a message between one of the mesh's cores and a
//     line's home on another socket crosses this mesh between the core's
//     XP (or, for a request its home node forwards, the home node's XP)
//     and the `gateway` XP, where the socket link (socket_link.h) starts.
// Not modelled: XP-internal arbitration between ports, virtual channels and
// credits, the device ports' own queues, CMN's address hash (its mapping of
// particular lines to slices), edge XPs without cores (I/O, memory
// controllers), mesh wrap-around (there is none in CMN); on the line's home
// socket, the way between the gateway and the home node (the interconnect's
// latencies stand for the home socket's side of a crossing, as for a
// socket without a mesh).
// Timing assumptions: every hop is a whole number of mesh cycles; a message
// leaves its XP at the mesh clock's first edge at or after it is sent.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/clock_domain.h"
#include "sim/schema.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

struct mesh_params {
    std::uint32_t width = 0, height = 0;  // crosspoints across and down; 0: no mesh
    std::uint32_t cores_per_xp = 1;       // cores on one XP (2 through a CAL; 4 as Altra's two DSUs on a CAL)
    std::uint32_t home_nodes = 0;         // HN-F slices, spread over the XPs; 0: one per XP
    cycles hop_latency{1};                // mesh cycles from one XP to the next
    cycles link_occupancy{1};             // mesh cycles a flit holds a link
    std::uint32_t data_flits = 2;         // flits of a 64-byte line (CMN-600: 32-byte data flits)
    bool direct_transfer = true;          // DCT: a snooped owner's data goes straight to the requester
    std::uint32_t gateway = 0;            // the XP of the socket's link to the other sockets (CCIX/CML gateway)
    bool enabled() const { return width > 0; }
    static void describe(cfg::struct_schema<mesh_params>& s);
};

class mesh {
public:
    // `members`: how many cores the domain has (placed in order).
    mesh(const std::string& name, const clock_domain& clock, const mesh_params& p, unsigned members);

    const mesh_params& params() const { return m_p; }
    unsigned xps() const { return m_p.width * m_p.height; }
    // The XP of the domain's core number `member`, and of a line's home node.
    unsigned xp_of_core(unsigned member) const { return member / m_p.cores_per_xp; }
    unsigned xp_of_home(std::uint64_t line, std::uint64_t line_bytes) const;
    // XY hops between two XPs.
    unsigned hops(unsigned from, unsigned to) const;

    // A message of `flits` sent at `t` from XP `from` to XP `to`: when it
    // arrives (the links on its way are held as it passes).
    duration route(duration t, unsigned from, unsigned to, unsigned flits);

    const stat_group& stats() const { return m_stats; }

private:
    // The link out of XP `xp` in direction d (0: x+1, 1: x-1, 2: y+1, 3: y-1).
    std::uint64_t& link(unsigned xp, unsigned d) { return m_busy[xp * 4 + d]; }

    std::string m_name;
    const clock_domain* m_clock;
    mesh_params m_p;
    std::vector<std::uint64_t> m_busy;  // per link: busy until this edge of the mesh clock
    std::vector<unsigned> m_home_xp;    // per home-node slice: its XP
    stat_group m_stats;

public:
    counter messages{m_stats, "messages", "messages routed between crosspoints (or between two ports of one)"};
    counter hops_taken{m_stats, "hops", "links crossed by those messages"};
    counter link_waits{m_stats, "link_waits", "mesh cycles messages waited for a link another message held"};
};

}  // namespace cohsim

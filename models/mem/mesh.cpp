#include "models/mem/mesh.h"

#include <algorithm>
#include <stdexcept>

namespace cohsim {

void mesh_params::describe(cfg::struct_schema<mesh_params>& s) {
    s.param("width", &mesh_params::width, "crosspoints across the mesh; 0: the DSU is no mesh (fixed hops)")
        .def(0u)
        .range(0u, 16u);
    s.param("height", &mesh_params::height, "crosspoints down the mesh").def(0u).range(0u, 16u);
    s.param("cores_per_xp", &mesh_params::cores_per_xp,
            "cores on one crosspoint, placed in order (clusters as listed, cores within), XPs row by row")
        .def(1u)
        .range(1u, 8u);
    s.param("home_nodes", &mesh_params::home_nodes,
            "home-node slices (SLC and snoop filter), spread evenly over the XPs; a line's slice is its line "
            "number modulo their count; 0: one on every XP")
        .def(0u)
        .range(0u, 256u);
    s.param("hop_latency", &mesh_params::hop_latency, "mesh cycles from one crosspoint to the next")
        .def(cycles{1})
        .range(cycles{1}, cycles{100});
    s.param("link_occupancy", &mesh_params::link_occupancy, "mesh cycles one flit holds a link")
        .def(cycles{1})
        .range(cycles{0}, cycles{100});
    s.param("data_flits", &mesh_params::data_flits, "flits of a 64-byte line of data (requests, snoops and responses: one)")
        .def(2u)
        .range(1u, 8u);
    s.param("direct_transfer", &mesh_params::direct_transfer,
            "a snooped owner sends the line straight to the requester (CHI direct cache transfer); false: "
            "through the home node")
        .def(true);
    s.param("gateway", &mesh_params::gateway,
            "the crosspoint (row by row from 0) of the socket's link to the other sockets: a message between a core "
            "and a home on another socket crosses the mesh between the core's crosspoint and it")
        .def(0u)
        .range(0u, 255u);
    s.rule([](const mesh_params& p, const cfg::node* n, const std::string& path) {
        if ((p.width == 0) != (p.height == 0)) {
            const cfg::node* v = n ? n->find(p.width == 0 ? "width" : "height") : nullptr;
            throw cfg::config_error(v ? v->loc : (n ? n->loc : cfg::source_loc{}), path,
                                    "a mesh of " + std::to_string(p.width) + " x " + std::to_string(p.height) + " crosspoints",
                                    "width and height both above 0 (a mesh), or both 0 (none)");
        }
        if (p.width > 0 && p.gateway >= p.width * p.height) {
            const cfg::node* v = n ? n->find("gateway") : nullptr;
            throw cfg::config_error(v ? v->loc : cfg::source_loc{}, path + ".gateway",
                                    "crosspoint " + std::to_string(p.gateway) + " on a mesh of " +
                                        std::to_string(p.width * p.height) + " crosspoints",
                                    "a crosspoint from 0 to " + std::to_string(p.width * p.height - 1) + ", row by row");
        }
        if (p.home_nodes > p.width * p.height) {
            const cfg::node* v = n ? n->find("home_nodes") : nullptr;
            throw cfg::config_error(v ? v->loc : cfg::source_loc{}, path + ".home_nodes",
                                    std::to_string(p.home_nodes) + " home nodes on " + std::to_string(p.width * p.height) +
                                        " crosspoints",
                                    "at most one per crosspoint (0: one on every crosspoint)");
        }
    });
}

mesh::mesh(const std::string& name, const clock_domain& clock, const mesh_params& p, unsigned members)
    : m_name(name), m_clock(&clock), m_p(p), m_busy(std::size_t{4} * p.width * p.height, 0), m_stats(name + ".mesh") {
    if (!p.enabled()) throw std::invalid_argument("mesh " + name + ": no crosspoints");
    if (members > xps() * p.cores_per_xp)
        throw std::invalid_argument("mesh " + name + ": " + std::to_string(members) + " cores do not fit on " +
                                    std::to_string(xps()) + " crosspoints of " + std::to_string(p.cores_per_xp));
    const unsigned n = p.home_nodes == 0 ? xps() : p.home_nodes;
    for (unsigned s = 0; s < n; ++s) m_home_xp.push_back(static_cast<unsigned>(std::uint64_t{s} * xps() / n));
}

unsigned mesh::xp_of_home(std::uint64_t line, std::uint64_t line_bytes) const {
    return m_home_xp[(line / line_bytes) % m_home_xp.size()];
}

unsigned mesh::hops(unsigned from, unsigned to) const {
    const unsigned w = m_p.width;
    const unsigned dx = from % w > to % w ? from % w - to % w : to % w - from % w;
    const unsigned dy = from / w > to / w ? from / w - to / w : to / w - from / w;
    return dx + dy;
}

duration mesh::route(duration t, unsigned from, unsigned to, unsigned flits) {
    ++messages;
    std::uint64_t c = m_clock->next_edge_cycle(t);
    const std::uint64_t hold = m_p.link_occupancy.n * flits;
    const unsigned w = m_p.width;
    unsigned at = from;
    // One link, from XP `at` in direction d to XP `next`.
    auto cross = [&](unsigned d, unsigned next) {
        std::uint64_t& busy = link(at, d);
        const std::uint64_t start = std::max(c, busy);
        link_waits += start - c;
        ++hops_taken;
        busy = start + hold;
        c = start + m_p.hop_latency.n;
        at = next;
    };
    // Along the row to the destination's column, then the column (XY routing).
    const unsigned tx = to % w, ty = to / w;
    for (unsigned x = from % w; x < tx; ++x) cross(0, at + 1);
    for (unsigned x = from % w; x > tx; --x) cross(1, at - 1);
    for (unsigned y = from / w; y < ty; ++y) cross(2, at + w);
    for (unsigned y = from / w; y > ty; --y) cross(3, at - w);
    return m_clock->time_of(c);
}

}  // namespace cohsim

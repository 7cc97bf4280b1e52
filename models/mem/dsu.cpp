#include "models/mem/dsu.h"

#include "models/mem/cluster.h"
#include "models/cache_array.h"

namespace cohsim {

void l3_params::describe(cfg::struct_schema<l3_params>& s) {
    s.param("size", &l3_params::size, "shared L3 size").def(l3_params{}.size).range(byte_size{64 * 1024}, byte_size{1u << 30});
    s.param("ways", &l3_params::ways, "L3 associativity").def(l3_params{}.ways).range(1u, 64u);
    s.param("latency", &l3_params::latency, "L3 data access once the request is in the DSU, DSU cycles")
        .def(l3_params{}.latency)
        .range(cycles{1}, cycles{1000});
    cache_geometry_rule(s);
}

void dsu_params::describe(cfg::struct_schema<dsu_params>& s) {
    s.param("freq", &dsu_params::freq, "DSU (L3 and snoop unit) clock").range(frequency{1'000'000}, frequency{10'000'000'000ULL});
    s.param("snoop_latency", &dsu_params::snoop_latency,
            "DSU cycles from a request that must snoop other cores reaching the DSU to its snoops leaving (snoop "
            "filter and arbitration); also between two cores of one cluster")
        .def(cycles{0})
        .range(cycles{0}, cycles{1000});
    s.param("transfer_latency", &dsu_params::transfer_latency,
            "DSU cycles from a snooped core's answer (with the line) reaching the DSU to its leaving for the requester's "
            "cluster")
        .def(cycles{0})
        .range(cycles{0}, cycles{1000});
    s.param("far_atomics", &dsu_params::far_atomics,
            "LSE atomics of the DSU's cores on lines their L1 does not hold unique are performed at the L3 (far, as "
            "on a CHI home node) instead of in the L1 after taking the line (near)")
        .def(false);
    s.param("overlapped_lookup", &dsu_params::overlapped_lookup,
            "a request that waits for a line another request holds has its snoop lookup and its snoops' trip done "
            "meanwhile: its snoops leave snoop_latency after it reached the DSU, or as the line frees if later (they "
            "follow the line to its new owner); false: they leave snoop_latency after the line frees")
        .def(false);
    s.sub("l3", &dsu_params::l3, "the shared L3 (on a mesh: the system-level cache, its slices together)");
    s.sub("mesh", &dsu_params::mesh, "the domain as a coherent mesh (CMN-style): crosspoints, home nodes, routes");
}

dsu::dsu(const std::string& name, const clock_domain& clock, const dsu_params& p, std::uint32_t line_bytes)
    : m_clock(&clock), m_p(p), m_l3(cache_geometry{p.l3.size.bytes, p.l3.ways, line_bytes}), m_stats(name + ".l3"),
      m_name(name), m_line_bytes(line_bytes) {}

void dsu::place(const std::vector<unsigned>& agents, unsigned total) {
    if (!m_p.mesh.enabled()) return;
    m_mesh = std::make_unique<mesh>(m_name, *m_clock, m_p.mesh, static_cast<unsigned>(agents.size()));
    m_member.assign(total, 0);
    for (unsigned i = 0; i < agents.size(); ++i) m_member[agents[i]] = i;
}

duration dsu::to_home(unsigned agent, std::uint64_t line, duration t) {
    return m_mesh->route(t, m_mesh->xp_of_core(member(agent)), home_xp(line), 1);
}

duration dsu::from_home(unsigned agent, std::uint64_t line, duration t, bool data) {
    return m_mesh->route(t, home_xp(line), m_mesh->xp_of_core(member(agent)), data ? m_p.mesh.data_flits : 1);
}

duration dsu::answer_to_home(unsigned from, std::uint64_t line, duration t, bool data) {
    const unsigned a = m_mesh->xp_of_core(member(from));
    return data ? m_mesh->route(answer_leaves(t), a, home_xp(line), m_p.mesh.data_flits) : m_mesh->route(t, a, home_xp(line), 1);
}

duration dsu::answer_reaches(unsigned from, unsigned requester, std::uint64_t line, duration t, bool data) {
    if (data && m_p.mesh.direct_transfer)
        return m_mesh->route(answer_leaves(t), m_mesh->xp_of_core(member(from)), m_mesh->xp_of_core(member(requester)),
                             m_p.mesh.data_flits);
    return from_home(requester, line, answer_to_home(from, line, t, data), data);
}

duration dsu::core_to_gateway(unsigned agent, duration t, bool data) {
    return m_mesh->route(t, m_mesh->xp_of_core(member(agent)), m_p.mesh.gateway, data ? m_p.mesh.data_flits : 1);
}

duration dsu::home_node_to_gateway(std::uint64_t line, duration t) { return m_mesh->route(t, home_xp(line), m_p.mesh.gateway, 1); }

duration dsu::gateway_to_core(unsigned agent, duration t, bool data) {
    return m_mesh->route(t, m_p.mesh.gateway, m_mesh->xp_of_core(member(agent)), data ? m_p.mesh.data_flits : 1);
}

void dsu::l3_fill(std::uint64_t line) { fill_filter(m_l3, line); }

void dsu::l3_drop(std::uint64_t line) {
    if (auto* e = m_l3.find(line)) m_l3.invalidate(*e);
}

}  // namespace cohsim

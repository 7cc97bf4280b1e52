#include "models/mem/cluster.h"
#include "models/cache_array.h"

namespace cohsim {

void l2_params::describe(cfg::struct_schema<l2_params>& s) {
    s.param("size", &l2_params::size, "cluster-shared L2 size (unset: the core type's; private L2s add up)")
        .def(l2_params{}.size).range(byte_size{16 * 1024}, byte_size{256u << 20});
    s.param("ways", &l2_params::ways, "L2 associativity (unset: the core type's)")
        .def(l2_params{}.ways).range(1u, 64u);
    s.param("latency", &l2_params::latency,
            "L2 data access once the SCU has the request, core cycles (an L2 hit costs l1.hit_latency + "
            "scu.request_latency + l2.latency + scu.snoop_latency; unset: the core type's)")
        .def(l2_params{}.latency)
        .range(cycles{1}, cycles{1000});
    cache_geometry_rule(s);
}

void scu_params::describe(cfg::struct_schema<scu_params>& s) {
    s.param("request_latency", &scu_params::request_latency,
            "L1 to SCU: a request, snoop answer or unblock, core cycles (unset: the core type's)")
        .def(scu_params{}.request_latency)
        .range(cycles{0}, cycles{1000});
    s.param("snoop_latency", &scu_params::snoop_latency, "SCU to L1: a snoop or a grant, core cycles (unset: the core type's)")
        .def(scu_params{}.snoop_latency)
        .range(cycles{0}, cycles{1000});
    s.param("snoop_miss_latency", &scu_params::snoop_miss_latency,
            "answering an interconnect snoop that no L1 of the cluster needs to see, core cycles")
        .def(scu_params{}.snoop_miss_latency)
        .range(cycles{0}, cycles{1000});
}

void fill_filter(cache_array<char>& a, std::uint64_t line) {
    if (auto* e = a.find(line)) {
        a.touch(*e);
        return;
    }
    a.install(*a.victim(line, [](const auto&) { return true; }), line);
}

cluster::cluster(const std::string& name, const clock_domain& clock, const l2_params& l2, const scu_params& scu,
                 std::uint32_t line_bytes)
    : m_name(name), m_clock(&clock), m_l2p(l2), m_scu(scu),
      m_l2(cache_geometry{l2.size.bytes, l2.ways, line_bytes}), m_stats(name + ".scu") {}

void cluster::l2_fill(std::uint64_t line) { fill_filter(m_l2, line); }

void cluster::l2_drop(std::uint64_t line) {
    if (auto* e = m_l2.find(line)) m_l2.invalidate(*e);
}

}  // namespace cohsim

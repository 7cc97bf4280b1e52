#include "models/mem/dram.h"

namespace cohsim {

void memory_params::describe(cfg::struct_schema<memory_params>& s) {
    s.param("latency", &memory_params::latency, "DRAM access seen from the interconnect")
        .def(memory_params{}.latency)
        .range(duration{1'000'000}, duration{10'000'000'000ULL});
    s.param("bytes_per_second", &memory_params::bytes_per_second, "DRAM bandwidth, bytes per second")
        .def(memory_params{}.bytes_per_second)
        .range(std::uint64_t{1'000'000}, std::uint64_t{10'000'000'000'000ULL});
}

dram::dram(const memory_params& p, const clock_domain& ic, unsigned sockets, stat_group& stats)
    : m_p(p), m_ic(ic), m_free(sockets), m_reads(stats, "memory_reads", "lines read from memory") {}

duration dram::read_line(unsigned socket, duration now, std::uint64_t line_bytes) {
    ++m_reads;
    duration start = m_ic.next_edge(now);
    duration& free = m_free.at(socket);
    if (start < free) start = free;
    free = duration{start.fs + line_bytes * fs_per_second / m_p.bytes_per_second};
    return m_ic.next_edge(duration{start.fs + m_p.latency.fs});
}

}  // namespace cohsim

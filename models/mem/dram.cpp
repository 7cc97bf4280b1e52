#include "models/mem/dram.h"

namespace cohsim {

void memory_params::describe(cfg::struct_schema<memory_params>& s) {
    s.param("latency", &memory_params::latency, "DRAM access seen from the interconnect")
        .def(memory_params{}.latency)
        .range(duration{1'000'000}, duration{10'000'000'000ULL});
    s.param("bytes_per_second", &memory_params::bytes_per_second, "DRAM bandwidth, bytes per second")
        .def(memory_params{}.bytes_per_second)
        .range(std::uint64_t{1'000'000}, std::uint64_t{10'000'000'000'000ULL});
    s.param("refresh_interval", &memory_params::refresh_interval,
            "all-bank refresh period (tREFI; LPDDR4 3.904us, DDR4 7.8us); 0s: refresh not modelled")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second});
    s.param("refresh_time", &memory_params::refresh_time,
            "time each refresh blocks the memory (tRFCab: e.g. LPDDR4 8Gb 280ns, DDR4 8Gb 350ns)")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second / 1000});
    s.rule([](const memory_params& p, const cfg::node* n, const std::string& path) {
        if (p.refresh_interval.fs > 0 && !(p.refresh_time < p.refresh_interval)) {
            const cfg::node* k = n ? n->find("refresh_time") : nullptr;
            throw cfg::config_error(k ? k->loc : n ? n->loc : cfg::source_loc{}, cfg::join_path(path, "refresh_time"),
                                    "'" + to_string(p.refresh_time) + "' is not shorter than refresh_interval (" +
                                        to_string(p.refresh_interval) + ")",
                                    "a refresh shorter than its interval");
        }
    });
}

dram::dram(const memory_params& p, const clock_domain& ic, unsigned sockets, stat_group& stats, const noise& n)
    : m_p(p),
      m_ic(ic),
      m_free(sockets),
      m_reads(stats, "memory_reads", "lines read from memory"),
      m_refresh_waits(stats, "memory_refresh_waits", "reads that waited for a DRAM refresh to end") {
    if (n.on && p.refresh_interval.fs > 0)
        for (unsigned s = 0; s < sockets; ++s)
            m_refresh_phase.push_back(static_cast<std::uint64_t>(n.uniform(0x726566, s, 0, 0) *
                                                                 static_cast<double>(p.refresh_interval.fs)));
}

duration dram::read_line(unsigned socket, duration now, std::uint64_t line_bytes) {
    ++m_reads;
    duration start = m_ic.next_edge(now);
    duration& free = m_free.at(socket);
    // A read cannot start during a refresh (refreshes at phase + k * interval),
    // nor before the controller is free; either may push it into the other.
    bool refreshed = false;
    auto past_refresh = [&] {
        if (m_refresh_phase.empty()) return;
        const std::uint64_t iv = m_p.refresh_interval.fs, ph = m_refresh_phase[socket];
        const std::uint64_t since = (start.fs % iv + iv - ph % iv) % iv;  // since the latest refresh began
        if (since < m_p.refresh_time.fs && start.fs >= ph) start.fs += m_p.refresh_time.fs - since, refreshed = true;
    };
    past_refresh();
    if (start < free) start = free, past_refresh();
    if (refreshed) ++m_refresh_waits;
    free = duration{start.fs + line_bytes * fs_per_second / m_p.bytes_per_second};
    return m_ic.next_edge(duration{start.fs + m_p.latency.fs});
}

}  // namespace cohsim

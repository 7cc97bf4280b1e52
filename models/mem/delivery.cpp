#include "models/mem/delivery.h"

#include "models/mem/access.h"

namespace cohsim {

delivery::delivery(const std::vector<std::unique_ptr<cluster>>& clusters, std::vector<unsigned> socket_of,
                   interconnect& ic, socket_link& link, const noise& n)
    : m_clusters(clusters),
      m_socket_of(std::move(socket_of)),
      m_ic(ic),
      m_link(link),
      m_aperture_fs(n.on ? ic.params().cdc_aperture.fs : 0),
      m_aperture(static_cast<double>(m_aperture_fs)),
      m_half_aperture(static_cast<std::int64_t>(m_aperture_fs / 2)) {
    // Each draw's name begins (crossing, cluster): those streams hashed once.
    if (m_aperture_fs == 0) return;
    for (unsigned k = 0; k < m_socket_of.size(); ++k)
        for (unsigned crossing = 0; crossing < crossings; ++crossing) m_streams.push_back(n.stream(crossing, k));
}

unsigned delivery::home_socket(std::uint64_t line) const { return m_ic.home_socket(line, line_bytes); }

unsigned delivery::touch(unsigned k, std::uint64_t line) { return m_ic.touch(line, m_socket_of[k], line_bytes); }

duration delivery::scu_to_home(unsigned k, std::uint64_t line, duration t) {
    const unsigned h = m_ic.touch(line, m_socket_of[k], line_bytes);
    const interconnect_params& p = m_ic.params();
    return m_ic.through(synchronized(cross(t, k, h, true, false), 1, k, line), h, interconnect::channel::request,
                        p.request_occupancy, p.request_latency);
}

duration delivery::snoop_to_scu_input(unsigned k, std::uint64_t line, duration t) {
    const unsigned h = home_socket(line);
    const duration sent = m_ic.through(t, h, interconnect::channel::snoop, cycles{1}, m_ic.params().snoop_latency);
    return synchronized(cross(sent, k, h, false, false), 3, k, line);
}

duration delivery::home_to_scu_input(unsigned k, std::uint64_t line, duration t, bool data) {
    const interconnect_params& p = m_ic.params();
    const unsigned h = home_socket(line);
    const duration sent = m_ic.through(t, h, interconnect::channel::data, data ? p.data_occupancy : cycles{1}, p.data_latency);
    return synchronized(cross(sent, k, h, false, data), 4, k, line);
}

duration delivery::answer_to_home(unsigned k, std::uint64_t line, duration t, bool data, std::optional<cycles> latency) {
    const interconnect_params& p = m_ic.params();
    const unsigned h = home_socket(line);
    const duration leave = synchronized(cross(t, k, h, true, data), 2, k, line);
    if (latency) return m_ic.through(leave, *latency);
    return data ? m_ic.through(leave, h, interconnect::channel::data, p.data_occupancy, p.response_latency)
                : m_ic.through(leave, p.response_latency);
}

}  // namespace cohsim

#include "models/mem/socket_link.h"

namespace cohsim {

socket_link::socket_link(duration latency, std::uint64_t bytes_per_second, stat_group& stats)
    : m_latency(latency), m_bytes_per_second(bytes_per_second),
      m_crossings(stats, "link_crossings", "messages that crossed the inter-socket link") {}

duration socket_link::crossed(duration t, unsigned from, unsigned to, std::uint64_t bytes) {
    duration& free = m_free[{from, to}];
    const duration start = t < free ? free : t;
    free = duration{start.fs + bytes * fs_per_second / m_bytes_per_second};
    ++m_crossings;
    return duration{start.fs + m_latency.fs};
}

}  // namespace cohsim

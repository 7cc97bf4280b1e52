// The link between sockets (CCIX/CCPI-like): every message between a cluster
// and a line's home on another socket crosses it.
//
// Modelled: one link each way between every pair of sockets; a crossing
// starts when the link is free, holds it for the message's bytes at
// `bytes_per_second` (16 for a request, snoop or answer, a line's 64 for
// data), and arrives `latency` after it started.
// Not modelled: packetisation, credits, retries, link power states, routing
// through a third socket.
// Timing assumptions: `latency` is one crossing end to end, from published
// socket-to-socket measurements (see the platform file).
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

class socket_link {
public:
    // The counter joins `stats`.
    socket_link(duration latency, std::uint64_t bytes_per_second, stat_group& stats);

    // A message leaving socket `from` for socket `to` at `t`: when it arrives
    // (`t` itself when from == to). `bytes` is its size on the link.
    duration cross(duration t, unsigned from, unsigned to, std::uint64_t bytes) {
        return from == to ? t : crossed(t, from, to, bytes);  // inline: most messages stay on their socket
    }

private:
    duration m_latency;
    std::uint64_t m_bytes_per_second;
    duration crossed(duration t, unsigned from, unsigned to, std::uint64_t bytes);
    std::map<std::pair<unsigned, unsigned>, duration> m_free;  // (from, to) busy until
    counter m_crossings;
};

}  // namespace cohsim

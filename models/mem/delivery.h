// When a coherence message arrives: the routes between an L1, its cluster's
// SCU, the interconnect and a line's home, hop by hop. This decides *when*
// (clock edges of each hop's sender and receiver, channel busy-until times,
// link crossings), never *what* a message does.
//
// Each hop costs cycles of the clock of the component that sends it and
// arrives at the receiver's next clock edge:
//   L1 -> SCU       scu.request_latency core cycles (requests, answers, unblocks)
//   SCU -> L1       scu.snoop_latency core cycles (snoops, grants)
//   SCU -> home     the request channel of the home's interconnect
//   home -> SCU     the snoop channel (snoops) or the data channel (grants, data)
//   SCU -> home     answers: the data channel when they carry a line, else no channel
// and each hop between a cluster and a home on another socket crosses the
// socket link. With noise on and interconnect.cdc_aperture > 0, each of the
// four crossings between a cluster's clock and the interconnect's may miss
// its first receiver edge (interconnect.h), drawn per message from the run's
// seed, the crossing, the cluster, the line and the arrival time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/mem/access.h"
#include "models/mem/cluster.h"
#include "models/mem/interconnect.h"
#include "models/mem/socket_link.h"
#include "sim/noise.h"
#include "sim/units.h"

namespace cohsim {

class delivery {
public:
    // `socket_of`: each cluster's socket.
    delivery(const std::vector<std::unique_ptr<cluster>>& clusters, std::vector<unsigned> socket_of, interconnect& ic,
             socket_link& link, const noise& n = {});

    // A crossing into another clock domain arriving at `t`: the time the
    // receiver's synchronizer treats as its arrival (t, or later by less than
    // half the aperture, when the draw says it misses the edge). `crossing`
    // names which of the four, for the draw.
    duration synchronized(duration t, unsigned crossing, unsigned k, std::uint64_t line) const {
        if (m_aperture_fs == 0) return t;
        // The data's arrival relative to the receiver's clock, moved by a draw in
        // [-aperture/2, aperture/2): a negative draw cannot make it earlier (it is
        // seen at the first edge at or after t), a positive one can push it past
        // an edge that lies within it.
        const double u = noise::uniform_in(m_streams[k * crossings + crossing], line, t.fs);
        const auto d = static_cast<std::int64_t>(u * m_aperture) - m_half_aperture;
        return d > 0 ? duration{t.fs + static_cast<std::uint64_t>(d)} : t;
    }

    // `n` cycles of cluster `k`'s clock after `t`'s next edge.
    duration in_cluster(unsigned k, duration t, cycles n) const { return m_clusters[k]->after(t, n); }
    // `first` cycles of the L1's own (its lookup) from t's next edge, then
    // the hop: one edge to compute (n cycles after an edge that is m cycles
    // after t's next edge is m + n cycles after it).
    duration l1_to_scu(unsigned k, duration t, cycles first = {}) const {
        return in_cluster(k, t, cycles{first.n + m_clusters[k]->scu().request_latency.n});
    }
    duration scu_to_l1(unsigned k, duration t) const { return in_cluster(k, t, m_clusters[k]->scu().snoop_latency); }

    // A request cluster `k`'s SCU forwards to the interconnect, at `t`.
    duration scu_to_home(unsigned k, std::uint64_t line, duration t);
    // A snoop, and a grant (with the line's data, or not), from the
    // interconnect to cluster `k`'s SCU: the time they reach its input. The
    // SCU takes them at its next edge (cluster::arrive), and a hop on from
    // there (in_cluster, scu_to_l1) counts from that edge itself, so a caller
    // that goes on at once computes no edge of its own.
    duration snoop_to_scu_input(unsigned k, std::uint64_t line, duration t);
    duration home_to_scu_input(unsigned k, std::uint64_t line, duration t, bool data);
    // An answer (snoop answer, unblock, data) from `k`'s SCU to the
    // interconnect; a `latency`, when given, replaces the response channel's
    // (a requester's Unblock in the interconnect's ack_latency).
    duration answer_to_home(unsigned k, std::uint64_t line, duration t, bool data, std::optional<cycles> latency = {});

    unsigned home_socket(std::uint64_t line) const;
    unsigned socket_of(unsigned k) const { return m_socket_of[k]; }
    // A request of cluster k for `line` reaches the interconnect: its home socket (interconnect::touch).
    unsigned touch(unsigned k, std::uint64_t line);

private:
    // A hop between cluster `k` and the home on socket `home` over the socket link.
    duration cross(duration t, unsigned k, unsigned home, bool to_home, bool data) {
        const unsigned a = m_socket_of[k];
        const std::uint64_t bytes = data ? line_bytes : 16;  // a line, or a message without one
        return to_home ? m_link.cross(t, a, home, bytes) : m_link.cross(t, home, a, bytes);
    }

    const std::vector<std::unique_ptr<cluster>>& m_clusters;
    std::vector<unsigned> m_socket_of;
    interconnect& m_ic;
    socket_link& m_link;
    std::uint64_t m_aperture_fs;  // 0: no synchronizer noise
    double m_aperture;             // the same, for the draw's product
    std::int64_t m_half_aperture;  // aperture / 2, whole fs
    // The noise streams of the synchronizers, by cluster and crossing (1-4):
    // noise::stream(crossing, k), so that a draw is noise::uniform(crossing,
    // k, line, t) at two hashes' cost.
    static constexpr unsigned crossings = 5;
    std::vector<std::uint64_t> m_streams;
};

}  // namespace cohsim

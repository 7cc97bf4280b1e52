// The CCI-like interconnect between clusters: per socket, a request channel,
// a snoop channel and a data channel, each with a busy-until time, in the
// interconnect's own clock; the order of requests waiting for one line.
//
// Modelled: a message through a channel starts at the interconnect's next
// clock edge (or when the channel is free, if later), holds the channel for
// `occupancy` cycles and arrives `latency` cycles after it started; answers
// to the point of serialisation hold no channel. Simultaneous requests for a
// line are ordered by the arbitration policy, never by host order. With
// several sockets, a line's home (the socket whose memory holds it) follows
// `placement`: interleaved by line number, or the socket of the first core to
// ask for any line of its page (first touch, Linux's default local
// allocation), which is the socket's own memory for the rest of the run.
// A request that reaches the interconnect while another request holds its
// line waits there until that requester's Unblock has travelled back; with
// `overlapped_lookup` (home.cpp: snoop_reaches, unblock_reaches) the line
// frees as it reaches its new owner's SCU, and a waiting request's snoops
// reach each cluster as their trip from its arrival would bring them, or as
// the line frees if that is later: they follow the line.
// With `wait_at_interconnect` (home.cpp: passes_scu) a request that finds
// its line busy with another cluster's transaction does not wait at its SCU
// (which cannot see the point of serialisation) but goes on at once and
// waits here, in the order it arrives here; a request of the transaction's
// own cluster, or a read its own L2/L3 can serve, still waits at the SCU.
// The requester's Unblock crosses in `ack_latency` (ACE's RACK/WACK, one
// signal) when set, else as a snoop answer without data (response_latency).
// Not modelled: the snoop filter's capacity (it is exact and unbounded:
// `snoop_filter: true` snoops only the clusters holding the line), QoS,
// virtual channels, credit flow control.
// Timing assumptions: each latency is in interconnect cycles from the
// platform's sources; the line transfer's occupancy models the data width.
// Background traffic (activity.bus_traffic): each channel's cycles are each
// taken by other agents (GPU, DMA, display) with probability load_percent,
// independently per cycle, socket and channel, keyed by the cycle's number;
// a message waits for the first cycle the channel is free.
// Noise (run.noise): a message crossing between a cluster's clock and the
// interconnect's is seen at the receiver's first edge at or after its
// arrival, except that one arriving within cdc_aperture/2 before that edge,
// or exactly on it, may miss it (then the next edge): the synchronizer's
// setup window and the two clocks' relative jitter. The miss is drawn per
// message (delivery.h): probability 1/2 exactly on the edge, falling linearly
// to 0 at cdc_aperture/2 before it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "sim/clock_domain.h"
#include "sim/schema.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

enum class arbitration { fifo, round_robin, fixed_priority };
template <>
struct cfg::enum_names<arbitration> {
    static const std::vector<std::pair<arbitration, const char*>>& list();
};

enum class placement { interleave, first_touch };
template <>
struct cfg::enum_names<placement> {
    static const std::vector<std::pair<placement, const char*>>& list();
};

struct interconnect_params {
    frequency freq;
    bool snoop_filter = false;
    arbitration arbiter = arbitration::fifo;
    cycles request_latency{4};   // cluster -> point of serialisation
    cycles snoop_latency{4};     // point of serialisation -> cluster
    cycles response_latency{4};  // cluster -> point of serialisation, snoop answers and unblocks
    cycles data_latency{4};      // point of serialisation -> requesting cluster
    // cluster -> point of serialisation, a requester's completion acknowledgement
    // (the Unblock: ACE's RACK/WACK); unset = response_latency
    std::optional<cycles> ack_latency;
    cycles request_occupancy{1}; // cycles a message holds the request channel
    cycles data_occupancy{4};    // cycles a 64-byte line holds the data channel
    bool far_atomics = false;    // LSE atomics performed at the interconnect
    bool overlapped_lookup = false;  // a waiting request's snoops' lookup and trip overlap its wait
    bool wait_at_interconnect = false;  // a request for a line busy with another cluster's transaction waits here, not at its SCU
    duration link_latency{100'000'000};                 // between sockets, each way
    duration cdc_aperture{0};  // synchronizer decision window at the interconnect's ports; 0 = exact edges
    // Other agents' traffic (the scenario's activity, not a config key here):
    // each interconnect cycle, each channel is taken by another agent with
    // this probability, independently (a Bernoulli load), drawn from the seed.
    std::uint32_t background_percent = 0;
    std::uint64_t background_seed = 0;
    // The interconnect PLL's spread-spectrum modulation (the platform's
    // spread_spectrum section with this PLL's phase; not a key here).
    spread_spectrum clock_spread;
    std::uint64_t link_bytes_per_second = 25'000'000'000ULL;
    placement homes = placement::interleave;  // which socket's memory holds a line
    byte_size page_size{4096};                // first_touch's granule
    static void describe(cfg::struct_schema<interconnect_params>& s);
};

class interconnect {
public:
    enum class channel { request, snoop, data };

    // `agents`: the cores, numbered over all clusters (for arbitration).
    interconnect(const interconnect_params& p, unsigned sockets, unsigned agents);

    const interconnect_params& params() const { return m_p; }
    const clock_domain& clock() const { return m_clock; }
    unsigned sockets() const { return static_cast<unsigned>(m_ports.size()); }
    // The socket whose home serves `line`: interleaved by line number, or
    // (first_touch) the socket `touch` recorded for its page.
    unsigned home_socket(std::uint64_t line, std::uint64_t line_bytes) const {
        if (placed_by_touch()) {
            const auto it = m_page_home.find(page_of(line));
            if (it != m_page_home.end()) return it->second;
        }
        return interleaved(line, line_bytes);
    }
    // A request from a core of `socket` for `line` reaches the interconnect:
    // under first_touch, the first one for its page places the page there.
    // Returns the line's home socket, as home_socket() then does.
    unsigned touch(std::uint64_t line, unsigned socket, std::uint64_t line_bytes) {
        return placed_by_touch() ? m_page_home.emplace(page_of(line), socket).first->second : interleaved(line, line_bytes);
    }

    // A message through channel `c` of socket `socket`'s interconnect, sent
    // at `t`: starts at the first free edge, holds the channel `occupancy`
    // cycles, arrives `latency` cycles after it started.
    duration through(duration t, unsigned socket, channel c, cycles occupancy, cycles latency) {
        ports& p = m_ports[socket];
        std::uint64_t& busy = c == channel::request ? p.request : c == channel::snoop ? p.snoop : p.data;
        // In the interconnect's cycles: the first edge at or after t, or the
        // channel's first free one (an edge order is a time order).
        std::uint64_t k = std::max(m_clock.next_edge_cycle(t), busy);
        if (m_p.background_percent > 0) k = past_background(k, socket, c);
        busy = k + occupancy.n;
        return m_clock.time_of(k + latency.n);
    }
    // A message that holds no channel: from the next edge, `latency` cycles.
    duration through(duration t, cycles latency) const { return m_clock.edge_after(t, latency); }

    // Whether a request from cluster `k` served here snoops cluster `j`:
    // with a snoop filter, when `j` holds the line; broadcasting, every
    // cluster but the requester's (and `k` too for a far atomic, whose own
    // copy must go).
    bool snoops_cluster(unsigned j, bool holds, unsigned k, bool far) const {
        return holds || (!m_p.snoop_filter && (j != k || far));
    }

    // Arbitration: requests for one line that arrive at the same time are
    // served in the order of this key (lower first); `served` rotates it.
    std::uint64_t arbitration_key(unsigned agent) const {
        if (m_p.arbiter == arbitration::round_robin) return (agent + m_agents - m_rr_last - 1) % m_agents;
        return agent;
    }
    void served(unsigned agent) {
        if (m_p.arbiter == arbitration::round_robin) m_rr_last = agent;
    }
    // Whether the order of two requests (before()) stays the same while they
    // wait: with every arbiter but round robin.
    bool order_fixed() const { return m_p.arbiter != arbitration::round_robin; }
    // Whether a request from `a` that arrived at `ta` goes before one from `b` at `tb`.
    bool before(unsigned a, duration ta, unsigned b, duration tb) const {
        if (m_p.arbiter == arbitration::fixed_priority) return a < b;
        return ta < tb || (ta == tb && arbitration_key(a) < arbitration_key(b));
    }

    // The interconnect's group; DRAM, the home's far atomics and the socket
    // link add their counters to it.
    stat_group& stats() { return m_stats; }
    const stat_group& stats() const { return m_stats; }

private:
    stat_group m_stats{"interconnect"};

public:
    counter requests{m_stats, "requests", "requests that reached the interconnect"};
    counter requests_gets{m_stats, "requests_gets", "ReadShared requests (GetS) at the interconnect"};
    counter requests_getm{m_stats, "requests_getm", "ReadUnique and MakeUnique requests (GetM, MakeU) at the interconnect"};
    counter requests_upgrade{m_stats, "requests_upgrade", "CleanUnique requests (upgrades) at the interconnect"};
    counter snoops{m_stats, "snoops", "snoops sent to clusters"};
    counter transfers{m_stats, "cross_cluster_transfers", "lines supplied by a cache in another cluster"};
    counter m_background_waits{m_stats, "background_waits", "interconnect cycles messages waited for other agents' traffic"};

private:
    interconnect_params m_p;
    clock_domain m_clock;
    unsigned m_agents;
    unsigned m_rr_last = 0;
    struct ports {
        std::uint64_t request = 0, snoop = 0, data = 0;  // busy until this edge of the interconnect's clock
    };
    std::vector<ports> m_ports;  // per socket
    std::unordered_map<std::uint64_t, unsigned> m_page_home;  // first_touch: page -> socket
    // The first of cycles k, k+1, ... of channel c that other agents' traffic leaves free.
    std::uint64_t past_background(std::uint64_t k, unsigned socket, channel c);
    bool placed_by_touch() const { return m_p.homes == placement::first_touch && m_ports.size() > 1; }
    std::uint64_t page_of(std::uint64_t line) const { return line / m_p.page_size.bytes; }
    unsigned interleaved(std::uint64_t line, std::uint64_t line_bytes) const {
        return static_cast<unsigned>((line / line_bytes) % m_ports.size());
    }
};

}  // namespace cohsim

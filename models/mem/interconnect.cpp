#include "models/mem/interconnect.h"

#include <algorithm>

#include "sim/random.h"

namespace cohsim {

const std::vector<std::pair<arbitration, const char*>>& cfg::enum_names<arbitration>::list() {
    static const std::vector<std::pair<arbitration, const char*>> l = {
        {arbitration::fifo, "fifo"}, {arbitration::round_robin, "round_robin"},
        {arbitration::fixed_priority, "fixed_priority"}};
    return l;
}

const std::vector<std::pair<placement, const char*>>& cfg::enum_names<placement>::list() {
    static const std::vector<std::pair<placement, const char*>> l = {{placement::interleave, "interleave"},
                                                                      {placement::first_touch, "first_touch"}};
    return l;
}

void interconnect_params::describe(cfg::struct_schema<interconnect_params>& s) {
    s.param("freq", &interconnect_params::freq, "interconnect clock")
        .range(frequency{1'000'000}, frequency{10'000'000'000ULL});
    s.param("snoop_filter", &interconnect_params::snoop_filter,
            "snoop only the clusters holding the line (CCI-500/550) instead of all others (CCI-400)")
        .def(interconnect_params{}.snoop_filter);
    s.param("arbitration", &interconnect_params::arbiter,
            "order of requests waiting for one line: fifo (arrival, ties to the lower core), round_robin "
            "(arrival, ties rotate), fixed_priority (lower core number first)")
        .def(interconnect_params{}.arbiter);
    s.param("request_latency", &interconnect_params::request_latency,
            "cluster to point of serialisation, interconnect cycles")
        .def(interconnect_params{}.request_latency)
        .range(cycles{0}, cycles{10000});
    s.param("snoop_latency", &interconnect_params::snoop_latency, "point of serialisation to a cluster, interconnect cycles")
        .def(interconnect_params{}.snoop_latency)
        .range(cycles{0}, cycles{10000});
    s.param("response_latency", &interconnect_params::response_latency,
            "a cluster's snoop answer or unblock back to the point of serialisation, interconnect cycles")
        .def(interconnect_params{}.response_latency)
        .range(cycles{0}, cycles{10000});
    s.param("data_latency", &interconnect_params::data_latency,
            "point of serialisation to the requesting cluster (grant or data), interconnect cycles")
        .def(interconnect_params{}.data_latency)
        .range(cycles{0}, cycles{10000});
    s.param("ack_latency", &interconnect_params::ack_latency,
            "a requester's acknowledgement that its transaction is complete (the Unblock; ACE's RACK/WACK, one "
            "signal) back to the point of serialisation, interconnect cycles; default: response_latency")
        .def(std::nullopt)
        .range(cycles{0}, cycles{10000});
    s.param("request_occupancy", &interconnect_params::request_occupancy,
            "interconnect cycles one request holds the request channel")
        .def(interconnect_params{}.request_occupancy)
        .range(cycles{1}, cycles{1000});
    s.param("data_occupancy", &interconnect_params::data_occupancy,
            "interconnect cycles one 64-byte line holds the data channel")
        .def(interconnect_params{}.data_occupancy)
        .range(cycles{1}, cycles{1000});
    s.param("far_atomics", &interconnect_params::far_atomics,
            "LSE atomics are performed at the interconnect (far) instead of in the L1 after taking the line (near)")
        .def(false);
    s.param("overlapped_lookup", &interconnect_params::overlapped_lookup,
            "the line frees as it reaches its new owner's SCU, and a request that waited at the interconnect for it "
            "has its snoops' lookup and trip done meanwhile: they reach each cluster as their trip from the request's "
            "arrival would bring them, or as the line frees if later (they follow the line to its new owner); false: "
            "the line frees when the Unblock reaches the interconnect, and a waiting request's snoops leave then")
        .def(false);
    s.param("wait_at_interconnect", &interconnect_params::wait_at_interconnect,
            "a request that finds its line busy with another cluster's transaction goes on to the interconnect and "
            "waits there, in the order it arrives there (a cluster's SCU cannot see the point of serialisation; it "
            "holds only what its own cores asked, or a read its own L2 or L3 can serve); false: it waits at its SCU "
            "until the line frees, then travels on")
        .def(false);
    s.param("link_latency", &interconnect_params::link_latency,
            "one crossing of the inter-socket link (only with clusters on several sockets)")
        .def(interconnect_params{}.link_latency)
        .range(duration{0}, duration{100'000'000'000ULL});
    s.param("cdc_aperture", &interconnect_params::cdc_aperture,
            "decision window of the clock-domain-crossing synchronizers between the clusters and the interconnect "
            "(setup time plus the clocks' relative jitter): a message arriving within half of it before a receiver "
            "edge, or on it, may miss that edge; 0s: every crossing is seen at the first edge (no noise)")
        .def(duration{0})
        .range(duration{0}, duration{1'000'000});
    s.param("link_bytes_per_second", &interconnect_params::link_bytes_per_second,
            "inter-socket link bandwidth each way, bytes per second")
        .def(interconnect_params{}.link_bytes_per_second)
        .range(std::uint64_t{1'000'000}, std::uint64_t{10'000'000'000'000ULL});
    s.param("placement", &interconnect_params::homes,
            "which socket's memory holds a line, with several sockets: interleave (by line number, as a firmware's "
            "socket interleave or numactl --interleave) or first_touch (the socket of the first core to ask for a "
            "line of its page: Linux's default local allocation)")
        .def(interconnect_params{}.homes);
    s.param("page_size", &interconnect_params::page_size, "first_touch's granule: the OS page size")
        .def(interconnect_params{}.page_size)
        .range(byte_size{4096}, byte_size{1u << 30});
}

interconnect::interconnect(const interconnect_params& p, unsigned sockets, unsigned agents)
    : m_p(p), m_clock("interconnect", p.freq, p.clock_spread), m_agents(agents), m_ports(sockets) {}

std::uint64_t interconnect::past_background(std::uint64_t k, unsigned socket, channel c) {
    // Skip the cycles other agents hold (a stateless draw per cycle).
    const std::uint64_t stream =
        splitmix64(splitmix64(m_p.background_seed ^ 0x627573ULL) ^ (socket * 4 + static_cast<unsigned>(c)));
    const auto taken = [&](std::uint64_t cycle) { return splitmix64(stream ^ cycle) % 100 < m_p.background_percent; };
    while (taken(k)) ++k, ++m_background_waits;
    return k;
}

}  // namespace cohsim

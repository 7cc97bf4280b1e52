// The memory system's plain components, each alone (no SystemC kernel):
// DRAM, the socket link, the interconnect's channels and arbitration, a
// cluster's SCU hops and L2 filter, a DSU's L3, the message routes and the
// functional memory. Every expected time is worked out by hand from the
// clocks in the comment beside it (1 GHz: 1 ns a cycle; 500 MHz: 2 ns;
// 300 MHz: edges at floor(k * 10^15 / 3e8) fs).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "models/mem/cluster.h"
#include "models/mem/delivery.h"
#include "models/mem/dram.h"
#include "models/mem/dsu.h"
#include "models/mem/functional_memory.h"
#include "models/mem/interconnect.h"
#include "models/mem/mesh.h"
#include "models/mem/socket_link.h"

using namespace cohsim;

namespace {

constexpr std::uint64_t ns = 1'000'000;  // fs
duration at_ns(std::uint64_t n) { return duration{n * ns}; }

interconnect_params ic_params(std::uint64_t mhz) {
    interconnect_params p;
    p.freq = frequency{mhz * 1'000'000};
    return p;
}

}  // namespace

TEST(Dram, ALineComesBackLatencyAfterTheNextInterconnectEdge) {
    const clock_domain ic("ic", frequency{500'000'000});  // edges every 2 ns
    stat_group g("interconnect");
    memory_params p;
    p.latency = at_ns(100);
    p.bytes_per_second = 12'800'000'000ULL;  // a 64-byte line holds the controller 5 ns
    dram d(p, ic, 1, g);
    // Asked at 1 ns: starts at the 2 ns edge, data at the first edge at or after 102 ns.
    EXPECT_EQ(d.read_line(0, at_ns(1), 64).fs, 102 * ns);
    // Asked at 2 ns too: the controller is busy until 7 ns; 107 ns rounds up to the 108 ns edge.
    EXPECT_EQ(d.read_line(0, at_ns(2), 64).fs, 108 * ns);
}

TEST(Dram, EachSocketHasItsOwnController) {
    const clock_domain ic("ic", frequency{500'000'000});
    stat_group g("interconnect");
    memory_params p;
    p.latency = at_ns(100);
    dram d(p, ic, 2, g);
    EXPECT_EQ(d.read_line(0, at_ns(0), 64).fs, 100 * ns);
    EXPECT_EQ(d.read_line(1, at_ns(0), 64).fs, 100 * ns);  // socket 1 is not busy with socket 0's read
}

TEST(SocketLink, ACrossingAddsItsLatencyAndHoldsTheLinkForTheBytes) {
    stat_group g("interconnect");
    socket_link link(at_ns(100), 16'000'000'000ULL, g);  // 16 bytes: 1 ns; 64 bytes: 4 ns
    EXPECT_EQ(link.cross(at_ns(10), 0, 0, 64).fs, 10 * ns);   // same socket: no crossing
    EXPECT_EQ(link.cross(at_ns(10), 0, 1, 64).fs, 110 * ns);  // holds 0->1 until 14 ns
    EXPECT_EQ(link.cross(at_ns(11), 0, 1, 16).fs, 114 * ns);  // waits for the link: 14 + 100
    EXPECT_EQ(link.cross(at_ns(11), 1, 0, 16).fs, 111 * ns);  // the other direction is free
}

TEST(Interconnect, AChannelStartsAtTheNextFreeEdgeAndArrivesLatencyCyclesLater) {
    interconnect ic(ic_params(500), 1, 4);  // 2 ns cycles
    using ch = interconnect::channel;
    // Sent at 1 ns: the 2 ns edge; 4 cycles later = 10 ns; the channel is busy 1 cycle (until 4 ns).
    EXPECT_EQ(ic.through(at_ns(1), 0, ch::request, cycles{1}, cycles{4}).fs, 10 * ns);
    // Sent at 2 ns: the channel is free at 4 ns; arrives at 12 ns.
    EXPECT_EQ(ic.through(at_ns(2), 0, ch::request, cycles{1}, cycles{4}).fs, 12 * ns);
    // Another channel is not held by the request channel.
    EXPECT_EQ(ic.through(at_ns(2), 0, ch::data, cycles{4}, cycles{4}).fs, 10 * ns);
    // No channel: next edge, then the latency.
    EXPECT_EQ(ic.through(at_ns(3), cycles{4}).fs, 12 * ns);
}

TEST(Interconnect, LinesInterleaveOverTheSocketsHomes) {
    interconnect ic(ic_params(500), 2, 4);
    EXPECT_EQ(ic.home_socket(0x0, 64), 0u);
    EXPECT_EQ(ic.home_socket(0x40, 64), 1u);
    EXPECT_EQ(ic.home_socket(0x80, 64), 0u);
}

TEST(Interconnect, ArbitrationOrdersSimultaneousRequests) {
    interconnect_params p = ic_params(500);
    interconnect fifo(p, 1, 4);
    EXPECT_TRUE(fifo.before(3, at_ns(1), 0, at_ns(2)));  // earlier arrival first
    EXPECT_TRUE(fifo.before(1, at_ns(2), 3, at_ns(2)));  // a tie: lower core first
    p.arbiter = arbitration::fixed_priority;
    interconnect fixed(p, 1, 4);
    EXPECT_TRUE(fixed.before(0, at_ns(9), 3, at_ns(1)));  // lower core first, whatever the arrival
    p.arbiter = arbitration::round_robin;
    interconnect rr(p, 1, 4);
    rr.served(1);  // after core 1: 2, 3, 0, 1
    EXPECT_EQ(rr.arbitration_key(2), 0u);
    EXPECT_EQ(rr.arbitration_key(1), 3u);
    EXPECT_TRUE(rr.before(0, at_ns(2), 1, at_ns(2)));
}

TEST(Interconnect, ASnoopFilterSnoopsOnlyTheHoldersBroadcastEveryOtherCluster) {
    interconnect_params p = ic_params(500);
    const std::vector<bool> holders = {false, false, true, false};  // cluster 2 holds the line
    auto clusters_to_snoop = [&](const interconnect& ic, unsigned k, bool far) {
        std::vector<bool> out;
        for (unsigned j = 0; j < holders.size(); ++j) out.push_back(ic.snoops_cluster(j, holders[j], k, far));
        return out;
    };
    p.snoop_filter = true;
    EXPECT_EQ(clusters_to_snoop(interconnect(p, 1, 4), 0, false), holders);
    p.snoop_filter = false;
    EXPECT_EQ(clusters_to_snoop(interconnect(p, 1, 4), 0, false), (std::vector<bool>{false, true, true, true}));
    // A far atomic snoops the requester's own cluster too.
    EXPECT_EQ(clusters_to_snoop(interconnect(p, 1, 4), 0, true), (std::vector<bool>{true, true, true, true}));
}

TEST(Cluster, HopsAreInTheClustersOwnCycles) {
    const clock_domain clk("c", frequency{300'000'000});  // edges at 0, 3.333333 ns, 6.666666 ns, 10 ns
    scu_params scu;
    cluster c("c", clk, l2_params{}, scu, 64);
    EXPECT_EQ(c.arrive(at_ns(1)).fs, 3'333'333u);             // the next edge
    EXPECT_EQ(c.after(at_ns(1), cycles{2}).fs, 10'000'000u);  // that edge + 2 cycles
    EXPECT_EQ(c.after(at_ns(0), cycles{0}).fs, 0u);
}

TEST(Cluster, TheL2IsAnLruFilterThatAWriteElsewhereEmpties) {
    const clock_domain clk("c", frequency{1'000'000'000});
    l2_params l2;
    l2.size = byte_size{16 * 1024};
    l2.ways = 1;  // direct-mapped: 256 sets of 64 bytes; lines 16 KiB apart share a set
    cluster c("c", clk, l2, scu_params{}, 64);
    EXPECT_FALSE(c.l2_holds(0x1000));
    c.l2_fill(0x1000);
    EXPECT_TRUE(c.l2_holds(0x1000));
    c.l2_fill(0x1000 + 16 * 1024);  // evicts the first
    EXPECT_FALSE(c.l2_holds(0x1000));
    c.l2_drop(0x1000 + 16 * 1024);
    EXPECT_FALSE(c.l2_holds(0x1000 + 16 * 1024));
}

TEST(Dsu, AnL3HitTakesItsLatencyInTheDsusClock) {
    const clock_domain clk("dsu", frequency{500'000'000});  // 2 ns
    dsu_params p;
    p.l3.latency = cycles{20};
    p.snoop_latency = cycles{7};
    p.transfer_latency = cycles{3};
    dsu d("dsu", clk, p, 64);
    EXPECT_EQ(d.l3_data(at_ns(1)).fs, 42 * ns);  // next edge 2 ns + 20 x 2 ns
    EXPECT_EQ(d.snoops_leave(at_ns(1)).fs, 16 * ns);   // next edge 2 ns + 7 x 2 ns
    EXPECT_EQ(d.answer_leaves(at_ns(4)).fs, 10 * ns);  // on an edge: 4 ns + 3 x 2 ns
    d.l3_fill(0x40);
    EXPECT_TRUE(d.l3_holds(0x40));
    d.l3_drop(0x40);
    EXPECT_FALSE(d.l3_holds(0x40));
}

// A mesh's geometry: cores in order, `cores_per_xp` to a crosspoint, XPs
// row by row; home nodes spread evenly; hops in X then Y.
TEST(Mesh, PlacesCoresAndHomeNodesAndCountsHops) {
    const clock_domain clk("m", frequency{1'000'000'000});
    mesh_params p;
    p.width = 4, p.height = 2, p.cores_per_xp = 2, p.home_nodes = 3;
    const mesh m("m", clk, p, 16);
    EXPECT_EQ(m.xp_of_core(0), 0u);
    EXPECT_EQ(m.xp_of_core(5), 2u);
    EXPECT_EQ(m.xp_of_core(15), 7u);
    // Slices at XPs floor(s * 8 / 3): 0, 2, 5; line k goes to slice k mod 3.
    EXPECT_EQ(m.xp_of_home(0x000, 64), 0u);
    EXPECT_EQ(m.xp_of_home(0x040, 64), 2u);
    EXPECT_EQ(m.xp_of_home(0x080, 64), 5u);
    EXPECT_EQ(m.xp_of_home(0x0C0, 64), 0u);
    EXPECT_EQ(m.hops(0, 7), 4u);  // (0,0) to (3,1)
    EXPECT_EQ(m.hops(6, 1), 2u);  // (2,1) to (1,0)
    EXPECT_EQ(m.hops(3, 3), 0u);
    EXPECT_THROW(mesh("m", clk, p, 17), std::invalid_argument);  // 17 cores on 8 XPs of 2
}

TEST(Mesh, AMessageTakesItsHopsAndWaitsForBusyLinks) {
    // 4 x 1 crosspoints, 1 GHz, 3 cycles a hop, a flit holds a link 2 cycles.
    const clock_domain clk("m", frequency{1'000'000'000});
    mesh_params p;
    p.width = 4, p.height = 1, p.hop_latency = cycles{3}, p.link_occupancy = cycles{2};
    mesh m("m", clk, p, 4);
    // From the 1 ns edge, three hops of 3 cycles: 10 ns. The links are held
    // for cycles 1-3, 4-6 and 7-9.
    EXPECT_EQ(m.route(duration{500'000}, 0, 3, 1).fs, 10 * ns);
    // A second message on the same way from the same edge waits 2 cycles for
    // the first link (cycle 3), then finds each next one just free: 12 ns.
    EXPECT_EQ(m.route(at_ns(1), 0, 3, 1).fs, 12 * ns);
    // The other direction's links are its own; one port to another of the
    // same XP crosses no link: the next edge.
    EXPECT_EQ(m.route(at_ns(1), 3, 0, 1).fs, 10 * ns);
    EXPECT_EQ(m.route(duration{1'500'000}, 2, 2, 1).fs, 2 * ns);
    // A line of data (2 flits) holds each link 4 cycles: the next message
    // behind it on the first link starts 4 cycles after it.
    EXPECT_EQ(m.route(at_ns(20), 0, 1, 2).fs, 23 * ns);
    EXPECT_EQ(m.route(at_ns(20), 0, 1, 1).fs, 27 * ns);
    EXPECT_EQ(counter_of(m.stats(), "link_waits"), 2u + 4u);
    EXPECT_EQ(counter_of(m.stats(), "messages"), 6u);
    EXPECT_EQ(counter_of(m.stats(), "hops"), 3u + 3u + 3u + 0u + 1u + 1u);
}

TEST(Dsu, OnAMeshItsTripsGoBetweenTheCoresAndTheLinesHomeNode) {
    // 2 x 2 XPs of one core each, 1 GHz, 2 cycles a hop; agents 10..13 are
    // the domain's cores 0..3 (XPs 0..3); line 0x0C0 (line 3) lives at XP 3.
    const clock_domain clk("dsu", frequency{1'000'000'000});
    dsu_params p;
    p.transfer_latency = cycles{5};
    p.mesh.width = 2, p.mesh.height = 2, p.mesh.hop_latency = cycles{2};
    dsu d("dsu", clk, p, 64);
    d.place({10, 11, 12, 13}, 14);
    ASSERT_TRUE(d.is_mesh());
    EXPECT_EQ(d.to_home(10, 0x0C0, at_ns(1)).fs, 5 * ns);       // XP 0 to 3: two hops
    EXPECT_EQ(d.from_home(13, 0x0C0, at_ns(1), false).fs, 1 * ns);  // at the home's own XP
    EXPECT_EQ(d.from_home(11, 0x0C0, at_ns(10), true).fs, 12 * ns);  // XP 3 to 1: one hop
    // The owner's line: 5 cycles, then straight to the requester (XP 1 to 2: two hops).
    EXPECT_EQ(d.answer_reaches(11, 12, 0x0C0, at_ns(30), true).fs, 39 * ns);
    // An answer without data goes through the home node: XP 1 to 3, then 3 to 2.
    EXPECT_EQ(d.answer_reaches(11, 12, 0x0C0, at_ns(50), false).fs, 54 * ns);
}

// Two clusters at 1 GHz on sockets 0 and 1, an interconnect at 500 MHz with
// its default latencies (4 cycles each, data occupancy 4), a 100 ns link at
// 16 GB/s. Line 0x0 lives on socket 0, line 0x40 on socket 1.
class Routes : public ::testing::Test {
protected:
    clock_domain clk{"c", frequency{1'000'000'000}};
    std::vector<std::unique_ptr<cluster>> clusters;
    stat_group g{"interconnect"};
    interconnect ic{ic_params(500), 2, 2};
    socket_link link{at_ns(100), 16'000'000'000ULL, g};
    std::unique_ptr<delivery> net;
    void SetUp() override {
        scu_params scu;  // request 2, snoop 4 cycles
        for (int i = 0; i < 2; ++i) clusters.push_back(std::make_unique<cluster>("c", clk, l2_params{}, scu, 64));
        net = std::make_unique<delivery>(clusters, std::vector<unsigned>{0, 1}, ic, link);
    }
};

TEST_F(Routes, InsideTheClusterTheScuHops) {
    EXPECT_EQ(net->l1_to_scu(0, at_ns(10)).fs, 12 * ns);
    EXPECT_EQ(net->scu_to_l1(0, at_ns(10)).fs, 14 * ns);
}

TEST_F(Routes, ARequestToTheHomeOnItsOwnSocket) {
    // Request channel from the 10 ns edge, 4 x 2 ns.
    EXPECT_EQ(net->scu_to_home(0, 0x0, at_ns(10)).fs, 18 * ns);
}

TEST_F(Routes, ARequestToTheHomeOnTheOtherSocketCrossesTheLink) {
    // 10 ns + 100 ns link = 110 ns, then the request channel: 110 + 8 = 118 ns.
    EXPECT_EQ(net->scu_to_home(0, 0x40, at_ns(10)).fs, 118 * ns);
}

TEST_F(Routes, GrantsAndSnoopsComeBackThroughTheirChannels) {
    // Data grant: data channel from 10 ns, 4 cycles = 18 ns, no crossing, next 1 GHz edge.
    EXPECT_EQ(clusters[0]->arrive(net->home_to_scu_input(0, 0x0, at_ns(10), true)).fs, 18 * ns);
    // The data channel is now busy until 10 + 4 x 2 = 18 ns: the next grant starts there.
    EXPECT_EQ(clusters[0]->arrive(net->home_to_scu_input(0, 0x0, at_ns(10), false)).fs, 26 * ns);
    // A snoop to cluster 1 for a line on socket 0: snoop channel 10 -> 18 ns, link -> 118 ns.
    EXPECT_EQ(clusters[1]->arrive(net->snoop_to_scu_input(1, 0x0, at_ns(10))).fs, 118 * ns);
}

TEST_F(Routes, AnswersHoldTheDataChannelOnlyWithData) {
    // Without data: no channel, 10 ns edge + 4 cycles.
    EXPECT_EQ(net->answer_to_home(0, 0x0, at_ns(10), false).fs, 18 * ns);
    EXPECT_EQ(net->answer_to_home(0, 0x0, at_ns(10), false).fs, 18 * ns);  // and nothing is held
    // With data: the data channel (4 cycles' occupancy), then a second one waits for it.
    EXPECT_EQ(net->answer_to_home(0, 0x0, at_ns(10), true).fs, 18 * ns);
    EXPECT_EQ(net->answer_to_home(0, 0x0, at_ns(10), true).fs, 26 * ns);
}

TEST(FunctionalMemory, BytesOfAWordAreLittleEndian) {
    functional_memory m;
    EXPECT_EQ(m.read(0x100, 8), 0u);
    m.write(0x100, 8, 0x1122334455667788ULL);
    EXPECT_EQ(m.read(0x100, 1), 0x88u);
    EXPECT_EQ(m.read(0x106, 2), 0x1122u);
    m.write(0x104, 4, 0xaabbccddu);
    EXPECT_EQ(m.read(0x100, 8), 0xaabbccdd55667788ULL);
}

// ---- noise: the synchronizer's aperture and DRAM refresh ----------------------

namespace {
// The probability, over many messages (lines), that a crossing arriving at
// `t` is seen after its first receiver edge.
double miss_rate(const delivery& net, const clock_domain& rx, duration t) {
    int missed = 0;
    constexpr int n = 20000;
    for (int line = 0; line < n; ++line) {
        const duration s = net.synchronized(t, 1, 0, static_cast<std::uint64_t>(line) * 64);
        EXPECT_GE(s.fs, t.fs);                  // never earlier than its arrival
        EXPECT_LT(s.fs, t.fs + 50'000 + 1);     // later by less than half the aperture
        missed += rx.next_edge(s).fs > rx.next_edge(t).fs;
    }
    return static_cast<double>(missed) / n;
}
}  // namespace

TEST(Noise, ASynchronizerMissesItsEdgeAsItsApertureSays) {
    // Interconnect at 500 MHz (edges every 2 ns), aperture 100 ps: a message
    // arriving exactly on an edge misses it with probability 1/2, 25 ps
    // before it with probability (50 - 25) / 100 = 1/4, 60 ps before it or
    // just after an edge never. 20000 messages: sd <= 0.0036, bounds 4 sd.
    interconnect_params p = ic_params(500);
    p.cdc_aperture = duration{100'000};
    interconnect ic(p, 1, 2);
    stat_group g("interconnect");
    socket_link link(at_ns(100), 16'000'000'000ULL, g);
    // One cluster on socket 0 (its synchronizers are what is drawn; no hop
    // reaches the cluster itself here).
    const std::vector<std::unique_ptr<cluster>> none;
    const delivery net(none, {0}, ic, link, noise{true, 7});
    EXPECT_NEAR(miss_rate(net, ic.clock(), at_ns(10)), 0.5, 0.015);
    EXPECT_NEAR(miss_rate(net, ic.clock(), duration{10 * ns - 25'000}), 0.25, 0.015);
    EXPECT_EQ(miss_rate(net, ic.clock(), duration{10 * ns - 60'000}), 0.0);
    EXPECT_EQ(miss_rate(net, ic.clock(), duration{10 * ns + 1}), 0.0);
    // The draw belongs to the message: the same one, the same answer; another
    // seed, other answers.
    EXPECT_EQ(net.synchronized(at_ns(10), 1, 0, 640).fs, net.synchronized(at_ns(10), 1, 0, 640).fs);
    const delivery other(none, {0}, ic, link, noise{true, 8});
    int differ = 0;
    for (std::uint64_t line = 0; line < 100; ++line)
        differ += net.synchronized(at_ns(10), 1, 0, line * 64).fs != other.synchronized(at_ns(10), 1, 0, line * 64).fs;
    EXPECT_GT(differ, 20);
    // Noise off (run.noise: false): the first edge, always.
    const delivery exact(none, {0}, ic, link, noise{false, 7});
    for (std::uint64_t line = 0; line < 100; ++line) EXPECT_EQ(exact.synchronized(at_ns(10), 1, 0, line * 64).fs, 10 * ns);
}

TEST(Noise, RefreshBlocksReadsForItsDutyCycle) {
    // Refresh every 1000 ns for 100 ns (a 10% duty cycle): reads asked every
    // 7 ns over 700 us, one at a time, see the refresh in 10% of cases (to
    // within the 7 ns grid: 14 or 15 of every 100 consecutive starts... over
    // 100000 reads, 0.1 +- 0.002) and wait for it to end; the mean wait of
    // those that wait is half the refresh, 50 ns (+- 4 ns for the grid).
    const clock_domain ic("ic", frequency{1'000'000'000});  // 1 ns edges
    stat_group g("interconnect");
    memory_params p;
    p.latency = at_ns(10);
    p.bytes_per_second = 64'000'000'000'000ULL;  // a line holds the controller 1 ps
    p.refresh_interval = at_ns(1000);
    p.refresh_time = at_ns(100);
    dram d(p, ic, 1, g, noise{true, 3});
    std::uint64_t waited = 0;
    double wait_sum = 0;
    constexpr std::uint64_t reads = 100'000;
    for (std::uint64_t i = 0; i < reads; ++i) {
        const duration asked = at_ns(7 * i + 7);
        const duration back = d.read_line(0, asked, 64);
        const double extra = static_cast<double>(back.fs - ic.next_edge(duration{asked.fs + p.latency.fs}).fs) / ns;
        if (extra > 0.5) ++waited, wait_sum += extra;
        EXPECT_LE(extra, 101);
    }
    EXPECT_NEAR(static_cast<double>(waited) / reads, 0.1, 0.002);
    EXPECT_NEAR(wait_sum / static_cast<double>(waited), 50, 4);
    struct reader : stat_visitor {
        std::uint64_t waits = ~std::uint64_t{0};
        void counter(const std::string& n, const std::string&, std::uint64_t v) override {
            if (n == "memory_refresh_waits") waits = v;
        }
        void distribution(const std::string&, const std::string&, const summary&) override {}
    } r;
    g.accept(r);
    EXPECT_EQ(r.waits, waited);
    // Noise off: no refresh at all.
    stat_group g2("interconnect");
    dram quiet(p, ic, 1, g2, noise{false, 3});
    EXPECT_EQ(quiet.read_line(0, at_ns(5000), 64).fs, 5010 * ns);
}

TEST(Noise, BackgroundTrafficTakesItsShareOfTheChannel) {
    // Other agents hold each cycle of a channel with probability 20%: a
    // message waits k more cycles with probability 0.2^k * 0.8, so 20% of
    // messages wait at all and the mean wait is 0.2 / 0.8 = 0.25 cycles.
    // 50000 messages 100 cycles apart (their own occupancy never meets):
    // sd of the fraction 0.0018, of the mean 0.0025; bounds about 5 sd.
    interconnect_params p = ic_params(1000);  // 1 ns cycles
    p.background_percent = 20;
    p.background_seed = 11;
    interconnect ic(p, 1, 2);
    std::uint64_t waited = 0, cycles_waited = 0;
    constexpr std::uint64_t n = 50'000;
    std::vector<std::uint64_t> arrivals;
    for (std::uint64_t i = 0; i < n; ++i) {
        const duration t = at_ns(100 * i);
        const duration arrive = ic.through(t, 0, interconnect::channel::request, cycles{1}, cycles{4});
        arrivals.push_back(arrive.fs);
        const std::uint64_t extra = (arrive.fs - t.fs) / ns - 4;
        waited += extra > 0;
        cycles_waited += extra;
    }
    EXPECT_NEAR(static_cast<double>(waited) / n, 0.2, 0.01);
    EXPECT_NEAR(static_cast<double>(cycles_waited) / n, 0.25, 0.0125);
    // A cycle is taken or free whatever else was sent: the draw belongs to the
    // cycle, the socket and the channel, not to the calls before it.
    interconnect again(p, 1, 2);
    for (std::uint64_t i = 0; i < n; i += 7)
        EXPECT_EQ(again.through(at_ns(100 * i), 0, interconnect::channel::request, cycles{1}, cycles{4}).fs, arrivals[i]);
    // None configured: no wait.
    interconnect quiet(ic_params(1000), 1, 2);
    EXPECT_EQ(quiet.through(at_ns(5), 0, interconnect::channel::data, cycles{4}, cycles{4}).fs, 9 * ns);
}

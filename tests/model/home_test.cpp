// The home (point of serialisation) alone, between mock L1s that record what
// reaches them and answer snoops at once. One cluster of two cores at 1 GHz
// (SCU -> L1 4 cycles, L1 -> SCU 2 cycles), an interconnect at 500 MHz (2 ns
// a cycle, 4-cycle latencies, data occupancy 4), DRAM at 100 ns
// (mem_harness.h). Every expected time is counted by hand in the comment.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mem_harness.h"
#include "models/mem/home.h"
#include "models/mem/l1_cache.h"

using namespace cohsim;
using namespace cohsim::testing;
using protocol::grant;
using protocol::request;
using protocol::snoop;

namespace {

struct mock_l1 : l1_port {
    struct message {
        std::string what;
        duration at;
    };
    fabric& f;
    l1_cache c;
    std::vector<message> got;
    bool dirty = false;  // how it answers a snoop that wants data
    mock_l1(fabric& f_, unsigned agent, unsigned cluster)
        : f(f_), c(agent, cluster, "c." + std::to_string(agent), l1_params{}, exclusive_params{}) {}
    const l1_cache& state() const override { return c; }
    void snoop(protocol::snoop s, std::uint64_t line) override {
        got.push_back({protocol::name(s), kernel::now()});
        const bool data = s != snoop::Inv;
        f.point->snoop_answered(c.cluster, c.agent, line, data, data && dirty);
    }
    void grant(protocol::grant g, std::uint64_t) override { got.push_back({protocol::name(g), kernel::now()}); }
    void exclusive_failed(std::uint64_t) override { got.push_back({"Excl_Fail", kernel::now()}); }
    void put_ack(std::uint64_t) override { got.push_back({"Put_Ack", kernel::now()}); }
    void far_result(std::uint64_t, duration at) override { got.push_back({"far result", at}); }
    void reservation_lost(std::uint64_t) override {}
};

// Two cores of one cluster, or (`setup.clusters` 2) core 1 in a second one.
struct home_under_test : mem_harness {
    std::vector<std::unique_ptr<dsu>> dsus;
    counter far{ic_stats, "far_atomics", "far atomics"};
    mock_l1 core0, core1;
    home h;
    explicit home_under_test(const setup& s = {})
        : mem_harness(s),
          core0(f, 0, 0),
          core1(f, 1, s.clusters - 1),
          h(f, clusters, std::vector<int>(s.clusters, -1), dsus, ic, memory, far) {
        f.l1s = {&core0, &core1};
        f.states = {&core0.c, &core1.c};
        f.point = &h;
        f.checking = false;  // the mock L1s hold no state
    }
    // A request from `agent` reaches its SCU at `t_ns`.
    void request_at(std::uint64_t t_ns, unsigned agent, request r, std::uint64_t line) {
        q.at(at_ns(t_ns), 0, [this, agent, r, line] { h.arrive(request_msg{agent, r, line, false, kernel::now()}); });
    }
    // Core 1's read of a line core 0 owns was served: core 0's second message
    // is the Fwd_GetS at `fwd_ns`, core 1's one message the Data_S at `grant_ns`.
    void expect_read_forwarded(std::uint64_t fwd_ns, std::uint64_t grant_ns) const {
        ASSERT_EQ(core0.got.size(), 2u);
        EXPECT_EQ(core0.got[1].what, "Fwd_GetS");
        EXPECT_EQ(core0.got[1].at.fs, fwd_ns * ns);
        ASSERT_EQ(core1.got.size(), 1u);
        EXPECT_EQ(core1.got[0].what, "Data_S");
        EXPECT_EQ(core1.got[0].at.fs, grant_ns * ns);
    }
};

constexpr std::uint64_t A = 0x1000;

}  // namespace

TEST(Home, AReadOfAnUncachedLineGoesToMemoryAndGrantsExclusive) {
    home_under_test t;
    t.request_at(0, 0, request::GetS, A);
    t.run_until(200);
    // Nothing in the L2: on to the interconnect (request channel, 4 x 2 ns) = 8 ns;
    // DRAM from the 8 ns edge: 108 ns; the data channel, 4 cycles: 116 ns;
    // the cluster's next edge, then SCU -> L1, 4 cycles: 120 ns.
    ASSERT_EQ(t.core0.got.size(), 1u);
    EXPECT_EQ(t.core0.got[0].what, "Data_E");
    EXPECT_EQ(t.core0.got[0].at.fs, 120 * ns);
    EXPECT_EQ(t.memory_reads(), 1u);
}

TEST(Home, ARequestForABusyLineWaitsForTheUnblock) {
    home_under_test t;
    t.request_at(0, 0, request::GetM, A);   // core 0 gets it from memory: granted at 120 ns
    t.request_at(50, 1, request::GetS, A);  // waits: the line is busy until core 0's Unblock
    t.q.at(at_ns(130), 0, [&] { t.h.unblock(A); });
    t.run_until(300);
    // At 130 ns core 1's read is served inside the cluster: Fwd_GetS to the
    // owner, core 0, 4 cycles later (134 ns); its answer (with the data)
    // reaches the SCU 2 cycles after (136 ns); the grant 4 cycles later: 140 ns.
    ASSERT_EQ(t.core0.got.size(), 2u);
    EXPECT_EQ(t.core0.got[0].what, "Data_E");  // the store itself makes it M in the L1
    EXPECT_EQ(t.core0.got[1].what, "Fwd_GetS");
    EXPECT_EQ(t.core0.got[1].at.fs, 134 * ns);
    ASSERT_EQ(t.core1.got.size(), 1u);
    EXPECT_EQ(t.core1.got[0].at.fs, 140 * ns);
}

TEST(Home, AnEvictionIsAcknowledgedAfterOneScuHop) {
    home_under_test t;
    t.request_at(0, 0, request::GetM, A);
    t.q.at(at_ns(130), 0, [&] { t.h.unblock(A); });
    t.request_at(200, 0, request::PutM, A);
    t.run_until(300);
    ASSERT_EQ(t.core0.got.size(), 2u);
    EXPECT_EQ(t.core0.got[1].what, "Put_Ack");
    EXPECT_EQ(t.core0.got[1].at.fs, 204 * ns);  // SCU -> L1, 4 cycles
}

TEST(Home, AStoreExclusiveUpgradeFromACoreThatLostItsCopyFails) {
    home_under_test t;
    t.request_at(0, 1, request::GetM, A);  // core 1 owns the line
    t.q.at(at_ns(130), 0, [&] { t.h.unblock(A); });
    // Core 0 asks to upgrade a copy it no longer has, for an STXR.
    t.q.at(at_ns(200), 0, [&] {
        request_msg m{0, request::Upg, A, false, kernel::now()};
        m.exclusive = true;
        t.h.arrive(m);
    });
    t.run_until(300);
    ASSERT_EQ(t.core0.got.size(), 1u);
    EXPECT_EQ(t.core0.got[0].what, "Excl_Fail");
    EXPECT_EQ(t.core0.got[0].at.fs, 204 * ns);  // straight back from the SCU: 4 cycles
    EXPECT_TRUE(t.core1.got.size() == 1u);     // core 1 was not snooped
}

// An Unblock with no request waiting for its line is kept in the line's
// record, not scheduled (home::send_unblock); it must act exactly as the
// scheduled one would. Core 0's GetM is granted at 120 ns (above); its
// Unblock leaves the SCU at 125 ns and, the transaction being served at the
// interconnect, crosses it: the next interconnect edge (126 ns) plus the
// response latency, 4 cycles of 2 ns: it lands at 134 ns.
TEST(Home, AKeptUnblockCostsNoActionAndLandsBeforeTheNextRequest) {
    home_under_test t;
    t.request_at(0, 0, request::GetM, A);
    std::size_t before = 0, after = 0;
    std::string busy_at_130, idle_at_134;
    t.q.at(at_ns(125), 0, [&] {
        before = t.q.pending();
        t.h.send_unblock(0, 0, A, kernel::now());
        after = t.q.pending();
    });
    t.q.at(at_ns(130), 0, [&] { busy_at_130 = t.h.describe(A); });
    t.q.at(at_ns(134), 0, [&] { idle_at_134 = t.h.describe(A); });
    t.request_at(140, 1, request::GetS, A);  // after the landing: served at once
    t.run_until(300);
    EXPECT_EQ(after, before);  // nothing scheduled
    EXPECT_NE(busy_at_130.find(", busy"), std::string::npos) << busy_at_130;
    EXPECT_NE(idle_at_134.find(", idle"), std::string::npos) << idle_at_134;
    // Served at 140 ns inside the cluster: Fwd_GetS to core 0 at 144, its
    // answer at the SCU at 146, the grant at 150 ns.
    t.expect_read_forwarded(144, 150);
}

// A request that meets the line before its kept Unblock lands waits for it,
// and is served at the landing time, 134 ns, as with a scheduled Unblock:
// Fwd_GetS at 138, the answer at 140, the grant at 144 ns.
TEST(Home, ARequestBeforeAKeptUnblockLandsIsServedWhenItLands) {
    home_under_test t;
    t.request_at(0, 0, request::GetM, A);
    t.q.at(at_ns(125), 0, [&] { t.h.send_unblock(0, 0, A, kernel::now()); });
    t.request_at(130, 1, request::GetS, A);
    t.run_until(300);
    t.expect_read_forwarded(138, 144);
}

// interconnect.wait_at_interconnect: core 1, in a second cluster, asks for a
// line busy with core 0's transaction at the interconnect (granted at 120 ns,
// its Unblock landing at 130 ns); the first two times each test returns are
// the Fwd_GetS reaching core 0 and the Data_S reaching core 1.
static std::pair<duration, duration> read_of_a_line_busy_at_the_interconnect(bool wait_at_interconnect) {
    home_under_test t({2, wait_at_interconnect, {}});
    t.request_at(0, 0, request::GetM, A);
    t.request_at(50, 1, request::GetS, A);
    t.q.at(at_ns(130), 0, [&] { t.h.unblock(A); });
    t.run_until(400);
    EXPECT_EQ(t.core0.got.size(), 2u);
    EXPECT_EQ(t.core1.got.size(), 1u);
    if (t.core0.got.size() != 2u || t.core1.got.size() != 1u) return {};
    EXPECT_EQ(t.core0.got[0].what, "Data_E");
    EXPECT_EQ(t.core0.got[1].what, "Fwd_GetS");
    EXPECT_EQ(t.core1.got[0].what, "Data_S");
    return {t.core0.got[1].at, t.core1.got[0].at};
}

// By default the read waits at its SCU and travels on when the line frees:
// the request channel from 130 ns, 4 cycles of 2 ns (138), the Fwd_GetS on
// the snoop channel, 4 cycles (146), core 0's SCU hop, 4 cycles: 150 ns. Its
// answer reaches the SCU 2 cycles later (152) and crosses the data channel,
// 4 cycles (160); the line goes back on it, 4 cycles (168), and core 1's SCU
// hop: 172 ns.
TEST(Home, ARequestForALineBusyAtTheInterconnectWaitsAtItsSCUByDefault) {
    const auto [fwd, data] = read_of_a_line_busy_at_the_interconnect(false);
    EXPECT_EQ(fwd.fs, 150 * ns);
    EXPECT_EQ(data.fs, 172 * ns);
}

// With the option it went on at once (reaching the interconnect at 58 ns) and
// waited there: the Fwd_GetS leaves at 130 ns and reaches core 0 at 142 ns;
// the rest follows as above, one request hop (8 ns) earlier: 164 ns.
TEST(Home, ARequestForALineBusyAtTheInterconnectWaitsThereWhenTheSCUCannotSeeIt) {
    const auto [fwd, data] = read_of_a_line_busy_at_the_interconnect(true);
    EXPECT_EQ(fwd.fs, 142 * ns);
    EXPECT_EQ(data.fs, 164 * ns);
}

// A request from the cluster whose transaction holds the line stays at its
// SCU (which knows that transaction): core 1 in core 0's cluster is served
// inside the cluster at 130 ns, Fwd_GetS at 134 ns, the grant at 140 ns (as
// without the option).
TEST(Home, ARequestFromTheBusyTransactionsOwnClusterStillWaitsAtItsSCU) {
    home_under_test t({1, true, {}});
    t.request_at(0, 0, request::GetM, A);
    t.request_at(50, 1, request::GetS, A);
    t.q.at(at_ns(130), 0, [&] { t.h.unblock(A); });
    t.run_until(300);
    t.expect_read_forwarded(134, 140);
}

// interconnect.ack_latency: the Unblock (ACE's RACK/WACK) crosses in its own
// latency instead of the response channel's. Core 0's Unblock leaves its SCU
// at 125 ns; the interconnect's next edge is 126 ns; with 1 cycle (2 ns) it
// lands at 128 ns (by default, response_latency's 4 cycles: 134 ns, as the
// kept-Unblock tests above count). A read at 129 ns is then served at once
// inside the cluster: Fwd_GetS at 133 ns, the answer at the SCU at 135, the
// grant at 139 ns.
TEST(Home, AnUnblockCrossesInTheAcknowledgementLatency) {
    home_under_test t({1, false, cycles{1}});
    t.request_at(0, 0, request::GetM, A);
    std::string at_128;
    t.q.at(at_ns(125), 0, [&] { t.h.send_unblock(0, 0, A, kernel::now()); });
    t.q.at(at_ns(128), 0, [&] { at_128 = t.h.describe(A); });
    t.request_at(129, 1, request::GetS, A);
    t.run_until(300);
    EXPECT_NE(at_128.find(", idle"), std::string::npos) << at_128;
    t.expect_read_forwarded(133, 139);
}

// One L1's coherence controller alone, between a mock home that records what
// reaches it and the test, which plays the home's snoops and grants. The
// cluster runs at 1 GHz (1 ns a cycle): L1 hit 3 cycles, L1 -> SCU 2 cycles
// (mem_harness.h). Every expected time is counted by hand in the comment.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mem_harness.h"
#include "models/mem/l1_controller.h"

using namespace cohsim;
using namespace cohsim::testing;
using protocol::cstate;

namespace {

struct mock_home : home_port {
    struct message {
        std::string what;  // "GetS", ..., "answer", "unblock"
        duration at;
        bool data = false, dirty = false;
    };
    std::vector<message> got;
    void arrive(request_msg m) override { got.push_back({protocol::name(m.r), kernel::now()}); }
    void snoop_answered(unsigned, unsigned, std::uint64_t, bool data, bool dirty) override {
        got.push_back({"answer", kernel::now(), data, dirty});
    }
    void unblock(std::uint64_t) override { got.push_back({"unblock", kernel::now()}); }
    void send_unblock(unsigned agent, unsigned, std::uint64_t line, duration left) override {
        kernel::queue().at(left, rank(phase::response, agent), [this, line] { unblock(line); });
    }
    void count_snoop(std::uint64_t) override {}
    std::uint64_t arbitration_key(unsigned agent) const override { return agent; }
};

struct l1_under_test : mem_harness {
    mock_home home;
    l1_controller l1;
    explicit l1_under_test(l1_params p = hit3(), exclusive_params ex = {})
        : l1(f, 0, 0, "c.0", p, ex) {
        f.l1s = {&l1};
        f.states = {&l1.state()};
        f.point = &home;
    }
    static l1_params hit3() {
        l1_params p;
        p.hit_latency = cycles{3};
        return p;
    }
    // Puts `line` into the L1 in `st`, as if a grant had left it there.
    void holds(std::uint64_t line, cstate st) {
        auto& a = l1.state().array;
        a.install(*a.victim(line, [](const auto&) { return true; }), line).payload.st = st;
    }
    // Starts an access now; its response lands in `out`.
    void access(mem_request r, mem_response& out, duration& finished) {
        l1.access(r, [&out, &finished](const mem_response& resp) {
            out = resp;
            finished = kernel::now();
        });
    }
};

constexpr std::uint64_t A = 0x1000;

mem_request load(std::uint64_t addr) {
    mem_request r;
    r.kind = mem_request::load;
    r.addr = addr;
    return r;
}

}  // namespace

TEST(L1Controller, AHitIsReadyExactlyHitLatencyAfterTheAccess) {
    l1_under_test t;
    t.holds(A, cstate::M);
    t.data.write(A, 8, 42);
    mem_response resp;
    duration finished{~0ULL};
    t.access(load(A), resp, finished);  // at 0: a hit answers at once ...
    EXPECT_EQ(finished.fs, 0u);
    EXPECT_EQ(resp.done.fs, 3 * ns);  // ... with its data usable after 3 cycles
    EXPECT_EQ(resp.value, 42u);
    EXPECT_TRUE(t.home.got.empty());
}

TEST(L1Controller, AMissAsksTheHomeAndCompletesWhenTheGrantArrives) {
    l1_under_test t;
    mem_response resp;
    duration finished{~0ULL};
    t.access(load(A), resp, finished);
    // Lookup 3 cycles, then the hop to the SCU, 2 cycles: GetS at 5 ns.
    t.run_until(10);
    ASSERT_EQ(t.home.got.size(), 1u);
    EXPECT_EQ(t.home.got[0].what, "GetS");
    EXPECT_EQ(t.home.got[0].at.fs, 5 * ns);
    EXPECT_EQ(t.l1.state().state_of(A), cstate::IS_D);
    // The home's grant reaches the L1 at 20 ns: the load performs then, and
    // the Unblock reaches the SCU 2 cycles later.
    t.q.at(at_ns(20), 0, [&] { t.l1.grant(protocol::grant::Data_E, A); });
    t.run_until(30);
    EXPECT_EQ(finished.fs, 20 * ns);
    EXPECT_EQ(resp.done.fs, 20 * ns);
    EXPECT_EQ(t.l1.state().state_of(A), cstate::E);
    ASSERT_EQ(t.home.got.size(), 2u);
    EXPECT_EQ(t.home.got[1].what, "unblock");
    EXPECT_EQ(t.home.got[1].at.fs, 22 * ns);
}

TEST(L1Controller, EvictingADirtyLineSendsPutMBeforeTheMiss) {
    l1_params p = l1_under_test::hit3();
    p.size = byte_size{1024};
    p.ways = 1;  // direct-mapped: lines 1 KiB apart share a set
    l1_under_test t(p);
    t.holds(A, cstate::M);
    mem_response resp;
    duration finished;
    t.access(load(A + 1024), resp, finished);
    t.run_until(10);
    // The victim's PutM leaves at once (SCU at 2 ns), the GetS after the lookup (5 ns).
    ASSERT_EQ(t.home.got.size(), 2u);
    EXPECT_EQ(t.home.got[0].what, "PutM");
    EXPECT_EQ(t.home.got[0].at.fs, 2 * ns);
    EXPECT_EQ(t.home.got[1].what, "GetS");
    EXPECT_EQ(t.home.got[1].at.fs, 5 * ns);
    EXPECT_EQ(t.l1.state().state_of(A), cstate::MI_A);
    EXPECT_EQ(t.l1.state().state_of(A + 1024), cstate::IS_D);
}

TEST(L1Controller, ASnoopOfADirtyLineAnswersWithItsDataAtOnce) {
    l1_under_test t;
    t.holds(A, cstate::M);
    t.q.at(at_ns(10), 0, [&] { t.l1.snoop(protocol::snoop::Fwd_GetM, A); });
    t.run_until(20);
    ASSERT_EQ(t.home.got.size(), 1u);
    EXPECT_EQ(t.home.got[0].what, "answer");
    EXPECT_EQ(t.home.got[0].at.fs, 10 * ns);  // the hop to the SCU is the home's (delivery)
    EXPECT_TRUE(t.home.got[0].data);
    EXPECT_TRUE(t.home.got[0].dirty);
    EXPECT_EQ(t.l1.state().state_of(A), cstate::I);
}

TEST(L1Controller, TheHoldWindowKeepsASnoopWaitingUntilItCloses) {
    exclusive_params ex;
    ex.hold_window = cycles{30};
    l1_under_test t(l1_under_test::hit3(), ex);
    t.holds(A, cstate::E);
    mem_response resp;
    duration finished;
    mem_request ldxr = load(A);
    ldxr.kind = mem_request::load_exclusive;
    t.access(ldxr, resp, finished);  // at 0: reserved, armed at 0
    ASSERT_TRUE(t.l1.state().mon.holds(A));
    t.q.at(at_ns(10), 0, [&] { t.l1.snoop(protocol::snoop::Fwd_GetM, A); });
    t.run_until(40);
    // Held from 10 ns until 0 + 30 cycles = 30 ns; then the line and the reservation go.
    ASSERT_EQ(t.home.got.size(), 1u);
    EXPECT_EQ(t.home.got[0].at.fs, 30 * ns);
    EXPECT_FALSE(t.l1.state().mon.holds(A));
    EXPECT_EQ(t.l1.state().held_snoops.value(), 1u);
}

// A core asleep in WFE: its L1 serves a snoop once the core's clocks are
// enabled, l1.standby_snoop_latency cycles on (20 cycles of the 1 GHz
// cluster: a snoop at 10 ns is served at 30 ns); the monitor it clears
// raises the core's event then. Awake, the same snoop is served at once.
struct sleeping_core : core_port {
    bool sleeping = true;
    std::vector<duration> cleared;
    void monitor_cleared() override { cleared.push_back(kernel::now()); }
    bool asleep() const override { return sleeping; }
};

void snoop_a_reserved_line(bool asleep, std::uint64_t expect_ns) {
    l1_params p = l1_under_test::hit3();
    p.standby_snoop_latency = cycles{20};
    l1_under_test t(p);
    sleeping_core core;
    core.sleeping = false;
    t.l1.state().port = &core;
    t.holds(A, cstate::S);
    mem_response resp;
    duration finished;
    mem_request ldxr = load(A);
    ldxr.kind = mem_request::load_exclusive;
    t.access(ldxr, resp, finished);  // at 0: reserved (a hit)
    t.q.at(at_ns(5), 0, [&] { core.sleeping = asleep; });
    t.q.at(at_ns(10), 0, [&] { t.l1.snoop(protocol::snoop::Inv, A); });
    t.run_until(60);
    ASSERT_EQ(t.home.got.size(), 1u);
    EXPECT_EQ(t.home.got[0].what, "answer");
    EXPECT_EQ(t.home.got[0].at.fs, expect_ns * ns);
    EXPECT_EQ(t.l1.state().state_of(A), cstate::I);
    ASSERT_EQ(core.cleared.size(), 1u);
    EXPECT_EQ(core.cleared[0].fs, expect_ns * ns);
    EXPECT_EQ(t.l1.state().standby_snoops.value(), asleep ? 1u : 0u);
}

TEST(L1Controller, ASnoopToACoreAsleepInWFEWaitsForItsClocks) { snoop_a_reserved_line(true, 30); }

TEST(L1Controller, ASnoopToACoreAwakeIsServedAtOnce) { snoop_a_reserved_line(false, 10); }

TEST(L1Controller, AStoreExclusiveWithoutAReservationFailsAfterTheLookup) {
    l1_under_test t;
    t.holds(A, cstate::M);
    mem_response resp;
    duration finished;
    mem_request stxr;
    stxr.kind = mem_request::store_exclusive;
    stxr.addr = A;
    stxr.value = 7;
    t.access(stxr, resp, finished);
    EXPECT_FALSE(resp.success);
    EXPECT_EQ(resp.done.fs, 3 * ns);
    EXPECT_EQ(t.data.read(A, 8), 0u);  // nothing written
    EXPECT_TRUE(t.home.got.empty());
}

TEST(L1Controller, AMissWhoseSetIsAllInTransitionWaitsForAWay) {
    l1_params p = l1_under_test::hit3();
    p.size = byte_size{1024};
    p.ways = 1;  // direct-mapped: A and A + 1 KiB share the one way of their set
    l1_under_test t(p);
    mem_response first, second;
    duration first_done{~0ULL}, second_done{~0ULL};
    t.access(load(A), first, first_done);          // miss: the way goes to A (IS_D), GetS at 5 ns
    t.access(load(A + 1024), second, second_done);  // no way to give up: it waits
    EXPECT_EQ(t.l1.state().way_stalls.value(), 1u);
    t.q.at(at_ns(20), 0, [&] { t.l1.grant(protocol::grant::Data_E, A); });
    t.run_until(40);
    // At 20 ns A is E and completes; the waiting load starts again: A is
    // evicted at once (PutE at the SCU 2 cycles later, 22 ns) and, after the
    // 3-cycle lookup, GetS for A + 1 KiB reaches the SCU at 25 ns.
    EXPECT_EQ(first_done.fs, 20 * ns);
    ASSERT_EQ(t.home.got.size(), 4u);
    EXPECT_EQ(t.home.got[0].what, "GetS");
    EXPECT_EQ(t.home.got[0].at.fs, 5 * ns);
    EXPECT_EQ(t.home.got[1].what, "unblock");
    EXPECT_EQ(t.home.got[2].what, "PutE");
    EXPECT_EQ(t.home.got[2].at.fs, 22 * ns);
    EXPECT_EQ(t.home.got[3].what, "GetS");
    EXPECT_EQ(t.home.got[3].at.fs, 25 * ns);
    EXPECT_EQ(t.l1.state().state_of(A + 1024), cstate::IS_D);
    EXPECT_EQ(second_done.fs, ~0ULL);  // still waiting for its data
    EXPECT_EQ(t.l1.state().way_stalls.value(), 1u);  // counted once
}

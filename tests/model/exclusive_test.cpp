// Exclusive monitors in the running memory system, one test per rule, and
// WFE wake-ups from each source.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "platform_fixture.h"
#include "app/explain.h"

using namespace cohsim;
using namespace cohsim::testing;

namespace {
constexpr std::uint64_t A = 0x1000, B = 0x2000;
constexpr std::uint64_t us = 1'000'000'000ULL;  // fs
}  // namespace

TEST(ExclusiveInSystem, AnotherCoresStoreClears) {
    system_model sys(test_platform());
    bool ok = true;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load_exclusive(A);
        c.work(cycles{5'000});  // big.0 stores meanwhile
        ok = c.store_exclusive(A, 1);
    });
    sys.find_core("big.0")->set_program([&](core& c) {
        c.work(cycles{2'000});
        c.store(A, 9);
    });
    run_for_fs(100 * us);
    EXPECT_FALSE(ok);
    EXPECT_EQ(sys.memory().peek(A, 8), 9u);
}

TEST(ExclusiveInSystem, OwnPlainStoreDoesNotClear) {
    system_model sys(test_platform());
    bool ok = false;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load_exclusive(A);
        c.store(A + 8, 3);  // same line, same granule
        ok = c.store_exclusive(A, 1);
    });
    run_for_fs(100 * us);
    EXPECT_TRUE(ok);
    EXPECT_EQ(sys.memory().peek(A, 8), 1u);
}

TEST(ExclusiveInSystem, StoreExclusiveToAnotherAddressFails) {
    system_model sys(test_platform());
    bool ok = true;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load_exclusive(A);
        ok = c.store_exclusive(B, 1);
    });
    run_for_fs(100 * us);
    EXPECT_FALSE(ok);
    EXPECT_EQ(sys.memory().peek(B, 8), 0u);
}

TEST(ExclusiveInSystem, SecondStoreExclusiveWithoutNewLoadFails) {
    system_model sys(test_platform());
    bool first = false, second = true;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load_exclusive(A);
        first = c.store_exclusive(A, 1);
        second = c.store_exclusive(A, 2);
    });
    run_for_fs(100 * us);
    EXPECT_TRUE(first);
    EXPECT_FALSE(second);
    EXPECT_EQ(sys.memory().peek(A, 8), 1u);
}

namespace {
bool stxr_after_eviction(bool evict_clears) {
    system_model sys(test_platform({"clusters.little.l1={size: 1KiB, ways: 1, hit_latency: 3cycles}",
                                    std::string("clusters.little.exclusive.evict_clears=") +
                                        (evict_clears ? "true" : "false")}));
    bool ok = false;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load_exclusive(A);
        c.load(A + 1024);  // same set of a direct-mapped 1 KiB L1: evicts A
        ok = c.store_exclusive(A, 1);
    });
    run_for_fs(100 * us);
    return ok;
}
}  // namespace

TEST(ExclusiveInSystem, EvictionClearsWhenEnabled) { EXPECT_FALSE(stxr_after_eviction(true)); }
TEST(ExclusiveInSystem, EvictionKeepsTheReservationWhenDisabled) { EXPECT_TRUE(stxr_after_eviction(false)); }

// The reservation outlives its line (evict_clears false), so no snoop reaches
// little.0 when big.0 writes A: only the write's own check of the other
// cores' monitors clears it.
TEST(ExclusiveInSystem, AnotherCoresStoreClearsAReservationWithoutItsLine) {
    system_model sys(test_platform({"clusters.little.l1={size: 1KiB, ways: 1, hit_latency: 3cycles}",
                                    "clusters.little.exclusive.evict_clears=false"}));
    bool ok = true;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load_exclusive(A);
        c.load(A + 1024);       // evicts A; the reservation stays
        c.work(cycles{5'000});  // big.0 stores meanwhile
        ok = c.store_exclusive(A, 1);
    });
    sys.find_core("big.0")->set_program([&](core& c) {
        c.work(cycles{2'000});
        c.store(A, 9);
    });
    run_for_fs(100 * us);
    EXPECT_FALSE(ok);
    EXPECT_EQ(sys.memory().peek(A, 8), 9u);
}

namespace {
// little.0 reserves A and sleeps in WFE; 1 us later big.0 writes A.
struct sleep_case {
    duration armed, woke, written;
};
sleep_case reserve_then_sleep(std::uint64_t hold_cycles) {
    system_model sys(test_platform({"clusters.little.exclusive.hold_window=" + std::to_string(hold_cycles) + "cycles"}));
    sleep_case r;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load_exclusive(A);
        r.armed = c.local_time();
        c.wfe();
        r.woke = c.local_time();
    });
    sys.find_core("big.0")->set_program([&](core& c) {
        c.work(cycles{1750});  // 1 us
        r.written = c.local_time();
        c.store(A, 1);
    });
    run_for_fs(100 * us);
    return r;
}
const clock_domain little_clock("little", frequency{832'000'000});
}  // namespace

TEST(ExclusiveInSystem, HoldWindowDelaysTheSnoopByExactlyNCycles) {
    // The invalidation reaches little.0 well inside a 2000-cycle (2.4 us)
    // window; it waits until the window closes, then clears the reservation,
    // and little.0 wakes its 4-cycle WFE latency later.
    const auto r = reserve_then_sleep(2000);
    ASSERT_LT(r.armed.fs, r.written.fs);
    EXPECT_EQ(r.woke.fs, little_clock.edge_after(r.armed, cycles{2000 + 4}).fs);
}

TEST(Wfe, SevWakesAllSleepers) {
    system_model sys(test_platform());
    duration sent, woke_big, woke_little;
    sys.find_core("big.0")->set_program([&](core& c) {
        c.wfe();
        woke_big = c.local_time();
    });
    sys.find_core("little.1")->set_program([&](core& c) {
        c.wfe();
        woke_little = c.local_time();
    });
    sys.find_core("little.0")->set_program([&](core& c) {
        c.work(cycles{1000});
        sent = c.local_time();
        c.sev();
    });
    run_for_fs(100 * us);
    const clock_domain L("little", frequency{832'000'000}), Bc("big", frequency{1'750'000'000});
    EXPECT_EQ(woke_big.fs, Bc.edge_after(sent, cycles{10}).fs);  // big wake latency 10
    EXPECT_EQ(woke_little.fs, L.edge_after(sent, cycles{4}).fs);
}

TEST(Wfe, SevlMakesTheNextWfeFallThrough) {
    system_model sys(test_platform());
    duration before, after;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.sevl();
        before = c.local_time();
        c.wfe();  // consumes the event: no sleep
        after = c.local_time();
    });
    run_for_fs(100 * us);
    EXPECT_EQ(before.fs, after.fs);
    struct grab : stat_visitor {
        std::uint64_t sleeps = 99;
        void counter(const std::string& n, const std::string&, std::uint64_t v) override {
            if (n == "wfe_sleeps") sleeps = v;
        }
    } g;
    sys.find_core("little.0")->stats().accept(g);
    EXPECT_EQ(g.sleeps, 1u);  // only the idle loop after the program ended
}

TEST(Wfe, ReservationClearedByAnotherCoreWakes) {
    // No hold window: little.0 wakes once big.0's write request has crossed
    // the interconnect (about 0.2 us after it is issued), long before the
    // 2000 cycles the hold-window test waits.
    const auto r = reserve_then_sleep(0);
    ASSERT_LT(r.armed.fs, r.written.fs);
    EXPECT_GT(r.woke.fs, r.written.fs);
    EXPECT_LT(r.woke.fs, r.written.fs + us / 2);
    EXPECT_LT(r.woke.fs, little_clock.edge_after(r.armed, cycles{2000}).fs);
}

TEST(Wfe, NoEventNoWake) {
    system_model sys(test_platform());
    bool woke = false;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load_exclusive(A);
        c.wfe();
        woke = true;
    });
    sys.find_core("big.0")->set_program([&](core& c) {
        c.work(cycles{1000});
        c.load(A);      // a read does not clear the reservation
        c.store(B, 1);  // nor does a write elsewhere
    });
    run_for_fs(1000 * us);  // the event stream is off in this platform
    EXPECT_FALSE(woke);
}

TEST(Wfe, SchedulerTickWakesAndRunsItsHandler) {
    system_model sys(test_platform({"activity.tick={period: 100us, handler: 10us, cores: big}"}));
    duration tick, woke, after;
    sys.find_core("big.0")->set_program([&](core& c) {
        tick = c.next_tick();
        c.wfe();           // nothing else will wake it: the event stream is off
        woke = c.local_time();
        c.work(cycles{0});
        c.load(A);         // the handler runs before the next access
        after = c.local_time();
    });
    run_for_fs(300 * us);
    ASSERT_GT(tick.fs, 0u);
    ASSERT_LT(tick.fs, 100 * us);  // the first tick's phase lies within one period
    // Woken like any event: at the core's next edge, then wfe_wake_latency.
    EXPECT_EQ(woke.fs, sys.find_core("big.0")->clock().edge_after(tick, cycles{10}).fs);
    EXPECT_GE(after.fs, tick.fs + 10 * us);  // 10 us in the handler, then the load
    group_stats g(sys.find_core("big.0")->stats());
    // Ticks at t, t + 100 us, t + 200 us (all before 300 us): the program's
    // WFE and then the idle loop's each woke for one and ran its handler.
    EXPECT_EQ(g.counters["wakes_interrupt"], 3u);
    EXPECT_EQ(g.counters["interrupts"], 3u);
    EXPECT_EQ(g.counters["random_interrupts"], 0u);
}

TEST(Wfe, TicksAreAligned) {
    // Linux's default: every CPU's tick at the same instant.
    system_model sys(test_platform({"activity.tick={period: 4ms}"}));
    const duration b0 = sys.find_core("big.0")->next_tick(), b1 = sys.find_core("big.1")->next_tick();
    const duration l0 = sys.find_core("little.0")->next_tick(), l1 = sys.find_core("little.1")->next_tick();
    EXPECT_EQ(b0.fs, b1.fs);
    EXPECT_EQ(l0.fs, b0.fs);
    EXPECT_EQ(l1.fs, b0.fs);
    EXPECT_LT(b0.fs, 4000 * us);
}

TEST(Wfe, TicksAreSkewedOnRequest) {
    // With skew_tick=1 each core's tick at its own phase, within one period;
    // a core the tick does not select has none.
    system_model sys(test_platform({"activity.tick={period: 4ms, skew: true, cores: 'little, big.0'}"}));
    const duration b0 = sys.find_core("big.0")->next_tick();
    const duration l0 = sys.find_core("little.0")->next_tick(), l1 = sys.find_core("little.1")->next_tick();
    EXPECT_NE(l0.fs, l1.fs);
    EXPECT_NE(l0.fs, b0.fs);
    EXPECT_NE(l1.fs, b0.fs);
    EXPECT_LT(std::max({l0.fs, l1.fs, b0.fs}), 4000 * us);
    EXPECT_EQ(sys.find_core("big.1")->next_tick().fs, ~std::uint64_t{0});
}

TEST(Wfe, DeviceInterruptsArePeriodicOnTheirCore) {
    // A 60 Hz vsync on little.0 at phase 1 ms, 30 us each: in 100 ms, at 1,
    // 17.67, 34.33, 51, 67.67 and 84.33 ms (6), each one on little.0 only.
    system_model sys(test_platform({"activity.device_interrupts=[{name: vsync, cores: little.0, period: 16.666667ms, "
                                    "handler: 30us, phase: 1ms}]"}));
    EXPECT_EQ(sys.find_core("little.0")->next_interrupt().fs, 1000 * us);
    EXPECT_EQ(sys.find_core("little.1")->next_interrupt().fs, ~std::uint64_t{0});
    duration end;
    sys.find_core("little.0")->set_program([&](core& c) {
        while (c.local_time().fs < 100'000 * us) c.work(cycles{832});  // 1 us of work at a time
        end = c.local_time();
    });
    run_for_fs(101'000 * us);
    group_stats g(sys.find_core("little.0")->stats());
    EXPECT_EQ(g.counters["device_interrupts"], 6u);
    EXPECT_EQ(g.counters["interrupts"], 6u);
    EXPECT_EQ(g.counters["random_interrupts"], 0u);
    EXPECT_EQ(group_stats(sys.find_core("little.1")->stats()).counters["interrupts"], 0u);
    // The work loop runs past 100 ms by less than one iteration and the handlers' time.
    EXPECT_GE(end.fs, 100'000 * us);
    EXPECT_LT(end.fs, 100'000 * us + 1 * us + 6 * 30 * us + 1 * us);
}

TEST(Wfe, RandomInterruptWakesAtItsDrawnArrival) {
    system_model sys(test_platform({"activity.random_interrupts={interval: 50us, handler: 2us, cores: big}"}));
    duration first, woke, after;
    sys.find_core("big.0")->set_program([&](core& c) {
        first = c.next_interrupt();
        c.wfe();  // nothing else will wake it
        woke = c.local_time();
        c.load(A);  // the handler runs before the next access
        after = c.local_time();
    });
    run_for_fs(20000 * us);
    ASSERT_GT(first.fs, 0u);
    ASSERT_LT(first.fs, 20000 * us);  // P(first gap > 400 means) = e^-400
    EXPECT_EQ(woke.fs, sys.find_core("big.0")->clock().edge_after(first, cycles{10}).fs);
    EXPECT_GE(after.fs, first.fs + 2 * us);
    EXPECT_EQ(sys.find_core("big.1")->next_tick().fs, ~std::uint64_t{0});  // no tick configured
    EXPECT_NE(sys.find_core("big.1")->next_interrupt().fs, first.fs);  // each core has its own stream
    // The other cluster has none: its cores never draw an arrival.
    EXPECT_EQ(sys.find_core("little.0")->next_interrupt().fs, ~std::uint64_t{0});
    group_stats g(sys.find_core("big.0")->stats());
    EXPECT_EQ(g.counters["random_interrupts"], g.counters["interrupts"]);
    // 20 ms at a mean gap of 50 us: 400 expected, sd 20. Each wakes the
    // sleeping core (the program's WFE, then the idle loop's) unless it
    // arrives within the previous one's 2 us handler (P = 1 - e^-0.04, ~4%),
    // when it is taken straight after it.
    const auto k = g.counters["random_interrupts"], wakes = g.counters["wakes_interrupt"];
    EXPECT_GT(k, 300u);
    EXPECT_LT(k, 500u);
    EXPECT_LE(wakes, k);
    EXPECT_GE(wakes, k - k / 10);
}

TEST(Wfe, RandomInterruptsTakeExactlyTheirHandlersFromAComputingCore) {
    // 100 ns of work per iteration (175 cycles at 1.75 GHz) for 10 ms with an
    // interrupt every 20 us on average, 1 us each: the core's time is its
    // work plus its handlers, to within one cycle of re-alignment per
    // interrupt, and about 500 arrive.
    system_model sys(test_platform({"activity.random_interrupts={interval: 20us, handler: 1us, cores: big}"}));
    std::uint64_t iterations = 0, k = 0;
    duration end;
    sys.find_core("big.0")->set_program([&](core& c) {
        while (c.local_time().fs < 10000 * us) {
            c.work(cycles{175});
            ++iterations;
        }
        c.sev();  // a sync: interrupts due by now are taken
        end = c.local_time();
        k = group_stats(c.stats()).counters["random_interrupts"];  // not those the idle loop takes afterwards
    });
    run_for_fs(11000 * us);
    EXPECT_GT(k, 400u);  // 500 expected, sd 22
    EXPECT_LT(k, 600u);
    const std::uint64_t expected = iterations * 100'000'000 + k * 1'000'000'000;  // fs
    const std::uint64_t cycle_fs = 571'429;  // one 1.75 GHz cycle, rounded up
    EXPECT_GE(end.fs + k * cycle_fs, expected) << "iterations " << iterations << ", interrupts " << k;
    EXPECT_LE(end.fs, expected + (k + 1) * cycle_fs) << "iterations " << iterations << ", interrupts " << k;
}

TEST(Atomics, CasCountsSuccessesAndFailures) {
    // CAS 0 -> 5 finds 0 and writes; CAS 0 -> 7 then finds 5 and does not.
    system_model sys(test_platform());
    std::uint64_t first = 99, second = 99;
    sys.find_core("little.0")->set_program([&](core& c) {
        first = c.atomic(atomic_op::cas, A, 5, 8, 0);
        second = c.atomic(atomic_op::cas, A, 7, 8, 0);
    });
    run_for_fs(100 * us);
    EXPECT_EQ(first, 0u);
    EXPECT_EQ(second, 5u);
    EXPECT_EQ(sys.memory().peek(A, 8), 5u);
    const stat_group* l1 = nullptr;
    for (const stat_group* g : sys.memory().stat_groups())
        if (g->name() == "little.0.l1") l1 = g;
    ASSERT_NE(l1, nullptr);
    group_stats r(*l1);
    EXPECT_EQ(r.counters["cas_success"], 1u);
    EXPECT_EQ(r.counters["cas_fail"], 1u);
}

// --explain on a scripted two-core scenario, against a golden file checked
// by hand against the protocol table (tests/golden/explain_two_cores.txt
// says how). COHSIM_UPDATE_GOLDEN=1 rewrites it (then check it again).
TEST(Explain, TwoCoreScenarioMatchesTheCheckedGoldenFile) {
    system_model sys(test_platform());
    explainer ex(A, 10);
    sys.observe({nullptr, &ex});
    bool first = true, second = false;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load_exclusive(A);  // miss: GetS, alone → E
        c.sevl();
        c.wfe();              // consumes the SEVL
        c.wfe();              // sleeps until big.0's store clears the reservation
        first = c.store_exclusive(A, 1);   // no reservation: fails at once
        c.load_exclusive(A);  // miss: GetS, big.0 supplies its dirty line
        second = c.store_exclusive(A, 2);  // upgrade from S: succeeds
    });
    sys.find_core("big.0")->set_program([&](core& c) {
        c.work(cycles{2'000});
        c.store(A, 9);        // GetM: little.0's E copy goes, its reservation is cleared
    });
    run_for_fs(100 * us);
    EXPECT_FALSE(first);
    EXPECT_TRUE(second);
    const std::string golden_file = COHSIM_SOURCE_DIR "/tests/golden/explain_two_cores.txt";
    const std::string header_end = "----\n";
    if (std::getenv("COHSIM_UPDATE_GOLDEN")) {
        std::ifstream old(golden_file);
        std::stringstream ss;
        ss << old.rdbuf();
        const std::string o = ss.str();
        const auto h = o.find(header_end);
        std::ofstream(golden_file) << (h == std::string::npos ? header_end : o.substr(0, h + header_end.size())) << ex.text();
    }
    std::ifstream in(golden_file);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string golden = ss.str();
    const auto h = golden.find(header_end);
    ASSERT_NE(h, std::string::npos) << "no golden file at " << golden_file;
    EXPECT_EQ(ex.text(), golden.substr(h + header_end.size()));
}

// Lock metrics: waits, acquisitions and shares against hand counts.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <map>

#include "platform_fixture.h"
#include "stress.h"
#include "workloads/interpreter.h"
#include "workloads/scenario.h"
#include "workloads/trace.h"

using namespace cohsim;
using namespace cohsim::testing;

TEST(LockMetrics, AWaitThatStartsAheadOfTheSimulationIsNotNegative) {
    stat_group g("g");
    lock_metrics m("x");
    m.begin(duration{5'000});
    EXPECT_EQ(m.ongoing_wait(duration{4'000}).fs, 0u);  // the core's local time ran ahead
    EXPECT_EQ(m.ongoing_wait(duration{7'000}).fs, 2'000u);
    EXPECT_EQ(m.longest_wait_ns(duration{4'000}), 0.0);
}

namespace {
// The hand count of one iteration of loop.s + ticket_functions.inc with every
// access an L1 hit (3 cycles) and ALU, branch and hint instructions 1 cycle:
//   adr, bl                                               2
//   spin_lock: prfm 3, ldaxr 3, add, stxr 3, cbnz, eor, cbz, ret   14
//   cbz x22, adr, bl                                      3
//   spin_unlock: ldrh 3, add, stlrh 3, ret                8
//   bl cpu_relax; mov, cbz, yield, ret                    5
//   add, cbz x21                                          2
// = 34 cycles + INSIDE + OUTSIDE (marks and `work 0` take no time).
constexpr std::uint64_t loop_cycles = 34;
}  // namespace

TEST(LockMetrics, OneCoreAloneTakesTheLockOncePerLoopExactly) {
    // little.0 alone, INSIDE 100 + OUTSIDE 200: after the first (cold)
    // acquisition, one every 334 cycles. Its first lock_begin comes after
    // main's 6 set-up instructions and the adr (7 cycles); the first wait is
    // the cold one (the longest). Acquisitions in [0, 1 ms) are then exactly
    // those k with first + k * 334 cycles < 1 ms.
    system_model sys(test_platform({"workload.threads=[{core: little.0, inside: 100cycles, outside: 200cycles}]"}));
    const std::uint64_t end_fs = 1'000'000'000'000ULL;
    run_for_fs(end_fs);
    const lock_metrics& m = sys.threads().at(0)->metrics();
    const clock_domain little("little", frequency{832'000'000});
    group_stats r(m.stats());
    const summary wait = r.dists["wait_ns"], hold = r.dists["hold_ns"];
    // Steady state: the wait is bl + spin_lock = 15 cycles, the hold is
    // cbz + INSIDE + adr = 102 cycles, every time.
    EXPECT_NEAR(wait.min, 15 / 0.832, 2e-6);
    EXPECT_NEAR(hold.min, 102 / 0.832, 2e-6);
    EXPECT_NEAR(hold.max, 102 / 0.832, 2e-6);
    const duration begin = little.edge_after(duration{}, cycles{7});
    const duration first{begin.fs + static_cast<std::uint64_t>(std::llround(wait.max * 1e6))};
    std::uint64_t expected = 0;
    while (little.edge_after(first, cycles{expected * (loop_cycles + 300)}).fs < end_fs) ++expected;
    EXPECT_EQ(m.acquisitions(), expected);
}

TEST(LockMetrics, TwoIdenticalCoresShareEvenly) {
    // little.0 and little.1: the same core type, clock and program; over
    // 2 ms they take the lock almost equally often (Jain's index ~ 1).
    system_model sys(test_platform({"workload.threads=[{core: little.0, inside: 100cycles, outside: 200cycles}, "
                                    "{core: little.1, inside: 100cycles, outside: 200cycles}]"}));
    run_for_fs(2'000'000'000'000ULL);
    const double a = static_cast<double>(sys.threads().at(0)->metrics().acquisitions());
    const double b = static_cast<double>(sys.threads().at(1)->metrics().acquisitions());
    ASSERT_GT(a + b, 1000);
    const double jain = (a + b) * (a + b) / (2 * (a * a + b * b));
    EXPECT_GT(jain, 0.99) << a << " vs " << b;
}

// ---- the mutual-exclusion check and the stuck-lock watch (mutex_checker) ----
// Marks arrive in the order the cores' programs run, not in simulated time: a
// core computing ahead marks a whole critical section before another core's
// earlier marks are seen. Each case feeds the marks in such an order and
// states by hand where the two sections overlap.
namespace {
constexpr std::uint64_t ns = 1'000'000;  // fs
duration at_ns(std::uint64_t n) { return {n * ns}; }
// The message of what `f` throws, or "" when it throws nothing.
std::string thrown(const std::function<void()>& f) {
    try {
        f();
    } catch (const mutual_exclusion_violated& e) {
        return e.what();
    }
    return {};
}
}  // namespace

TEST(MutexChecker, ASectionEnteredInsideAnotherCoresFinishedSectionIsCaught) {
    mutex_checker m;
    m.enter(0, "a", at_ns(10));
    m.leave(0, "a", at_ns(20));  // a's whole section [10, 20) is marked first
    const std::string e = thrown([&] { m.enter(1, "b", at_ns(15)); });
    EXPECT_EQ(e, "mutual exclusion violated at 15 ns: b entered the critical section while a was inside (since 10 ns)");
}

TEST(MutexChecker, ASectionThatEnclosesAnEarlierMarkedOneIsCaughtWhenItCloses) {
    mutex_checker m;
    m.enter(0, "a", at_ns(10));
    m.leave(0, "a", at_ns(20));
    m.enter(1, "b", at_ns(5));  // b inside from 5: a entered at 10 while b was inside
    const std::string e = thrown([&] { m.leave(1, "b", at_ns(12)); });
    EXPECT_EQ(e, "mutual exclusion violated at 10 ns: a entered the critical section while b was inside (since 5 ns)");
}

TEST(MutexChecker, SectionsThatOnlyTouchOrTakeNoTimeAreFine) {
    mutex_checker m;
    EXPECT_EQ(thrown([&] {
                  m.enter(0, "a", at_ns(10)), m.leave(0, "a", at_ns(20));
                  m.enter(1, "b", at_ns(20)), m.leave(1, "b", at_ns(30));  // [20, 30) after [10, 20)
                  m.enter(0, "a", at_ns(5)), m.leave(0, "a", at_ns(10));   // [5, 10) before, marked later
                  m.enter(1, "b", at_ns(25)), m.leave(1, "b", at_ns(25));  // empty: c2c's hand-off marks
              }),
              "");
}

TEST(MutexChecker, ReleasingWithoutHoldingAndEnteringTwiceAreCaught) {
    mutex_checker m;
    EXPECT_NE(thrown([&] { m.leave(0, "a", at_ns(1)); }).find("a released a lock it did not hold at 1 ns"), std::string::npos);
    m.enter(0, "a", at_ns(2));
    EXPECT_NE(thrown([&] { m.enter(0, "a", at_ns(3)); }).find("a marked lock_acquired at 3 ns while already inside since 2 ns"),
              std::string::npos);
}

TEST(MutexChecker, ALockWhoseReleaseDidNotFreeItNamesTheLastHolderAfterTheBound) {
    mutex_checker m;
    m.set_stuck_after(duration{1'000'000 * ns});  // 1 ms
    m.begin(0, "a", at_ns(0));
    m.enter(0, "a", at_ns(100));
    m.leave(0, "a", at_ns(200));
    m.begin(1, "b", at_ns(150));
    // b began waiting at 150 ns, after a's acquisition at 100 ns, with no
    // one else waiting: the lock counts as quiet from 150 ns, stuck from 1 ms + 150 ns on.
    EXPECT_EQ(thrown([&] { m.check_stuck(at_ns(1'000'149)); }), "");
    const std::string e = thrown([&] { m.check_stuck(at_ns(1'000'150)); });
    EXPECT_NE(e.find("the lock is stuck: a took it last, at 100 ns, and marked its release at 200 ns, but no core has "
                     "taken it since (for 1 ms): its unlock did not free the lock; 1 core waits for it (b since 150 ns)"),
              std::string::npos)
        << e;
    EXPECT_EQ(m.stuck_message(at_ns(1'000'150)), e);
}

TEST(MutexChecker, AHolderThatNeverReleasesIsNamedWithTheTimeItTookTheLock) {
    mutex_checker m;
    m.set_stuck_after(duration{1'000'000 * ns});
    m.enter(0, "a", at_ns(0));
    m.begin(1, "b", at_ns(10));  // nobody waited before: quiet from 10 ns
    EXPECT_EQ(thrown([&] { m.check_stuck(at_ns(1'000'009)); }), "");
    EXPECT_NE(thrown([&] { m.check_stuck(at_ns(1'000'010)); }).find("a took it at 0 ns and has not released it (for 1 ms)"),
              std::string::npos);
}

TEST(MutexChecker, TheBoundGrowsWithTheLongestGapBetweenAcquisitions) {
    mutex_checker m;
    m.set_stuck_after(duration{1'000'000 * ns});
    m.enter(0, "a", at_ns(0)), m.leave(0, "a", at_ns(1));
    m.enter(1, "b", at_ns(2'000)), m.leave(1, "b", at_ns(2'001));  // a gap of 2 us: the bound is 2 ms
    m.begin(0, "a", at_ns(2'100));
    EXPECT_EQ(thrown([&] { m.check_stuck(at_ns(2'100 + 1'999'999)); }), "");  // quiet from a's wait at 2.1 us
    EXPECT_NE(thrown([&] { m.check_stuck(at_ns(2'100 + 2'000'000)); }).find("1000x the longest gap between two acquisitions seen is 2 ms"),
              std::string::npos);
}

TEST(MutexChecker, NoWaiterOrNoBoundMeansNeverStuck) {
    mutex_checker m;
    m.set_stuck_after(duration{1'000'000 * ns});
    m.enter(0, "a", at_ns(0)), m.leave(0, "a", at_ns(1));
    EXPECT_EQ(thrown([&] { m.check_stuck(at_ns(1'000'000'000)); }), "");  // nobody waits
    mutex_checker off;
    off.begin(0, "a", at_ns(0));
    EXPECT_EQ(thrown([&] { off.check_stuck(at_ns(1'000'000'000)); }), "");
}

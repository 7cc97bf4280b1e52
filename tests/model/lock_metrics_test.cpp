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

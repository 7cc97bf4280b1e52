// The function profile (region/endregion) against hand-counted cycles.
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

namespace {
// The region_probe program's `probe` region on little.0: its distribution.
summary probe_profile(const std::string& params) {
    system_model sys(test_platform({"workload.threads=[{core: little.0, program: programs/region_probe.s, params: " +
                                    params + "}]"}));
    for (int i = 0; i < 100; ++i) run_for_fs(1'000'000'000'000ULL);  // up to 100 ms; it halts
    return group_stats(sys.threads().at(0)->profile().stats()).dists["probe"];
}
}  // namespace

TEST(FunctionProfile, WarmRunsTakeExactlyTheirHitCycles) {
    // 4 runs over 64 lines with no flush: the first misses, the other three
    // hit: 2 movs + 64 x (ldr hit 3 [its data used by the next add] + 4 ALU
    // and branch) = 450 cycles at 832 MHz = 540.87 ns, to within one clock
    // edge of rounding (1 fs).
    const summary s = probe_profile("{RUNS: 4, SIZE: 4096, GAP: 100}");
    EXPECT_EQ(s.count, 4u);
    EXPECT_NEAR(s.min, 450 / 0.832, 2e-6);
    EXPECT_GT(s.max, s.min * 5);  // the cold first run: 64 misses to memory
    const double total = s.mean * 4;
    EXPECT_NEAR(total, s.max + 3 * s.min, 1e-3);  // exactly one cold run
}

TEST(FunctionProfile, StreamingPastTheL1MakesRunsL2Hits) {
    // Flushing 64 KiB (twice the 32 KiB L1) between runs: every line of every
    // run misses the L1 and hits the L2 (13 cycles: 3 + 2 + 6 + 2, as
    // MemoryLatency.L2HitInsideTheCluster): 2 + 64 x (13 + 4) = 1090 cycles.
    const summary s = probe_profile("{RUNS: 4, SIZE: 4096, GAP: 100, FLUSH: 65536}");
    EXPECT_EQ(s.count, 4u);
    EXPECT_NEAR(s.min, 1090 / 0.832, 2e-6);
    EXPECT_NEAR(s.p50, 1090 / 0.832, 1090 / 0.832 * 0.09);  // the warm-up run aside, all alike
}

TEST(FunctionProfile, StreamingPastTheL2MakesRunsGoToMemory) {
    // 3 MiB streamed (beyond the 1 MiB L2): every line of every run comes
    // from memory, at least the 100 ns memory latency each.
    const summary s = probe_profile("{RUNS: 3, SIZE: 4096, GAP: 100, FLUSH: 3145728}");
    EXPECT_EQ(s.count, 3u);
    EXPECT_GT(s.min, 64 * 100.0);
}

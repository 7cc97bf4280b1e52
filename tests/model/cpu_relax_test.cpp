// cpu_relax() variants of the lock library: WFE back-off and yield.
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
std::map<std::string, std::uint64_t> relax_run(const std::string& relax) {
    system_model sys(test_platform({"timer={freq: 1.92MHz, period: 10us}",
                                    "workload.threads=[{core: little.0, cpu_relax: " + relax +
                                        ", iterations: 20, params: {THRESHOLD: 5}}]"}));
    // Run until the 20th acquisition is done and the core sleeps next (in the
    // last call's back-off, or in the idle loop after `halt` for yield).
    core& c = *sys.find_core("little.0");
    for (int i = 0; i < 100000; ++i) {
        run_for_fs(100'000'000);  // 100 ns
        if (sys.threads()[0]->metrics().acquisitions() == 20 && c.asleep()) break;
    }
    struct grab : stat_visitor {
        std::map<std::string, std::uint64_t> v;
        void counter(const std::string& n, const std::string&, std::uint64_t x) override { v[n] = x; }
    } g;
    c.stats().accept(g);
    return g.v;
}
}  // namespace

TEST(CpuRelax, WfeBackoffSleepsOncePerThresholdCalls) {
    const auto v = relax_run("wfe_backoff");
    // 20 calls, threshold 5: 4 back-offs (calls 5, 10, 15, 20), each
    // `sevl; wfe; wfe` = 2 WFEs of which one sleeps until the event stream
    // wakes it. We stop while the 4th sleeps: 4 sleeps, 8 WFEs, 3 wake-ups.
    // A lone thread never waits for the lock itself.
    EXPECT_EQ(v.at("wfe_sleeps"), 4u);
    EXPECT_EQ(v.at("wfe_executed"), 8u);
    EXPECT_EQ(v.at("wakes_event_stream"), 3u);
}

TEST(CpuRelax, PerCpuWordBackoffSleepsAsThePatchCounts) {
    const auto v = relax_run("wfe_backoff_percpu");
    // The patch as written, THRESHOLD 5. The word starts empty, so call 1
    // stores its call site with count 0; the count before call k is then
    // k - 2, and a call whose count before it is above 5 sleeps: call 8,
    // which starts the count again at 0; then the count before call 8 + j is
    // j - 1, so the next sleep is at call 15 (and call 22, past the 20th).
    // 2 back-off sleeps (each 2 WFEs, woken by the event stream), then the
    // idle loop's sleep after `halt`: 3 sleeps, 5 WFEs, 2 wake-ups. (The
    // register-count variant sleeps at calls 5, 10, 15, 20.)
    EXPECT_EQ(v.at("wfe_sleeps"), 3u);
    EXPECT_EQ(v.at("wfe_executed"), 5u);
    EXPECT_EQ(v.at("wakes_event_stream"), 2u);
}

TEST(CpuRelax, YieldNeverSleeps) {
    const auto v = relax_run("yield");
    EXPECT_EQ(v.at("wfe_sleeps"), 1u);  // only the idle loop after halt
    EXPECT_EQ(v.at("wakes_event_stream"), 0u);
}

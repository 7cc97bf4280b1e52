// Non-blocking loads: the load-to-use scoreboard and outstanding misses.
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
// Runs `text` on little.0 with a function profile; returns each region's summary.
std::map<std::string, summary> profile_of(const std::string& text, const std::vector<std::string>& sets = {}) {
    system_model sys(test_platform(sets));
    static asmx::program prog;
    prog = asmx::assemble_text(text, "test.s");
    static std::unique_ptr<region_profile> prof;
    prof = std::make_unique<region_profile>("little.0");
    static std::unique_ptr<interpreter> it;
    core& c = *sys.find_core("little.0");
    it = std::make_unique<interpreter>(c, prog, shared_base, private_base, nullptr, nullptr, prof.get());
    c.set_program([&](core&) { it->run(); });
    run_for_fs(1'000'000'000'000ULL);
    return group_stats(prof->stats()).dists;
}

// One miss to memory (used at once), then four independent misses to four
// other lines whose data is used only after the last is issued.
const char* const four_misses = R"(
.data
.shared
.align 64
buf: .space 0x10000
.text
    adr x0, buf
    region one
    ldr x3, [x0]
    add x7, x7, x3
    endregion
    region four
    ldr x3, [x0, #0x1000]
    ldr x4, [x0, #0x2000]
    ldr x5, [x0, #0x3000]
    ldr x6, [x0, #0x4000]
    add x7, x3, x4
    add x7, x7, x5
    add x7, x7, x6
    endregion
    halt
)";
}  // namespace

TEST(LoadToUse, IndependentHitsOverlap) {
    // Three L1 hits issued at cycles 0, 1 and 2, each with its data 3 cycles
    // later (3, 4, 5): the first add waits for x4 until 4 and ends at 5; the
    // second finds x5 ready at 5 and ends at 6: 6 cycles, where a blocking
    // core takes 3 + 3 + 3 + 1 + 1 = 11.
    const auto p = profile_of(R"(
.data
.shared
.align 64
a: .quad 1
.align 64
b: .quad 2
.align 64
c: .quad 3
.text
    adr x0, a
    adr x1, b
    adr x2, c
    ldr x3, [x0]
    ldr x4, [x1]
    ldr x5, [x2]
    add x6, x3, x4
    add x6, x6, x5
    region hits
    ldr x3, [x0]
    ldr x4, [x1]
    ldr x5, [x2]
    add x6, x3, x4
    add x6, x6, x5
    endregion
    halt
)");
    EXPECT_NEAR(p.at("hits").min, 6 / 0.832, 2e-6);
}

TEST(OutstandingMisses, OneAtATimeSerialisesTheMisses) {
    // outstanding_misses 1: each of the four misses waits for the previous:
    // at least four single-miss latencies.
    const auto p = profile_of(four_misses, {"clusters.little.timing={wfe_wake_latency: 4cycles, outstanding_misses: 1}"});
    EXPECT_GE(p.at("four").min, 4 * (p.at("one").min - 1 / 0.832));
}

TEST(OutstandingMisses, FourInFlightOverlap) {
    // outstanding_misses 4: the four misses are in flight together; the run
    // takes about one miss latency (plus the channel and memory occupancy of
    // the other three), well under two.
    const auto p = profile_of(four_misses, {"clusters.little.timing={wfe_wake_latency: 4cycles, outstanding_misses: 4}"});
    EXPECT_GT(p.at("four").min, p.at("one").min);
    EXPECT_LT(p.at("four").min, 1.5 * p.at("one").min);
}

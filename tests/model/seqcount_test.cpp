// seqcount: readers never see a torn pair while a writer updates it.
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
std::pair<std::uint64_t, std::uint64_t> seqcount_run(int protect) {
    system_model sys(test_platform(
        {"workload.program=locks/seqcount.s", "workload.params={PROTECT: " + std::to_string(protect) + "}",
         "workload.threads=[{core: big.0, iterations: 2000}, {core: little.0, iterations: 500, params: {ROLE: 1}}, "
         "{core: little.1, iterations: 500, params: {ROLE: 1}}, {core: big.1, iterations: 500, params: {ROLE: 1}}]"}));
    for (int i = 0; i < 100; ++i) run_for_fs(1'000'000'000'000ULL);
    return {sys.memory().peek(shared_base + 128, 8), sys.memory().peek(shared_base + 136, 8)};  // torn, reads
}
}  // namespace

TEST(Seqcount, SplitReadNeverTornUnderAConcurrentWriter) {
    const auto [torn, reads] = seqcount_run(1);
    EXPECT_EQ(reads, 1500u);
    EXPECT_EQ(torn, 0u);
}

TEST(Seqcount, WithoutTheSequenceReadsDoTear) {
    // The same readers without the protocol: the check above could fail.
    const auto [torn, reads] = seqcount_run(0);
    EXPECT_EQ(reads, 1500u);
    EXPECT_GT(torn, 0u);
}

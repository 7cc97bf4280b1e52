// The random tester at length (label "soak": run with COHSIM_SOAK=1).
#include <gtest/gtest.h>

#include "random_program.h"
#include "stress.h"

using namespace cohsim::testing;

class Soak : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(Soak, RandomTesterMillionOps) {
    const auto r = run_random_tester(125'000, GetParam());
    EXPECT_EQ(r.failure, "");
    EXPECT_EQ(r.finished, 8u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, Soak, ::testing::Values(2, 3, 4, 5));

// The random program tester at length: 100 more random platforms, 50 000
// operations per core each (random_program.h).
class SoakRandomProgram : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(SoakRandomProgram, InvariantsAndDataHoldOnARandomPlatform) {
    const auto r = cohsim::testing::run_random_program(GetParam(), 50'000);
    EXPECT_EQ(r.failure, "") << "platform:" << r.platform;
    EXPECT_EQ(r.finished, r.cores);
    RecordProperty("instructions", std::to_string(r.instructions));
    RecordProperty("way_stalls", std::to_string(r.way_stalls));
}

INSTANTIATE_TEST_SUITE_P(Seeds, SoakRandomProgram, ::testing::Range<std::uint64_t>(1000, 1100));

// The SystemC random tester at scale: 16 cores (8 + 8), 10^7 operations per
// seed (625 000 per core), with plain stores to a falsely shared line, 10 seeds.
class SoakSixteenCores : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(SoakSixteenCores, RandomTesterTenMillionOps) {
    const auto r = run_random_tester(625'000, GetParam(), {"clusters.little.cores=8", "clusters.big.cores=8"}, true);
    EXPECT_EQ(r.failure, "");
    EXPECT_EQ(r.finished, 16u);
    EXPECT_EQ(r.ops, 10'000'000u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, SoakSixteenCores, ::testing::Range<std::uint64_t>(10, 20));

// Lost update at 56 cores (28 + 28): 2000 increments each of one counter (112 000).
TEST(SoakLostUpdate, FiftySixCoresLoadExclusiveStoreExclusive) {
    lost_update(true, 2000, {"clusters.little.cores=28", "clusters.big.cores=28"});
}
TEST(SoakLostUpdate, FiftySixCoresLdadd) { lost_update(false, 2000, {"clusters.little.cores=28", "clusters.big.cores=28"}); }

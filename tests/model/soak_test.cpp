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

// The random tester at length (label "soak": run with COHSIM_SOAK=1).
#include <gtest/gtest.h>

#include "stress.h"

using namespace cohsim::testing;

class Soak : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(Soak, RandomTesterMillionOps) {
    const auto r = run_random_tester(125'000, GetParam());
    EXPECT_EQ(r.failure, "");
    EXPECT_EQ(r.finished, 8u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, Soak, ::testing::Values(2, 3, 4, 5));

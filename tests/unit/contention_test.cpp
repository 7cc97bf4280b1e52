// Verdicts and fairness on the published runs (calibration.yaml), where the
// right answer is known, and on hand-built edge cases.
#include <gtest/gtest.h>

#include "sim/units.h"
#include "workloads/contention.h"

using namespace cohsim;

TEST(Contention, PublishedStarvationIsStarved) {
    // asr_freq_skew_no_backoff, run 1: 182 vs 38371616 in 20 s, max wait 1.95 s.
    const auto r = judge({{"little.2", 182, 1'951'954e3}, {"big.3", 38'371'616, 1e3}}, 20e9);
    EXPECT_EQ(r.cores[0].v, verdict::starved);  // share 4.7e-6 < 1% of 0.5
    EXPECT_EQ(r.cores[1].v, verdict::fair);
    EXPECT_NEAR(r.cores[0].share, 182.0 / (182 + 38'371'616), 1e-12);
    // Jain: (a+b)^2 / (2 (a^2 + b^2)) = 0.5000047...
    EXPECT_NEAR(r.jain, 0.5000047, 1e-6);
    EXPECT_EQ(r.cores[0].reason,
              "little.2 STARVED: 182 acquisitions vs 38.4M for big.3 (share 4.7e-06); longest wait 1.95 s");
}

TEST(Contention, PublishedBackoffIsDisadvantaged) {
    // asr_freq_skew_wfe_backoff, run 1: 1849898 vs 37799379, max wait 131 ms.
    const auto r = judge({{"little.2", 1'849'898, 131'255e3}, {"big.3", 37'799'379, 1e3}}, 20e9);
    EXPECT_EQ(r.cores[0].v, verdict::disadvantaged);  // share 0.047 < 50% of 0.5; wait 0.66% of the run
}

TEST(Contention, PublishedEqualFrequencyIsFair) {
    const auto r = judge({{"little.2", 12'945'632, 14e3}, {"big.3", 13'021'576, 14e3}}, 20e9);
    EXPECT_EQ(r.cores[0].v, verdict::fair);
    EXPECT_EQ(r.cores[1].v, verdict::fair);
    EXPECT_GT(r.jain, 0.9999);
}

TEST(Contention, ALongWaitAloneIsEnough) {
    // Even shares, but one wait of 30% of the run: starved; of 2%: disadvantaged.
    EXPECT_EQ(judge({{"a", 100, 0.30e9}, {"b", 100, 0}}, 1e9).cores[0].v, verdict::starved);
    EXPECT_EQ(judge({{"a", 100, 0.02e9}, {"b", 100, 0}}, 1e9).cores[0].v, verdict::disadvantaged);
    EXPECT_EQ(judge({{"a", 100, 0.002e9}, {"b", 100, 0}}, 1e9).cores[0].v, verdict::fair);
}

TEST(Contention, OneCoreOrNoAcquisitions) {
    EXPECT_EQ(judge({{"a", 5, 1e9}}, 1e9).cores[0].v, verdict::fair);  // nobody to lose to
    const auto r = judge({{"a", 0, 0}, {"b", 0, 0}}, 1e9);
    EXPECT_EQ(r.jain, 1.0);
    EXPECT_EQ(r.cores[0].share, 0.5);
    EXPECT_EQ(count_text(38'371'616), "38.4M");
    EXPECT_EQ(count_text(12'345), "12.3k");
    EXPECT_EQ(time_text(15'309'597e3), "15.3 s");
}

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "sim/stats.h"

using namespace cohsim;

TEST(Distribution, PercentilesWithinOneBucketOfTheExactValue) {
    stat_group g("g");
    distribution d(g, "d", "");
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> ln(6.0, 2.0);  // waits spanning decades
    std::vector<double> xs;
    for (int i = 0; i < 20000; ++i) xs.push_back(ln(rng)), d.sample(xs.back());
    std::sort(xs.begin(), xs.end());
    const summary s = d.get();
    const double step = std::exp2(1.0 / distribution::buckets_per_doubling);  // 9%
    for (const auto& [q, got] : {std::pair{0.25, s.p25}, {0.5, s.p50}, {0.75, s.p75}, {0.9, s.p90}, {0.99, s.p99}}) {
        const double exact = xs[static_cast<std::size_t>(q * xs.size()) - 1];
        EXPECT_LE(got, exact * step) << q;
        EXPECT_GE(got, exact / step) << q;
    }
    EXPECT_EQ(s.min, xs.front());
    EXPECT_EQ(s.max, xs.back());
    EXPECT_EQ(s.count, 20000u);
}

TEST(Distribution, SmallCasesByHand) {
    stat_group g("g");
    distribution d(g, "d", "");
    EXPECT_EQ(d.get().p50, 0.0);  // empty
    for (double v : {10.0, 10.0, 10.0, 1000.0}) d.sample(v);
    const summary s = d.get();
    EXPECT_EQ(s.mean, 257.5);
    EXPECT_NEAR(s.sd, 495.0, 1e-9);  // sample sd of {10,10,10,1000}
    EXPECT_NEAR(s.p50, 10.0, 10.0 * 0.09);
    EXPECT_NEAR(s.p99, 1000.0, 1000.0 * 0.09);
    EXPECT_EQ(s.max, 1000.0);
}

TEST(Distribution, HistogramBucketsByHand) {
    // 8 buckets per doubling: 10 lies in [2^(26/8), 2^(27/8)) = [9.51, 10.37),
    // 1000 in [2^(79/8), 2^(80/8)) = [955.4, 1024); a zero has its own bucket.
    stat_group g("g");
    distribution d(g, "d", "");
    for (double v : {0.0, 10.0, 10.0, 1000.0}) d.sample(v);
    const auto h = d.get().histogram;
    ASSERT_EQ(h.size(), 3u);
    EXPECT_EQ(h[0].lo, 0.0);
    EXPECT_EQ(h[0].count, 1u);
    EXPECT_DOUBLE_EQ(h[1].lo, std::exp2(26.0 / 8));
    EXPECT_DOUBLE_EQ(h[1].hi, std::exp2(27.0 / 8));
    EXPECT_EQ(h[1].count, 2u);
    EXPECT_DOUBLE_EQ(h[2].lo, std::exp2(79.0 / 8));
    EXPECT_DOUBLE_EQ(h[2].hi, 1024.0);
    EXPECT_EQ(h[2].count, 1u);
    EXPECT_LE(h[2].lo, 1000.0);
}

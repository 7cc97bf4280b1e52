// The seeded streams: reproducible, and distributed as their names say
// (checked against the closed forms, with bounds of 4-5 standard errors).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/random.h"

using namespace cohsim;

TEST(Random, SameSeedSameStreamOtherSeedOtherStream) {
    random_stream a(7), b(7), c(8);
    std::vector<std::uint64_t> va, vb, vc;
    for (int i = 0; i < 100; ++i) va.push_back(a.next()), vb.push_back(b.next()), vc.push_back(c.next());
    EXPECT_EQ(va, vb);
    EXPECT_NE(va, vc);
}

TEST(Random, BetweenStaysInsideAndReachesBothEnds) {
    random_stream r(1);
    bool lo = false, hi = false;
    for (int i = 0; i < 10000; ++i) {
        const auto x = r.between(3, 9);
        ASSERT_GE(x, 3u);
        ASSERT_LE(x, 9u);
        lo |= x == 3, hi |= x == 9;
    }
    EXPECT_TRUE(lo && hi);
    EXPECT_EQ(r.between(5, 5), 5u);
}

TEST(Random, ExponentialHasTheMeanSpreadAndTailOfAPoissonGap) {
    // Exp(mean m): mean m, standard deviation m, P(X > m) = 1/e,
    // P(X > 3m) = e^-3, memoryless: P(X > 2m | X > m) = 1/e.
    random_stream r(42);
    constexpr int n = 200000;
    constexpr double m = 1'000'000;
    double sum = 0, sum2 = 0;
    int over_m = 0, over_2m = 0, over_3m = 0;
    for (int i = 0; i < n; ++i) {
        const double x = static_cast<double>(r.exponential(1'000'000));
        sum += x, sum2 += x * x;
        over_m += x > m, over_2m += x > 2 * m, over_3m += x > 3 * m;
    }
    const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
    EXPECT_NEAR(mean, m, 0.01 * m);  // standard error 0.22%
    EXPECT_NEAR(sd, m, 0.02 * m);    // standard error ~0.5%
    EXPECT_NEAR(over_m / double(n), std::exp(-1.0), 0.005);  // standard error 0.0011
    EXPECT_NEAR(over_3m / double(n), std::exp(-3.0), 0.003);  // standard error 0.0005
    EXPECT_NEAR(over_2m / double(over_m), std::exp(-1.0), 0.008);
}

TEST(Random, ExponentialOfZeroMeanIsZero) {
    random_stream r(3);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(r.exponential(0), 0u);
}

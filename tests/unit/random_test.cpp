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

TEST(Random, NormalQuantileMatchesTabledValues) {
    // Quantiles of the standard normal from any statistics table (to 6
    // places): the approximation's error is far below their rounding.
    const std::pair<double, double> table[] = {
        {0.5, 0.0},           {0.841344746, 1.0},   {0.975, 1.959964},  {0.995, 2.575829},
        {0.999, 3.090232},    {0.0001, -3.719016},  {0.02, -2.053749},  {0.1, -1.281552},
        {0.3, -0.524401},     {0.9, 1.281552},      {0.98, 2.053749},   {0.99999, 4.264891},
    };
    for (const auto& [p, z] : table) EXPECT_NEAR(normal_quantile(p), z, 2e-6) << "p = " << p;
    // Symmetric, and increasing across the seams between its pieces (0.02425).
    EXPECT_NEAR(normal_quantile(0.2), -normal_quantile(0.8), 1e-12);
    EXPECT_LT(normal_quantile(0.0242), normal_quantile(0.02426));
    EXPECT_LT(normal_quantile(0.97574), normal_quantile(0.9758));
}

TEST(Random, LognormalHasTheMedianMeanAndSpreadOfItsClosedForm) {
    // median m, log-sd s: mean m e^(s^2/2), sd mean * sqrt(e^(s^2) - 1),
    // P(X > m) = 1/2, P(X > m e^s) = P(Z > 1) = 0.158655.
    constexpr double m = 1e6, s = 0.4;
    constexpr int n = 200000;
    random_stream r(9);
    double sum = 0, sum2 = 0;
    int over_median = 0, over_1sd = 0;
    for (int i = 0; i < n; ++i) {
        const double x = static_cast<double>(lognormal_at(1'000'000, s, open_unit(r.next())));
        sum += x, sum2 += x * x;
        over_median += x > m, over_1sd += x > m * std::exp(s);
    }
    const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
    const double want_mean = m * std::exp(s * s / 2), want_sd = want_mean * std::sqrt(std::exp(s * s) - 1);
    EXPECT_NEAR(mean, want_mean, 4 * want_sd / std::sqrt(n));  // 1083287, sd 451224
    EXPECT_NEAR(sd, want_sd, 0.02 * want_sd);
    EXPECT_NEAR(over_median / double(n), 0.5, 0.005);
    EXPECT_NEAR(over_1sd / double(n), 0.158655, 0.004);
    // Spread 0: the median itself, whatever the draw; clipped at 4 sd.
    EXPECT_EQ(lognormal_at(123456789, 0, 0.999), 123456789u);
    EXPECT_EQ(lognormal_at(1000, 0.5, 1e-12), static_cast<std::uint64_t>(std::llround(1000 * std::exp(-2.0))));
}

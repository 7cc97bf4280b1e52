// The ensemble's statistics against closed forms and hand-worked cases.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "app/ensemble.h"
#include "app/predict.h"

using namespace cohsim;

TEST(Ensemble, LatinHypercubeHitsEveryStratumOncePerDimension) {
    for (std::size_t n : {1u, 2u, 7u, 32u, 100u}) {
        const auto u = latin_hypercube(n, 5, 42);
        ASSERT_EQ(u.size(), n);
        for (std::size_t j = 0; j < 5; ++j) {
            std::set<std::size_t> strata;
            for (std::size_t i = 0; i < n; ++i) {
                ASSERT_GE(u[i][j], 0.0);
                ASSERT_LT(u[i][j], 1.0);
                strata.insert(static_cast<std::size_t>(u[i][j] * static_cast<double>(n)));
            }
            EXPECT_EQ(strata.size(), n) << "n=" << n << " dimension " << j;
        }
    }
    // Deterministic per seed, different across seeds, and the dimensions are
    // not the same permutation.
    EXPECT_EQ(latin_hypercube(16, 3, 7), latin_hypercube(16, 3, 7));
    EXPECT_NE(latin_hypercube(16, 3, 7), latin_hypercube(16, 3, 8));
    const auto u = latin_hypercube(16, 2, 7);
    int same = 0;
    for (const auto& row : u) same += static_cast<int>(row[0] * 16) == static_cast<int>(row[1] * 16);
    EXPECT_LT(same, 16);
}

TEST(Ensemble, DrawsEveryQuantumOfTheRangeEquallyOften) {
    cfg::uncertain_param p;
    p.lo = 20, p.nominal = 26, p.hi = 34, p.quantum = 1;  // 15 whole cycles
    std::vector<int> count(35, 0);
    const std::size_t n = 15 * 200;
    for (const auto& row : latin_hypercube(n, 1, 3)) ++count[draw(p, row[0])];
    for (int c = 20; c <= 34; ++c) EXPECT_EQ(count[c], 200) << c;  // a Latin hypercube of 15*200 strata: exactly
    EXPECT_EQ(draw(p, 0.0), 20u);
    EXPECT_EQ(draw(p, 0.999999), 34u);
    // Frequencies in whole kHz: 1.8GHz ~ 1.7999995GHz..1.8000015GHz holds 1.8GHz and 1.800001GHz only.
    cfg::uncertain_param f{"f", 1'799'999'500, 1'800'000'000, 1'800'001'500, 1000, "frequency", nullptr, nullptr, {}};
    EXPECT_EQ(draw(f, 0.2), 1'800'000'000u);
    EXPECT_EQ(draw(f, 0.7), 1'800'001'000u);
    // No quantum inside: the nominal value.
    cfg::uncertain_param g{"g", 1'800'000'100, 1'800'000'200, 1'800'000'300, 1000, "frequency", nullptr, nullptr, {}};
    EXPECT_EQ(draw(g, 0.5), 1'800'000'200u);
}

TEST(Ensemble, QuantilesAreType7) {
    // numpy.percentile([1, 2, 3, 4, 10], [5, 50, 95]) = [1.2, 3, 8.8].
    const std::vector<double> xs = {10, 3, 1, 4, 2};
    EXPECT_NEAR(quantile(xs, 0.05), 1.2, 1e-12);
    EXPECT_NEAR(quantile(xs, 0.5), 3, 1e-12);
    EXPECT_NEAR(quantile(xs, 0.95), 8.8, 1e-12);
    EXPECT_EQ(quantile({5}, 0.95), 5);
    EXPECT_TRUE(std::isnan(quantile({}, 0.5)));
}

TEST(Ensemble, SpearmanOnHandWorkedCases) {
    EXPECT_NEAR(spearman({1, 2, 3, 4, 5}, {10, 20, 30, 40, 1000}), 1.0, 1e-12);  // monotone, not linear
    EXPECT_NEAR(spearman({1, 2, 3, 4, 5}, {5, 4, 3, 2, 1}), -1.0, 1e-12);
    // x ranks 1..5, y = [2, 1, 4, 3, 5]: sum d^2 = 4, rho = 1 - 6*4/(5*24) = 0.8.
    EXPECT_NEAR(spearman({1, 2, 3, 4, 5}, {2, 1, 4, 3, 5}), 0.8, 1e-12);
    // Ties get the average rank: y = [0, 0, 0, 1] ranks [2, 2, 2, 4]; x ranks
    // [1, 2, 3, 4]: Pearson of those = 0.7745967 (= sqrt(0.6)).
    EXPECT_NEAR(spearman({1, 2, 3, 4}, {0, 0, 0, 1}), std::sqrt(0.6), 1e-12);
    EXPECT_EQ(spearman({1, 2, 3}, {7, 7, 7}), 0);  // a constant outcome depends on nothing
    EXPECT_EQ(spearman({1, 2}, {1, 2}), 0);        // too few
}

namespace {
// A report as prediction_report writes it, with only what the caveats read.
cohsim::json report_of(int done, const std::string& focus_verdicts, bool margin_flips) {
    cohsim::json r;
    r["members"] = {{"requested", done}, {"done", done}};
    r["focus_core"] = "little.2";
    r["cores"] = cohsim::json::array({{{"id", "little.2"}, {"verdicts", cohsim::json::parse(focus_verdicts)}}});
    r["margin"] = {{"path", "clusters.little.freq"},
                   {"nominal_verdict", "STARVED"},
                   {"down", nullptr},
                   {"up", margin_flips ? cohsim::json{{"flips_at", "1.02GHz"}, {"verdict_beyond", "fair"}} : cohsim::json(nullptr)}};
    return r;
}
}  // namespace

TEST(Ensemble, CaveatsSayWhenTheMembersCannotSayIt) {
    // 20 members: the 5% end sits at order statistic 1 + 0.05 x 19 = 1.95,
    // between the two lowest; 21 reach the second member itself.
    EXPECT_EQ(cohsim::prediction_caveats(report_of(20, R"({"STARVED": 10, "fair": 10})", false)).size(), 1u);
    EXPECT_TRUE(cohsim::prediction_caveats(report_of(21, R"({"STARVED": 11, "fair": 10})", false)).empty());
    // Every member STARVED while the margin run turns fair inside the range:
    // one side of a cliff.
    const auto c = cohsim::prediction_caveats(report_of(32, R"({"STARVED": 32})", true));
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NE(c[0].get<std::string>().find("every member gave little.2 STARVED, yet the margin run"), std::string::npos) << c[0];
    EXPECT_NE(c[0].get<std::string>().find("clusters.little.freq = 1.02GHz"), std::string::npos) << c[0];
    // Members on both sides, or no flip inside the range: nothing to say.
    EXPECT_TRUE(cohsim::prediction_caveats(report_of(32, R"({"STARVED": 30, "fair": 2})", true)).empty());
    EXPECT_TRUE(cohsim::prediction_caveats(report_of(32, R"({"STARVED": 32})", false)).empty());
}

// Members that reuse the calibration's kept draws (7 draws, 16 members, as
// the shipped phone): the band describes 7 chips, and says so; as many
// members as draws, or no calibrated values, say nothing of it.
TEST(Ensemble, CaveatsSayWhenMembersReuseTheCalibratedDraws) {
    auto r = report_of(32, R"({"STARVED": 30, "fair": 2})", false);
    r["calibrated_draws"] = 7;
    const auto c = cohsim::prediction_caveats(r);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NE(c[0].get<std::string>().find("the 32 members reuse 7 joint draws of the calibration"), std::string::npos) << c[0];
    r["calibrated_draws"] = 32;
    EXPECT_TRUE(cohsim::prediction_caveats(r).empty());
    r.erase("calibrated_draws");
    EXPECT_TRUE(cohsim::prediction_caveats(r).empty());
}

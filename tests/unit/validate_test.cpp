// `cohsim validate`: the cases file and each check, on hand-made results
// whose figures are worked out here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <vector>

#include "sim/config_tree.h"
#include "app/calibrate.h"
#include "app/validate.h"

using namespace cohsim;
using json = nlohmann::ordered_json;

namespace {

std::string write_cases(const std::string& text) {
    const std::string f = ::testing::TempDir() + "/cases_" + std::to_string(::getpid()) + ".yaml";
    std::ofstream(f) << text;
    return f;
}

std::string error_of(const std::string& text) {
    try {
        load_cases(write_cases(text));
    } catch (const cfg::config_error& e) {
        return e.what();
    }
    return "(no error)";
}

// A result JSON with a little and a big core.
json pair_result(double little, double big, double seconds, double little_wait_ns) {
    return {{"simulated_ns", seconds * 1e9},
            {"cores",
             {{{"id", "little.2"}, {"lock", {{"acquisitions", little}, {"longest_wait_ns", little_wait_ns}}}},
              {{"id", "big.3"}, {"lock", {{"acquisitions", big}, {"longest_wait_ns", 100.0}}}}}}};
}

calibration_case pair_case() {
    calibration_case c;
    c.id = "skew";
    c.config = "skew.yaml";
    c.little = "little.2";
    c.big = "big.3";
    // Measured: 200 vs 2e7 and 2000 vs 2e7 -> mean log10 ratio (-5 + -4) / 2 = -4.5; big 2e7 / 20 s = 1e6/s.
    c.runs = {{200, 2e7, 1e6}, {2000, 2e7, 3e6}};
    calibration_check r;
    r.kind = "log10_ratio";
    r.within = 1;
    calibration_check w;
    w.kind = "little_max_wait";
    w.has_min = true;
    w.min = 5e8;  // 0.5 s
    calibration_check b;
    b.kind = "big_rate";
    b.factor = 1.5;
    c.checks = {r, w, b};
    return c;
}

calibration_check range_check(const char* kind, double min, double max) {
    calibration_check c;
    c.kind = kind;
    c.has_min = c.has_max = true;
    c.min = min, c.max = max;
    return c;
}

check_row::result outcome(const std::vector<check_row>& rows, std::size_t i) { return rows.at(i).outcome; }

}  // namespace

TEST(Validate, ShippedCasesLoad) {
    const auto cases = load_cases(COHSIM_SOURCE_DIR "/configs/calibration/cases.yaml");
    ASSERT_EQ(cases.size(), 4u);
    EXPECT_EQ(cases[0].id, "asr_freq_skew_no_backoff");
    EXPECT_EQ(cases[0].runs.size(), 5u);
    EXPECT_EQ(cases[0].runs[2].little_max_wait_us, 15309597);
    EXPECT_EQ(cases[3].better, "spinlock_28_threads.yaml");
    EXPECT_DOUBLE_EQ(cases[1].checks[1].min, 19e6);  // 19ms in ns
    EXPECT_DOUBLE_EQ(cases[1].checks[1].max, 1.6e9);  // 1.6s in ns
    EXPECT_FALSE(cases[1].checks[1].known_miss.empty());  // the WFE case's longest wait: a known miss
    for (const auto& c : cases)
        for (std::size_t k = 0; k < c.checks.size(); ++k)
            if (c.id != cases[1].id || k != 1) {
                EXPECT_TRUE(c.checks[k].known_miss.empty()) << c.id << " check " << k;
            }
}

// A check marked known_miss: its row says so (KNOWN MISS while it fails,
// "PASS (known_miss no longer)" once it passes) and its failure does not
// count; the same figures unmarked fail and count.
TEST(Validate, AKnownMissIsReportedNotCounted) {
    using R = check_row::result;
    calibration_case c = pair_case();
    c.checks[1].known_miss = "the model's longest waits are too short";
    // Waits of 0.4 s against >= 0.5 s: the wait check fails; the other two pass (as in ChecksOnWorkedFigures).
    auto rows = evaluate({c}, {{"skew", {{"config", pair_result(600, 3e7, 20, 4e8)}}}}, false);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[1].outcome, R::fail);
    EXPECT_EQ(rows[1].known_miss, "the model's longest waits are too short");
    EXPECT_EQ(rows[1].verdict(), "KNOWN MISS");
    EXPECT_FALSE(rows[1].counts_as_failure());
    EXPECT_EQ(rows[0].verdict(), "PASS");
    EXPECT_TRUE(rows[0].known_miss.empty());
    // Waits of 0.6 s pass: the mark can go.
    rows = evaluate({c}, {{"skew", {{"config", pair_result(600, 3e7, 20, 6e8)}}}}, false);
    EXPECT_EQ(rows[1].verdict(), "PASS (known_miss no longer)");
    EXPECT_FALSE(rows[1].counts_as_failure());
    // Unmarked, the 0.4 s waits fail and count.
    rows = evaluate({pair_case()}, {{"skew", {{"config", pair_result(600, 3e7, 20, 4e8)}}}}, false);
    EXPECT_EQ(rows[1].verdict(), "FAIL");
    EXPECT_TRUE(rows[1].counts_as_failure());
    // Judged as a band the mark carries over (every member's row has it).
    std::vector<std::vector<check_row>> members;
    for (double w : {3e8, 4e8, 4.5e8})
        members.push_back(evaluate({c}, {{"skew", {{"config", pair_result(600, 3e7, 20, w)}}}}, false));
    const auto band = evaluate_bands({c}, members);
    EXPECT_EQ(band[1].outcome, R::fail);
    EXPECT_EQ(band[1].verdict(), "KNOWN MISS");
    // From a cases file; an empty reason is refused.
    const auto loaded = load_cases(write_cases(
        "cases:\n  - {id: a, config: x.yaml, quick: 1ms, little: l.0, big: b.0,\n"
        "     checks: [{kind: little_share, min: 0.4, known_miss: \"too even\"}]}\n"));
    EXPECT_EQ(loaded.at(0).checks.at(0).known_miss, "too even");
    EXPECT_NE(error_of("cases:\n  - {id: a, config: x.yaml, quick: 1ms, little: l.0, big: b.0, checks: [{kind: little_share, "
                       "min: 0.4, known_miss: \"\"}]}\n")
                  .find("cases.0.checks.0.known_miss: is empty"),
              std::string::npos);
}

TEST(Validate, ChecksOnWorkedFigures) {
    const std::vector<calibration_case> cases = {pair_case()};
    using R = check_row::result;
    // 600 vs 3e7 in 20 s: log10 = -4.699, within 1 of -4.5; big 1.5e6/s = 1.5 x 1e6 (the edge: passes);
    // little waited 0.6 s >= 0.5 s.
    auto rows = evaluate(cases, {{"skew", {{"config", pair_result(600, 3e7, 20, 6e8)}}}}, false);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(outcome(rows, 0), R::pass);
    EXPECT_EQ(outcome(rows, 1), R::pass);
    EXPECT_EQ(outcome(rows, 2), R::pass);
    EXPECT_NEAR(rows[0].value, std::log10(600 / 3e7), 1e-12);  // the figures as numbers too
    EXPECT_NEAR(rows[0].reference, -4.5, 1e-12);
    EXPECT_DOUBLE_EQ(rows[1].value, 6e8);
    EXPECT_DOUBLE_EQ(rows[1].reference, 3e9);  // the median of the measured longest waits (1 s and 3 s: the upper)
    EXPECT_DOUBLE_EQ(rows[2].value, 1.5e6);
    EXPECT_DOUBLE_EQ(rows[2].reference, 1e6);
    // 20 vs 3.2e7: log10 = -6.2 (1.7 away); the big runs 1.6x too fast; waits 0.4 s.
    rows = evaluate(cases, {{"skew", {{"config", pair_result(20, 3.2e7, 20, 4e8)}}}}, false);
    EXPECT_EQ(outcome(rows, 0), R::fail);
    EXPECT_EQ(outcome(rows, 1), R::fail);
    EXPECT_EQ(outcome(rows, 2), R::fail);
    // A run shorter than the measured 20 s cannot judge a longest wait: skipped, the rest judged.
    rows = evaluate(cases, {{"skew", {{"config", pair_result(30, 1.5e6, 1, 6e8)}}}}, false);
    EXPECT_EQ(outcome(rows, 0), R::pass);
    EXPECT_EQ(outcome(rows, 1), R::skipped);
    EXPECT_EQ(rows[1].note, "needs runs as long as the measured 20 s");
    EXPECT_EQ(outcome(rows, 2), R::pass);
    // A little core that never got in: -inf, a failure that says why.
    rows = evaluate(cases, {{"skew", {{"config", pair_result(0, 2e7, 20, 1e9)}}}}, false);
    EXPECT_EQ(outcome(rows, 0), R::fail);
    EXPECT_EQ(rows[0].note, "the little core never took the lock");
    // Quick: direction only (both below -1), the wait is skipped.
    rows = evaluate(cases, {{"skew", {{"config", pair_result(0, 1e6, 0.01, 1e7)}}}}, true);
    EXPECT_EQ(outcome(rows, 0), R::pass);
    EXPECT_EQ(outcome(rows, 1), R::skipped);
    rows = evaluate(cases, {{"skew", {{"config", pair_result(5e5, 1e6, 0.01, 1e7)}}}}, true);
    EXPECT_EQ(outcome(rows, 0), R::fail);  // -0.3: not disadvantaged
    // No result at all: every row fails.
    rows = evaluate(cases, json::object(), false);
    for (const auto& r : rows) EXPECT_EQ(r.outcome, R::fail);
}

TEST(Validate, ShareLiftAndLockrefChecks) {
    using R = check_row::result;
    calibration_case eq = pair_case();
    eq.id = "eq";
    calibration_check lift;
    lift.kind = "lifts_little";
    lift.than = "skew";
    eq.checks = {range_check("little_share", 0.4, 0.6), lift};
    calibration_case lr;
    lr.id = "lr";
    lr.config = "a.yaml";
    lr.better = "b.yaml";
    calibration_check gain;
    gain.kind = "throughput_gain";
    gain.has_min = true;
    gain.min = 1.5;
    lr.checks = {range_check("cas_per_success", 12, 50), gain};
    const std::vector<calibration_case> cases = {pair_case(), eq, lr};
    // Lockref: 2 cores, attempts 250 + 250 over successes 10 + 10 = 25 per success;
    // 20 successes + 0 fallbacks in 1 ms = 2e4/s; the spinlock: 30 + 30 acquisitions in 1 ms = 6e4/s: gain 3.
    const json lockref = {{"simulated_ns", 1e6},
                          {"cores",
                           {{{"id", "s0.0"}, {"program", {{"cas_attempts", 250}, {"cas_successes", 10}, {"fallbacks", 0}}}},
                            {{"id", "s0.1"}, {"program", {{"cas_attempts", 250}, {"cas_successes", 10}, {"fallbacks", 0}}}}}}};
    const json spin = {{"simulated_ns", 1e6},
                       {"cores", {{{"id", "s0.0"}, {"lock", {{"acquisitions", 30}}}}, {{"id", "s0.1"}, {"lock", {{"acquisitions", 30}}}}}}};
    const json results = {{"skew", {{"config", pair_result(10, 1e6, 1, 1)}}},
                          {"eq", {{"config", pair_result(45, 55, 1e-4, 1)}}},  // share 0.45; 4.5e5/s > 10/s
                          {"lr", {{"config", lockref}, {"better", spin}}}};
    auto rows = evaluate(cases, results, false);
    ASSERT_EQ(rows.size(), 7u);
    EXPECT_EQ(rows[3].outcome, R::pass);  // share
    EXPECT_EQ(rows[4].outcome, R::pass);  // lifts
    EXPECT_EQ(rows[5].outcome, R::pass);  // 25 per success
    EXPECT_EQ(rows[5].simulated, "25");
    EXPECT_EQ(rows[6].outcome, R::pass);  // gain 3
    EXPECT_EQ(rows[6].simulated, "3");
    // A 70/30 split and a 1.2x gain fail.
    json worse = results;
    worse["eq"]["config"] = pair_result(70, 30, 1, 1);
    worse["lr"]["better"]["cores"][0]["lock"]["acquisitions"] = 2;
    worse["lr"]["better"]["cores"][1]["lock"]["acquisitions"] = 22;
    rows = evaluate(cases, worse, false);
    EXPECT_EQ(rows[3].outcome, R::fail);
    EXPECT_EQ(rows[6].outcome, R::fail);
}

TEST(Validate, CaseFileErrorsNameTheLineAndKey) {
    auto has = [](const std::string& err, const std::string& part) {
        EXPECT_NE(err.find(part), std::string::npos) << err << "\nexpected: " << part;
    };
    has(error_of("cases:\n  - {id: a, config: x.yaml, quick: 1ms, checks: [], extra: 1}\n"),
        ":2:53: cases.0.extra: unknown key");
    has(error_of("cases:\n  - {id: a, config: x.yaml, checks: []}\n"), "cases.0.quick: missing");
    has(error_of("cases:\n  - {id: a, config: x.yaml, quick: soon, checks: []}\n"), "cases.0.quick:");
    has(error_of("cases:\n  - {id: a, config: x.yaml, quick: 1ms, checks: [{kind: big_rate, factor: 2}]}\n"),
        "needs the case's little and big cores");
    has(error_of("cases:\n  - {id: a, config: x.yaml, quick: 1ms, little: l.0, big: b.0, runs: [[1, 2]], checks: []}\n"),
        "cases.0.runs.0: is not a list of three numbers");
    has(error_of("cases:\n  - {id: a, config: x.yaml, quick: 1ms, little: l.0, big: b.0, checks: [{kind: lifts_little, than: z}]}\n"),
        "lifts_little names an unknown case 'z'");
    has(error_of("cases:\n  - {id: a, config: x.yaml, quick: 1ms, checks: []}\n  - {id: a, config: y.yaml, quick: 1ms, checks: []}\n"),
        "'a' is used twice");
    has(error_of("cases: [\n"), "malformed YAML");
}

// --bands: the members' 5-95% band (quantiles of type 7, worked out by hand
// here) against the measured figure and the band's usefulness.
TEST(Validate, BandsJudgeTheMeasuredFigureAgainstAUsefulBand) {
    using R = check_row::result;
    const std::vector<calibration_case> cases = {pair_case()};
    // 20 members of 20 s; member k's log10(little/big) = base + step * k, the big
    // core's rate 1e6/s * big_scale(k), the little core's longest wait wait(k).
    auto members = [&](double base, double step, auto big_scale, auto wait) {
        std::vector<std::vector<check_row>> m;
        for (int k = 0; k < 20; ++k) {
            const double big = 2e7 * big_scale(k), little = big * std::pow(10.0, base + step * k);
            m.push_back(evaluate(cases, {{"skew", {{"config", pair_result(little, big, 20, wait(k))}}}}, false));
        }
        return m;
    };
    auto one = [](int) { return 1.0; };
    auto long_wait = [](int) { return 6e8; };
    // Ratios -5.5 .. -3.6: band -5.405 .. -3.695 (1.71 decades) holds -4.5; the big rate is 1e6 in every member.
    auto rows = evaluate_bands(cases, members(-5.5, 0.1, one, long_wait));
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].outcome, R::pass) << rows[0].simulated;
    EXPECT_NEAR(rows[0].value, -5.5 + 0.1 * 9.5, 1e-9);  // the median
    EXPECT_EQ(rows[0].simulated, "-4.55 (-5.41 .. -3.7)");  // -5.405 and -3.695 to 3 digits
    EXPECT_EQ(rows[1].outcome, R::pass);  // every wait 0.6 s >= 0.5 s
    EXPECT_EQ(rows[2].outcome, R::pass);
    // Ratios -6 .. -5.05: band -5.9525 .. -5.0975 misses -4.5.
    rows = evaluate_bands(cases, members(-6, 0.05, one, long_wait));
    EXPECT_EQ(rows[0].outcome, R::fail);
    EXPECT_EQ(rows[0].note, "the measured figure is outside the band");
    // Ratios -6 .. -3.15: band -5.8575 .. -3.2925 holds -4.5 but spans 2.565 decades: not useful.
    rows = evaluate_bands(cases, members(-6, 0.15, one, long_wait));
    EXPECT_EQ(rows[0].outcome, R::fail);
    EXPECT_EQ(rows[0].note, "the band is wider than 2 decades");
    // Two members whose little core never got in: the band reaches -inf.
    auto m = members(-5.5, 0.1, one, long_wait);
    for (int k : {3, 7}) m[k] = evaluate(cases, {{"skew", {{"config", pair_result(0, 2e7, 20, 6e8)}}}}, false);
    rows = evaluate_bands(cases, m);
    EXPECT_EQ(rows[0].outcome, R::fail);
    EXPECT_EQ(rows[0].simulated.find("(-inf .. "), rows[0].simulated.find('(')) << rows[0].simulated;
    // Big rates 1.0e6 .. 1.95e6: band 1.0475e6 .. 1.9025e6 around the median 1.475e6 (within x/1.5) misses 1e6.
    rows = evaluate_bands(cases, members(-5.5, 0.1, [](int k) { return 1 + 0.05 * k; }, long_wait));
    EXPECT_EQ(rows[2].outcome, R::fail);
    EXPECT_EQ(rows[2].note, "the measured figure is outside the band");
    // Big rates 0.5e6 .. 2.4e6 hold 1e6 but the band (0.595e6 .. 2.305e6) is wider than x/1.5 of 1.45e6.
    rows = evaluate_bands(cases, members(-5.5, 0.1, [](int k) { return 0.5 + 0.1 * k; }, long_wait));
    EXPECT_EQ(rows[2].outcome, R::fail);
    EXPECT_EQ(rows[2].note, "the band is wider than x/ 1.5");
    // A tolerance must hold the whole band: one short wait in 20 stays outside the 5% (q05 = 5.9e8) ...
    rows = evaluate_bands(cases, members(-5.5, 0.1, one, [](int k) { return k == 0 ? 4e8 : 6e8; }));
    EXPECT_EQ(rows[1].outcome, R::pass);
    // ... two do not (q05 = 4e8 < 0.5 s).
    rows = evaluate_bands(cases, members(-5.5, 0.1, one, [](int k) { return k < 2 ? 4e8 : 6e8; }));
    EXPECT_EQ(rows[1].outcome, R::fail);
    // Members shorter than the measurement skip the wait check.
    std::vector<std::vector<check_row>> shortm;
    for (int k = 0; k < 4; ++k) shortm.push_back(evaluate(cases, {{"skew", {{"config", pair_result(30, 1e6, 1, 6e8)}}}}, false));
    rows = evaluate_bands(cases, shortm);
    EXPECT_EQ(rows[1].outcome, R::skipped);
    EXPECT_EQ(rows[1].note, "needs runs as long as the measured 20 s");
    // A member without a result fails the rows it has no figure for.
    shortm[2] = evaluate(cases, json::object(), false);
    rows = evaluate_bands(cases, shortm);
    EXPECT_EQ(rows[0].outcome, R::fail);
    EXPECT_EQ(rows[0].note, "1 of 4 members have no result");
}

TEST(Validate, CalibratedBlockIsAppendedThenReplacedNeverDuplicated) {
    const std::string block1 =
        "# ---- calibrated ranges: written by `cohsim calibrate` (re-run it rather than edit) ----\n"
        "calibrated:\n  a.b: 1 ~ 0..2\n# ---- end of calibrated ranges ----\n";
    const std::string block2 =
        "# ---- calibrated ranges: written by `cohsim calibrate` (re-run it rather than edit) ----\n"
        "calibrated:\n  a.b: 2 ~ 1..2\n# ---- end of calibrated ranges ----\n";
    const std::string plat = "clusters: {}\n# tail comment\n";
    const std::string once = replace_calibrated_block(plat, block1);
    EXPECT_EQ(once, plat + "\n" + block1);
    const std::string twice = replace_calibrated_block(once, block2);
    EXPECT_EQ(twice, plat + "\n" + block2);
    EXPECT_EQ(replace_calibrated_block("x: 1", block1), "x: 1\n\n" + block1);  // no final newline
    EXPECT_THROW(replace_calibrated_block("calibrated:\n  a.b: 1 ~ 0..2\n", block1), std::runtime_error);
}

// The chance that k unconstrained draws span no more than a fraction w of the
// prior, against a Monte Carlo oracle (k uniform points, their extent) and the
// hand-computed cases: 7 draws within half the width, 7*(1/2)^6 - 6*(1/2)^7 = 1/16.
TEST(Validate, NarrowingByChanceIsTheExtentOfUnconstrainedDraws) {
    EXPECT_NEAR(narrowing_by_chance(7, 0.5), 1.0 / 16, 1e-12);
    EXPECT_NEAR(narrowing_by_chance(2, 0.3), 2 * 0.3 - 0.09, 1e-12);  // two points: 2w - w^2
    EXPECT_EQ(narrowing_by_chance(7, 1.0), 1.0);
    EXPECT_EQ(narrowing_by_chance(7, 0.0), 0.0);
    EXPECT_EQ(narrowing_by_chance(1, 0.0), 1.0);  // one draw spans nothing, whatever the cases say
    EXPECT_EQ(narrowing_by_chance(0, 0.5), 1.0);
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (const auto& [k, w] : std::vector<std::pair<std::size_t, double>>{{7, 0.5}, {7, 0.75}, {20, 0.8}, {3, 0.2}}) {
        const int trials = 200000;
        int within = 0;
        for (int t = 0; t < trials; ++t) {
            double lo = 1, hi = 0;
            for (std::size_t i = 0; i < k; ++i) {
                const double x = u(rng);
                lo = std::min(lo, x), hi = std::max(hi, x);
            }
            within += hi - lo <= w;
        }
        const double p = narrowing_by_chance(k, w), sd = std::sqrt(p * (1 - p) / trials);
        EXPECT_NEAR(static_cast<double>(within) / trials, p, 5 * sd + 1e-4) << k << " draws, width " << w;
    }
}

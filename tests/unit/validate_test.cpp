// `cohsim validate`: the cases file and each check, on hand-made results
// whose figures are worked out here.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "sim/config_tree.h"
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
    EXPECT_DOUBLE_EQ(cases[1].checks[1].max, 2e9);  // 2s in ns
}

TEST(Validate, ChecksOnWorkedFigures) {
    const std::vector<calibration_case> cases = {pair_case()};
    using R = check_row::result;
    // 30 vs 1.5e6 in 1 s: log10 = -4.699, within 1 of -4.5; big 1.5e6/s = 1.5 x 1e6 (the edge: passes);
    // little waited 0.6 s >= 0.5 s.
    auto rows = evaluate(cases, {{"skew", {{"config", pair_result(30, 1.5e6, 1, 6e8)}}}}, false);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(outcome(rows, 0), R::pass);
    EXPECT_EQ(outcome(rows, 1), R::pass);
    EXPECT_EQ(outcome(rows, 2), R::pass);
    // 1 vs 1.6e6: log10 = -6.2 (1.7 away); the big runs 1.6x too fast; waits 0.4 s.
    rows = evaluate(cases, {{"skew", {{"config", pair_result(1, 1.6e6, 1, 4e8)}}}}, false);
    EXPECT_EQ(outcome(rows, 0), R::fail);
    EXPECT_EQ(outcome(rows, 1), R::fail);
    EXPECT_EQ(outcome(rows, 2), R::fail);
    // A little core that never got in: -inf, a failure that says why.
    rows = evaluate(cases, {{"skew", {{"config", pair_result(0, 1e6, 1, 1e9)}}}}, false);
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

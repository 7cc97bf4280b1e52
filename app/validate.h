// `cohsim validate`: runs the calibration cases of configs/calibration/
// (cases.yaml) and prints the published measurements against the simulated
// figures, with a pass/fail per check.
//
// Each config runs as its own `cohsim run` process (SystemC elaborates once
// per process), several at a time. Full mode runs each config for its own
// run.duration (20 s for the big.LITTLE cases); --quick runs each for the
// case's `quick` time and keeps only the direction of each comparison.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cohsim {

// One check of a case and its outcome.
struct check_row {
    std::string case_id, check, measured, simulated, tolerance;
    enum class result { pass, fail, skipped } outcome = result::skipped;
    std::string note;  // why it failed or was skipped
    // The simulated and the measured figure as numbers (NaN: none), in the
    // check's own terms: log10 ratio, ns, share, per second, ratio; for
    // lifts_little the difference of the two little rates.
    double value = NAN, reference = NAN;
    std::size_t check_index = 0;  // which check of its case
    std::string known_miss;       // its check's known_miss: why the model misses it today
    // A failure that counts: not one the check marks known_miss.
    bool counts_as_failure() const { return outcome == result::fail && known_miss.empty(); }
    // PASS, FAIL, skip; KNOWN MISS for a marked check that fails, and
    // "PASS (known_miss no longer)" for one that passes (the mark can go).
    std::string verdict() const;
};

// The measured figures of a two-core case: one entry per published run.
struct pair_run {
    double little = 0, big = 0, little_max_wait_us = 0;
};

// A case as cases.yaml describes it.
struct calibration_check {
    std::string kind;
    double within = 0, factor = 0;
    bool has_min = false, has_max = false;
    double min = 0, max = 0;  // plain numbers, or ns for little_max_wait
    std::string than;          // lifts_little
    std::string known_miss;    // a check the model misses today, and why: reported, not counted
};
struct calibration_case {
    std::string id, config, better, little, big;
    std::string quick;  // simulated time for --quick
    std::vector<pair_run> runs;
    std::vector<calibration_check> checks;
};

// Reads cases.yaml; errors are cfg::config_error naming FILE:LINE:COL and the key.
std::vector<calibration_case> load_cases(const std::string& file);

// Evaluates every check against the result JSONs: results[case id] holds
// "config" (and "better") result JSON. Missing results give failed rows. A
// longest-wait check is skipped for a run shorter than the measured 20 s.
std::vector<check_row> evaluate(const std::vector<calibration_case>& cases, const nlohmann::ordered_json& results, bool quick);

// Judges each check on an ensemble: members[i] is evaluate()'s rows for
// member i (every member the same checks in the same order). A check against
// a measured figure (log10 ratio, big core's rate) passes when the figure lies
// inside the members' 5-95% band and the band is useful (at most 2 decades
// wide for log10 ratios, a factor 1.5 either side of its median for rates); a
// check against a tolerance (share, longest wait, CAS per success, throughput
// gain, lifts) passes when the band lies inside the tolerance. The rows' value
// is the median, the band in `simulated`.
std::vector<check_row> evaluate_bands(const std::vector<calibration_case>& cases,
                                      const std::vector<std::vector<check_row>>& members);

// The cases of `cases` whose ids `ids` lists (comma-separated), with the
// case each lifts_little check compares against; a usage_error naming an
// unknown id and the known ones.
std::vector<calibration_case> select_cases(const std::vector<calibration_case>& cases, const std::string& ids,
                                          const std::string& cases_file);

// Runs every case once (its configs found beside `cases_file`; quick: for the
// case's `quick` time), `jobs` at a time, each run under OUT_DIR/CASE/;
// prints the checks as a table and writes OUT_DIR/validate.json. 1 when a
// check failed.
int validate_runs(const std::vector<calibration_case>& cases, const std::string& cases_file, bool quick, unsigned jobs,
                  const std::string& out_dir);

// The same with every case an ensemble of `n` members (each member one
// hypothetical chip across all cases; `max_duration` caps a member's run),
// judged by evaluate_bands.
int validate_bands(const std::vector<calibration_case>& cases, const std::string& cases_file, std::size_t n, unsigned jobs,
                   const std::string& max_duration, const std::string& out_dir);

}  // namespace cohsim

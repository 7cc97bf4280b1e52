// `cohsim validate`: runs the calibration cases of configs/calibration/
// (cases.yaml) and prints the published measurements against the simulated
// figures, with a pass/fail per check.
//
// Each config runs as its own `cohsim run` process (SystemC elaborates once
// per process), several at a time. Full mode runs each config for its own
// run.duration (20 s for the big.LITTLE cases); --quick runs each for the
// case's `quick` time and keeps only the direction of each comparison.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cohsim {

// One check of a case and its outcome.
struct check_row {
    std::string case_id, check, measured, simulated, tolerance;
    enum class result { pass, fail, skipped } outcome = result::skipped;
    std::string note;  // why it failed or was skipped
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
// "config" (and "better") result JSON. Missing results give failed rows.
std::vector<check_row> evaluate(const std::vector<calibration_case>& cases, const nlohmann::ordered_json& results, bool quick);

int cmd_validate(const std::vector<std::string>& args);

}  // namespace cohsim

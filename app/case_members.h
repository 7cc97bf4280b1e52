// Calibration cases as ensembles, the engine under `cohsim validate --bands`
// (is each measured figure inside the band the platform's ranges predict,
// and is the band narrow enough to be useful?) and `cohsim calibrate
// PLATFORM` (which draws reproduce every measured figure?).
//
// Member i of every case runs seed run.seed + i and the i-th point of one
// Latin hypercube over the union of the cases' uncertain values (matched by
// path), so one member is one hypothetical chip, the same across its cases.
// Each case config runs as a sweep (parallel, resumable) under DIR/CASE/STEM.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "app/validate.h"
#include "sim/schema.h"

namespace cohsim {

struct case_members {
    std::vector<cfg::uncertain_param> params;       // the union by path, in first-met order
    std::vector<std::string> param_files;           // the file each value's range is written in
    std::vector<std::vector<std::uint64_t>> draws;  // [run][param], base units (a case without the param: unused)
    std::vector<std::vector<check_row>> rows;       // [run]: evaluate() on that run's results
    std::vector<std::size_t> cases_run;             // [run]: how many of the cases (in file order) it ran
    double host_seconds = 0;
};

// Runs n members of every case's configs (found in cases_dir). `max_duration`
// (a time, or empty) caps each config's run.duration; `calibrated` selects the
// platforms' calibrated ranges (true) or their prior ones. Progress on stderr.
// Each draw runs `replicates` times (run k: draw k / replicates, seed run.seed + k).
// `screen`, when given, is called once the draws are known and before any
// case runs, with one entry of `draws` per draw (its first run's values); the
// draws it returns false for do not run (rows as of no result). With
// `reject_early`, a draw that fails a check of a case in any of its runs
// runs none of the later cases (rejection: it cannot be kept).
case_members run_case_members(const std::vector<calibration_case>& cases, const std::filesystem::path& cases_dir,
                              std::size_t n, std::size_t replicates, unsigned jobs, const std::string& max_duration,
                              const std::filesystem::path& out, bool calibrated, std::uint64_t seed,
                              const std::function<std::vector<bool>(const case_members&)>& screen = {},
                              bool reject_early = false);

}  // namespace cohsim

// `cohsim predict`: a prediction as a band with its probability, not one
// number. Runs an ensemble of members of one config, each with its own seed
// and its own draw of every uncertain parameter (values written
// `NOMINAL ~ LO..HI`, drawn by Latin hypercube), through the sweep machinery
// (parallel, resumable, Slurm-ready), and reports per contending core the
// median and the 5-95% band of acquisitions per second, share and longest
// wait, each verdict with how many members gave it, and the parameters the
// least successful core's rate depends on most (Spearman's rank correlation).
//
// Layout of the output directory: a sweep directory (sweep.json, results.csv,
// points/) plus prediction.json, the report.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/results.h"
#include "app/sweep.h"
#include "sim/schema.h"

namespace cohsim {

// The report of a finished (or partly finished) ensemble directory.
json prediction_report(const std::string& dir);

// When a report cannot say what it seems to (its "caveats"): too few
// members for a 5-95% band; every member on one side of a verdict's cliff
// that the margin search finds inside the ranges.
json prediction_caveats(const json& report);

// The report as a text table (what `cohsim predict` prints).
std::string prediction_text(const json& report);

// Writes DIR/prediction.json and DIR/members.csv (a member per row: its
// seed, its draws, each core's rate) from the members on disk; the report.
json write_prediction(const std::string& dir);

// Where along `axis` (an uncertain value; its range is the search's extent)
// the verdict of core `focus` flips, from single runs of `def` at the base
// `seed` with every other value nominal: 8 even steps from the nominal value
// toward each end, then bisection. Runs under DIR/margin/, writes
// DIR/margin.json and returns it.
json margin_search(const sweep_def& def, const cfg::uncertain_param& axis, const std::string& focus, std::uint64_t seed,
                   const std::filesystem::path& dir, unsigned jobs);

}  // namespace cohsim

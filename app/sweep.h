// `cohsim sweep`: runs one config over a grid (or a zip) of values of any
// config paths, each point as its own `cohsim run` process, several at once;
// resumable (finished points are kept and skipped), with an aggregated
// results.csv and a sweep.json manifest.
//
// Layout of the output directory:
//   sweep.json            what was swept (config, overrides, axes) and each point's state
//   results.csv           point, the axes' values, then each core's cores.csv row; with
//                         --members N, each core's median and 5-95% band over the
//                         point's members and each verdict's probability
//   members.csv           with --members: every run, its point, member, seed and draws,
//                         then each core's cores.csv row
//   points/NNNN/          a finished point: result.json, cores.csv, config.yaml, run.log
//   points/NNNN.error     a failed point: its exit status and the end of its log
//   points/NNNN.tmp/      a point being run (removed when a sweep starts)
// A point directory appears only by rename, complete, so a killed sweep never
// leaves a partial point behind.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cohsim {

// One swept config path and its values, as config text ("1.2GHz", "yield").
struct sweep_axis {
    std::string path;
    std::vector<std::string> values;
};

// "PATH=SPEC": SPEC is a list (`yield,wfe_backoff`), a range with units
// (`300MHz:2GHz:100MHz`, ends included when the steps land on them) or a
// multiplicative range (`1us:1ms:x10`). Throws usage_error naming what is
// wrong and showing a good spec.
sweep_axis parse_vary(const std::string& arg);

// The points: every combination, the first axis outermost (grid), or the
// i-th value of every axis together (zip: all axes the same length).
std::vector<std::vector<std::string>> sweep_points(const std::vector<sweep_axis>& axes, bool zip);

// What a sweep runs: a config, overrides for every point, the axes.
struct sweep_def {
    std::string config;             // "" = the built-in default
    std::vector<std::string> sets;  // --set overrides, in order
    std::vector<sweep_axis> axes;
    bool zip = false;
    // An ensemble at every point (`--members N`): zip axes of N values each
    // (run.seed, then the drawn uncertain values; ensemble.h member_axes);
    // empty: one run per point.
    std::vector<sweep_axis> members;
    std::size_t member_count() const { return members.empty() ? 0 : members[0].values.size(); }
    // Every run's values: its point's (one per axis), then its member's (one
    // per member axis). Run k is point k / N's member k % N (N members), or
    // point k.
    std::vector<std::vector<std::string>> runs() const;

    nlohmann::ordered_json to_json() const;
    static sweep_def from_json(const nlohmann::ordered_json& j);
    // `cohsim run` arguments of one run (runs()' values), writing into `out`.
    std::vector<std::string> run_args(const std::vector<std::string>& run, const std::string& out) const;

    // to_json's config_digest, computed once per definition (it loads the
    // config and reads the program files); `digest_of` is the rest of the
    // json it was computed for, so a copy that changes an axis computes anew.
    mutable nlohmann::ordered_json digest_of;
    mutable std::string digest;
};

// Loads every point's config (no simulation): a usage_error naming the first
// point that is not a valid config, its values and the config error.
void check_points(const sweep_def& def);

// Runs the points of `def` not yet done in `dir` (creating it), `jobs` at a
// time, with progress on stderr; refuses a directory holding another sweep
// and, before running anything, a point whose config is not valid.
// Returns 0 when every point is done, 1 when some failed. `out_dir` is how
// messages name the directory. `only`, when given, names the points to run
// (ascending); the others are neither run nor counted.
int run_sweep(const sweep_def& def, const std::filesystem::path& dir, unsigned jobs, const std::string& out_dir,
              const std::vector<std::size_t>* only = nullptr);

// Writes DIR/results.csv and DIR/sweep.json from the points on disk; returns
// how many failed.
int merge_sweep(const std::filesystem::path& dir, const sweep_def& def);

// Runs point k of `def` into `dir` alone (a job array's task); 0 when it is done.
int run_one_point(const sweep_def& def, const std::filesystem::path& dir, std::size_t k);

// Writes DIR/NAME.sbatch: a Slurm job array of `tasks` tasks, each running
// this binary with `command` (quoted for the shell) and --point TASK_ID.
// Returns its path.
std::string write_array_script(const std::filesystem::path& dir, const std::string& name, std::size_t tasks,
                               const std::vector<std::string>& command);

// A usage_error when `dir` already holds a sweep other than `def` with a
// finished point (resuming the same one is fine; one with no finished point
// is cleared for reuse).
void check_same_sweep(const sweep_def& def, const std::filesystem::path& dir, const std::string& out_dir);

// "[3/40] 0 failed, elapsed 1m02s, ETA 12m24s": how far a batch of runs
// started at t0 has come.
std::string progress_text(std::size_t finished, std::size_t total, std::size_t failed,
                          std::chrono::steady_clock::time_point t0);
// The fields of one line of a CSV file as cohsim writes them (a field with a
// comma or quote in double quotes, a quote doubled).
std::vector<std::string> csv_split(const std::string& line);
// "0007": the directory name of point k under DIR/points/.
std::string point_name(std::size_t k);


}  // namespace cohsim

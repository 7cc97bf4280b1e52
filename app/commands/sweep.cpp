// `cohsim sweep`: its options, help and checks; the engine (points, runs,
// results.csv) is app/sweep.
#include <boost/program_options.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "app/commands/common.h"
#include "app/data.h"
#include "app/ensemble.h"
#include "app/platform.h"
#include "app/results.h"
#include "app/spawn.h"
#include "app/sweep.h"
#include "sim/files.h"

namespace cohsim {

namespace fs = std::filesystem;

namespace {

const char* const sweep_help = R"(usage: cohsim sweep [CONFIG] --vary PATH=SPEC [--vary ...] [OPTIONS]
       cohsim sweep --merge DIR

Runs CONFIG (the built-in default scenario without one) once per point of a
grid of config values, each point as its own `cohsim run`, several at once,
and aggregates the points' per-core results into DIR/results.csv (one row
per core per point, the swept values first) with a manifest DIR/sweep.json.

SPEC is a list (yield,wfe_backoff), a range with units START:STOP:STEP
(300MHz:2GHz:100MHz; the end is included when a step lands on it) or a
multiplicative range START:STOP:xFACTOR (1us:1ms:x10). Several --vary make a
grid (every combination, the first --vary outermost); --zip pairs their
values instead. Any config path can vary, lists included
(workload.threads.1.cpu_relax).

A single run per point answers with whatever phase that point happens to
lock into. With --members N every point is an ensemble, as `cohsim predict`
makes one: N runs, member i with seed run.seed + i and the i-th draw of each
uncertain value (NOMINAL ~ LO..HI) the sweep does not set, the same draws at
every point (so that points differ by the swept values alone). results.csv
then holds per point and core the members' median of each figure (under the
column's own name), its 5-95% band (NAME_p5, NAME_p95), the rate
(acq_per_s), the most frequent verdict and each verdict's probability
(p_STARVED, ...); members.csv holds every run. `cohsim plot DIR` draws each
curve with its band.

Nothing is lost: running the same command again skips the finished points;
a kill at any moment loses no finished point and leaves no partial file; a
failing point is recorded (points/NNNN.error) and the sweep goes on. Exit
status: 0 all points done, 1 some failed (the count is printed), 2 bad input.

)";

const char* const sweep_examples = R"(
examples:
  cohsim sweep --vary clusters.little.freq=600MHz:1.8GHz:200MHz --vary clusters.big.freq=1.2GHz:2.4GHz:400MHz --out s1
  cohsim sweep --vary workload.threads.1.cpu_relax=yield,wfe_backoff --vary run.seed=1,2,3 -j 2 --out s2
  cohsim sweep --vary clusters.little.freq=832MHz,1248MHz --vary clusters.big.freq=1.8GHz,1.248GHz --zip --out s3
  cohsim sweep --vary run.seed=1:100:1 --out s4 --emit slurm    # then: sbatch s4/sweep.sbatch; cohsim sweep --merge s4
  cohsim sweep --vary clusters.little.freq=832MHz:1.8GHz:96MHz --members 16 --out s5   # a band per point
)";


}  // namespace

int cmd_sweep(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    std::vector<std::string> sets, varies, positional, include_paths;
    std::string out_dir, merge, emit, members_text;
    std::string jobs_text = std::to_string(host_cores());
    long point = -1;
    po::options_description d("options");
    d.add_options()  //
        ("vary", po::value(&varies)->composing()->value_name("PATH=SPEC"),
         "a config path and its values; repeatable (a grid, or --zip).\n  --vary clusters.little.freq=300MHz:2GHz:100MHz")  //
        ("zip", "pair the --vary values (the i-th of each together) instead of every combination")  //
        ("include-path", po::value(&include_paths)->composing()->value_name("DIR"), include_path_help)  //
        ("set", po::value(&sets)->composing()->value_name("PATH=VALUE"),
         "override one config value for every point, as in `cohsim run`; repeatable")  //
        ("members,n", po::value(&members_text)->value_name("N"),
         "an ensemble of N runs at every point (seeds and draws of the uncertain values, as cohsim predict): "
         "results.csv holds medians, 5-95% bands and verdict probabilities (2 to 10000)");
    add_jobs_option(d, jobs_text, "runs at once (default: the number of cores)");
    add_out_option(d, out_dir, "cohsim-sweep", "the sweep directory (results.csv, sweep.json, points/)");
    d.add_options()  //
        ("point", po::value(&point)->value_name("K"), "run only point K (0-based; for job arrays) and exit")  //
        ("emit", po::value(&emit)->value_name("slurm"),
         "write DIR/sweep.sbatch (a Slurm job array, one task per point) and sweep.json instead of running")  //
        ("merge", po::value(&merge)->value_name("DIR"), "aggregate the finished points of DIR (results.csv, sweep.json)");
    add_help_option(d);
    const parsed_args p = parse_args(args, d);
    const po::variables_map& vm = p.vm;
    positional = p.positional;
    if (printed_help(vm, d, sweep_help, sweep_examples)) return 0;
    if (!merge.empty()) {
        const fs::path dir(merge);
        if (!fs::exists(dir / "sweep.json"))
            throw usage_error("--merge " + merge + ": no sweep.json there (expected the --out directory of a sweep)");
        const sweep_def def = sweep_def::from_json(json::parse(read_file((dir / "sweep.json").string())));
        const int failed = merge_sweep(dir, def);
        const json m = json::parse(read_file((dir / "sweep.json").string()));
        std::cout << "merged " << m["summary"]["done"] << " of " << m["summary"]["points"] << " points into "
                  << (dir / "results.csv").string() << " (" << failed << " failed, " << m["summary"]["not_run"] << " not run)\n";
        return failed || m["summary"]["not_run"].get<int>() ? 1 : 0;
    }
    add_include_paths(include_paths);
    if (positional.size() > 1) throw usage_error("sweep takes at most one CONFIG, got " + std::to_string(positional.size()));
    if (varies.empty()) throw usage_error("sweep needs at least one --vary PATH=SPEC (see cohsim sweep --help)");
    const auto jobs = parse_jobs(jobs_text);
    if (!emit.empty() && emit != "slurm") throw usage_error("--emit " + emit + ": unknown (expected --emit slurm)");
    sweep_def def;
    if (!positional.empty()) {
        if (positional[0] == "-")
            throw usage_error("a sweep reads its config from a file, not standard input (its points run as separate processes)");
        def.config = fs::absolute(find_config(positional[0])).string();
    }
    if (!def.config.empty() && !fs::exists(def.config)) throw usage_error(positional[0] + ": no such config file");
    def.sets = sets;
    def.zip = vm.count("zip") > 0;
    for (const auto& v : varies) def.axes.push_back(parse_vary(v));
    if (!members_text.empty()) {
        const auto n = static_cast<std::size_t>(parse_count(members_text, "--members", 2, 10000));
        std::vector<std::string> swept;
        for (const auto& a : def.axes) swept.push_back(a.path);
        if (std::find(swept.begin(), swept.end(), "run.seed") != swept.end())
            throw usage_error("--members gives each member its own seed (run.seed + i): drop --vary run.seed, or --members");
        const platform_config cfg = load_platform(def.config, numbered(def.sets));
        def.members = member_axes(cfg, n, swept);
        if (def.members.size() == 1)
            std::cerr << "cohsim sweep: the config has no uncertain values (NOMINAL ~ LO..HI) the sweep does not set, so the "
                         "members differ by their seed only\n";
    }
    const auto pts = def.runs();

    const fs::path dir = fs::absolute(out_dir);
    if (point < 0) check_points(def);  // a sweep with an invalid point makes no folder
    fs::create_directories(dir / "points");
    check_same_sweep(def, dir, out_dir);
    if (point >= 0) return run_one_point(def, dir, static_cast<std::size_t>(point));
    if (!emit.empty()) {
        merge_sweep(dir, def);  // sweep.json, so the tasks and --merge know the sweep
        std::vector<std::string> cmd = {"sweep"};
        if (!def.config.empty()) cmd.push_back(def.config);
        for (const auto& s : def.sets) cmd.insert(cmd.end(), {"--set", s});
        for (const auto& v : varies) cmd.insert(cmd.end(), {"--vary", v});
        if (def.zip) cmd.push_back("--zip");
        if (!members_text.empty()) cmd.insert(cmd.end(), {"--members", members_text});
        cmd.insert(cmd.end(), {"--out", dir.string()});
        const std::string script = write_array_script(dir, "sweep", pts.size(), cmd);
        std::cout << "wrote " << script << " (" << pts.size() << " tasks); submit it with sbatch, then: cohsim sweep --merge "
                  << out_dir << "\n";
        return 0;
    }

    return run_sweep(def, dir, jobs, out_dir);
}


}  // namespace cohsim

// `cohsim predict`: its options, help and checks; the engine (the report,
// the margin search) is app/predict, the members run as app/sweep runs points.
#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "app/commands/common.h"
#include "app/data.h"
#include "app/ensemble.h"
#include "app/platform.h"
#include "app/predict.h"
#include "app/spawn.h"
#include "app/sweep.h"
#include "sim/files.h"

namespace cohsim {

namespace fs = std::filesystem;

namespace {

const char* const predict_help = R"(usage: cohsim predict [CONFIG] [-n N] [-j J] [--out DIR] [--set PATH=VALUE]...
       cohsim predict --report DIR

Predicts CONFIG (the built-in default scenario without one) as an ensemble:
N runs ("members"), each with its own seed (run.seed + i) and its own draw of
every uncertain parameter, then reports per contending core
  - acquisitions per second, share and longest wait: the median and the
    5-95% band (90% of the members fell inside it);
  - each verdict with how many members gave it ("STARVED 27/32": the
    outcome's probability under the stated uncertainty, not a certainty);
  - what the least successful core's rate depends on most: Spearman's rank
    correlation between each drawn parameter and that rate over the members
    (+1: more of the parameter, always more acquisitions; -1: always fewer;
    near 0: no monotone effect within its range).

An uncertain parameter is a config value written NOMINAL ~ LO..HI, e.g.
  request_latency: 26cycles ~ 20cycles..34cycles
`cohsim run` uses NOMINAL; a member draws from LO..HI, every whole cycle
(1 kHz, 1 ps) equally likely, by Latin hypercube: with N members each
parameter's range is cut into N equal strata and every stratum is drawn
once. Give a range on the command line too:
  --set 'clusters.big.freq=1.8GHz ~ 1.75GHz..1.85GHz'
`cohsim params --ranges CONFIG` lists a config's ranges.

The members run as a sweep (`cohsim sweep`): in parallel, resumable (the
same command again runs only what is missing), each point in DIR/points/.
With --margin PATH it also finds where along PATH the least successful
core's verdict flips (its margin): single runs at the nominal values and the
base seed, 8 even steps from the nominal value toward each end of PATH's
range, then bisection between the last step that kept the verdict and the
first that did not. A non-monotone outcome can hide a flip between steps;
`cohsim sweep` along PATH shows the whole curve.

DIR/prediction.json holds the report, DIR/members.csv one row per member
(its seed, its draws, each core's rate) for plotting. Exit status: 0 every
member done, 1 some failed, 2 bad input.

)";

const char* const predict_examples = R"(
examples:
  cohsim predict -n 32 -j 2 --out pred                      # the default scenario
  cohsim predict configs/calibration/asr_freq_skew_no_backoff.yaml --duration 100ms --out p1
  cohsim predict --set 'interconnect.snoop_latency=27cycles ~ 20cycles..34cycles' --out p2
  cohsim predict --margin clusters.big.freq --set 'clusters.big.freq=1.8GHz ~ 1.5GHz..2.1GHz' --out p3
  cohsim predict --report pred                              # the report again, from disk
)";

}  // namespace

int cmd_predict(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    std::vector<std::string> sets, include_paths;
    std::string out_dir, report, dur, margin, emit;
    long point = -1;
    std::string jobs_text = std::to_string(host_cores()), n_text = "32";
    po::options_description d("options");
    d.add_options()  //
        ("members,n", po::value(&n_text)->value_name("N"), "members of the ensemble (default 32; 3 to 10000)");
    add_jobs_option(d, jobs_text, "members run at once (default: the number of cores)");
    add_out_option(d, out_dir, "cohsim-predict",
                   "the ensemble directory (prediction.json, members.csv, the sweep's points/)");
    d.add_options()  //
        ("duration", po::value(&dur)->value_name("TIME"), "each member's simulated time, overriding run.duration")  //
        ("include-path", po::value(&include_paths)->composing()->value_name("DIR"), include_path_help)  //
        ("set", po::value(&sets)->composing()->value_name("PATH=VALUE"),
         "override one config value for every member; NOMINAL ~ LO..HI makes it uncertain. Repeatable.")  //
        ("margin", po::value(&margin)->value_name("PATH"),
         "also find where along PATH (an uncertain value: its range is the search's extent) the least successful "
         "core's verdict flips: from the nominal run, 8 steps toward each end of the range, then bisection")  //
        ("report", po::value(&report)->value_name("DIR"),
         "write DIR/prediction.json and members.csv from the members on disk and print the report (no run; after "
         "a Slurm array, or to look again)")  //
        ("point", po::value(&point)->value_name("K"), "run only member K (0-based; for job arrays) and exit")  //
        ("emit", po::value(&emit)->value_name("slurm"),
         "write DIR/predict.sbatch (a Slurm job array, one task per member) instead of running; then --report DIR");
    add_help_option(d);
    const parsed_args p = parse_args(args, d);
    if (printed_help(p.vm, d, predict_help, predict_examples)) return 0;
    add_include_paths(include_paths);
    if (!report.empty()) {
        const json rep = write_prediction(report);
        std::cout << prediction_text(rep);
        return rep["members"]["done"] == rep["members"]["requested"] ? 0 : 1;
    }
    if (p.positional.size() > 1) throw usage_error("predict takes at most one CONFIG, got " + std::to_string(p.positional.size()));
    const auto n = static_cast<std::size_t>(parse_count(n_text, "--members", 3, 10000));
    const auto jobs = parse_jobs(jobs_text);
    sweep_def def;
    if (!p.positional.empty()) {
        if (p.positional[0] == "-")
            throw usage_error("predict reads its config from a file, not standard input (its members run as separate processes)");
        def.config = fs::absolute(find_config(p.positional[0])).string();
        if (!fs::exists(def.config)) throw usage_error(p.positional[0] + ": no such config file");
    }
    def.sets = sets;
    if (!dur.empty()) def.sets.push_back("run.duration=" + dur);
    // The config as the members see it, for its seed and its ranges (bad input stops here).
    const platform_config cfg = load_platform(def.config, numbered(def.sets));
    if (cfg.workload.threads.empty() && !cfg.workload.trace)
        throw usage_error("the config runs no workload: there is nothing to predict (give workload.threads)");

    // The draws: member i runs seed run.seed + i and the i-th point of a Latin hypercube.
    const auto& unc = cfg.uncertain;
    json ens;
    ens["config"] = def.config.empty() ? default_config_name : def.config;
    ens["members"] = n;
    json params, draws;
    def.axes = member_axes(cfg, n, {}, &params, &draws);
    ens["uncertain"] = params;
    ens["draws"] = draws;
    def.zip = true;

    const fs::path dir = fs::absolute(out_dir);
    fs::create_directories(dir / "points");
    check_same_sweep(def, dir, out_dir);
    write_file_atomic((dir / "ensemble.json").string(), ens.dump(2) + "\n");
    if (unc.empty())
        std::cerr << "cohsim predict: the config has no uncertain values (NOMINAL ~ LO..HI), so the members differ by "
                     "their seed only\n";
    const cfg::uncertain_param* axis = nullptr;
    if (!margin.empty()) {
        for (const auto& up : unc)
            if (up.path == margin) axis = &up;
        if (!axis)
            throw usage_error("--margin " + margin + ": not an uncertain value of this config (give it a range: --set '" + margin +
                              "=NOMINAL ~ LO..HI'; `cohsim params --ranges` lists the config's)");
    }
    if (point >= 0) return run_one_point(def, dir, static_cast<std::size_t>(point));
    if (!emit.empty()) {
        if (emit != "slurm") throw usage_error("--emit " + emit + ": unknown (expected --emit slurm)");
        merge_sweep(dir, def);  // sweep.json, so the tasks and --report know the ensemble
        std::vector<std::string> cmd = {"predict"};
        if (!def.config.empty()) cmd.push_back(def.config);
        cmd.insert(cmd.end(), {"-n", std::to_string(n)});
        for (const auto& s2 : def.sets) cmd.insert(cmd.end(), {"--set", s2});
        cmd.insert(cmd.end(), {"--out", dir.string()});
        const std::string script = write_array_script(dir, "predict", n, cmd);
        std::cout << "wrote " << script << " (" << n << " tasks); submit it with sbatch, then: cohsim predict --report " << out_dir
                  << "\n";
        return 0;
    }
    const int status = run_sweep(def, dir, jobs, out_dir);

    json rep = prediction_report(dir.string());
    if (axis && rep.contains("focus_core"))
        margin_search(def, *axis, rep["focus_core"].get<std::string>(), cfg.run.seed, dir, jobs);
    rep = write_prediction(dir.string());
    std::cout << prediction_text(rep) << "\n" << (dir / "prediction.json").string() << ", " << (dir / "members.csv").string()
              << "\n";
    return status;
}


}  // namespace cohsim

// `cohsim calibrate`: its options, help and checks; the engine (draws,
// runs, the kept draws written back) is app/calibrate.
#include <boost/program_options.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/calibrate.h"
#include "app/commands/common.h"
#include "app/data.h"
#include "app/spawn.h"
#include "sim/files.h"
#include "sim/units.h"

namespace cohsim {

namespace fs = std::filesystem;

namespace {

const char* const calibrate_help = R"(usage: cohsim calibrate PLATFORM [OPTIONS]

Narrows the uncertain values (written NOMINAL ~ LO..HI) of the calibration
cases that use PLATFORM by what those cases measured, as approximate Bayesian
computation by rejection does: draws every uncertain value of the cases'
configs by Latin hypercube (from the files' prior ranges, never from an
earlier calibration), runs every case once per draw (one draw = one
hypothetical chip and measurement set-up, the same across the cases), and
keeps the draws whose runs pass every check of every case with the check's
own tolerance.

The platform's published figures (its rows in configs/references.yaml,
measured on the chip or its closest relative) are checked beside the cases,
per draw with the draw's values of the platform: the core-to-core rows by
`cohsim c2c PLATFORM --check` on the first two cores of each cluster, the
load-to-use rows by `cohsim latmem PLATFORM --check` on the first core of each
cluster they name, at their working sets. A draw is kept only when every row
not marked known_miss passes too (--no-references leaves them out). The cases
fix combinations of the values; the hand-off and load-to-use times fix the
hops the lock cases cannot see. These few-second checks run first, and only
the draws that pass them run the cases; the cases run in the file's order,
each only for the draws that passed every case before it. A draw that missed
a check cannot be kept, so the kept draws are those of running everything.

Each file holding drawn values (the platform; the cases' harness and
activity profile, which describe the measurement runs) gets a block written
back: `calibrated:` each value's range as the kept draws' extent, nominal the
kept draw nearest their medians; `calibrated_draws:` the kept draws
themselves under one id, draw i of every file together. `cohsim run` then
uses the calibrated nominal values; `predict` and `validate --bands` take
each member's values from the kept draws in turn; `cohsim params --ranges`
shows both ranges. The values written NOMINAL ~ LO..HI stay as the prior.

Each run lasts the config's run.duration, capped at --duration (checks of the
longest wait need runs as long as the measured 20 s and are skipped in
shorter ones). Resumable: the same command again reuses the finished runs
under --out. Exit status 0 when some draw was kept, 1 when none was (then
nothing is written: the ranges or the model cannot explain the cases).

)";

const char* const calibrate_examples = R"(
examples:
  cohsim calibrate configs/platforms/asr_4xa53_4xa73.yaml -n 48 -j 2 --also configs/default.yaml
  cohsim calibrate configs/platforms/asr_4xa53_4xa73.yaml -n 16 --duration 500ms --dry-run
)";

}  // namespace

int cmd_calibrate(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    calibration_request q;  // the options fill it
    std::string jobs_text = std::to_string(host_cores()), n_text = std::to_string(q.draws),
                reps_text = std::to_string(q.replicates);
    po::options_description d("options");
    d.add_options()  //
        ("draws,n", po::value(&n_text)->value_name("N"), "parameter draws to try (default 48; 4 to 10000)");
    add_jobs_option(d, jobs_text, "runs at once (default: the number of cores)");
    d.add_options()  //
        ("duration", po::value(&q.max_duration)->default_value("2s")->value_name("TIME"),
         "the longest a run lasts (a case shorter than TIME keeps its own run.duration)");
    add_out_option(d, q.out_dir, "cohsim-calibrate", "where the runs and calibration.json go");
    d.add_options()  //
        ("file", po::value(&q.cases_file)->value_name("FILE"),
         "the cases file; configs are found beside it (default: the shipped configs/calibration/cases.yaml)")  //
        ("replicates", po::value(&reps_text)->value_name("R"),
         "runs per draw, each its own seed (default 3; 1 to 100): a draw is kept when every run passes, as every "
         "published run of a case gave the same picture")  //
        ("seed", po::value(&q.seed)->value_name("S"), "seed of the Latin hypercube (default 1); run k's seed is its config's run.seed + k")  //
        ("also", po::value(&q.also)->composing()->value_name("FILE"),
         "also write the block into FILE, a self-contained config repeating the values (e.g. configs/default.yaml); repeatable")  //
        ("dry-run", "report the narrowed ranges without writing them into PLATFORM")  //
        ("no-references", "leave out the platform's published core-to-core and load-to-use figures "
                          "(configs/references.yaml), which are otherwise checked per draw beside the cases");
    add_help_option(d);
    const parsed_args p = parse_args(args, d);
    if (q.cases_file.empty() && !p.vm.count("help")) q.cases_file = data_file("configs/calibration/cases.yaml");
    if (printed_help(p.vm, d, calibrate_help, calibrate_examples)) return 0;
    if (p.positional.size() != 1)
        throw usage_error("calibrate takes one PLATFORM file, got " + std::to_string(p.positional.size()) +
                          " (e.g. cohsim calibrate configs/platforms/asr_4xa53_4xa73.yaml)");
    q.platform_arg = p.positional[0];
    q.platform = same_file(q.platform_arg);
    if (!fs::exists(q.platform)) throw usage_error(q.platform_arg + ": no such platform file");
    q.draws = static_cast<std::size_t>(parse_count(n_text, "--draws", 4, 10000));
    q.jobs = parse_jobs(jobs_text);
    q.replicates = static_cast<std::size_t>(parse_count(reps_text, "--replicates", 1, 100));
    check_duration_option(q.max_duration, "--duration");
    q.dry_run = p.vm.count("dry-run") > 0;
    q.references = !p.vm.count("no-references");
    return calibrate(q);
}

}  // namespace cohsim

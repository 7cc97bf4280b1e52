// `cohsim validate`: its options, help and checks; the engine (running the
// calibration cases and judging their checks) is app/validate.
#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "app/commands/common.h"
#include "app/data.h"
#include "app/spawn.h"
#include "app/validate.h"
#include "sim/units.h"

namespace cohsim {

namespace {

const char* const validate_help = R"(usage: cohsim validate [OPTIONS]

Runs the calibration cases of configs/calibration/cases.yaml (the published
2017 big.LITTLE lock measurements and the 2019 lockref measurement), each
config as its own `cohsim run`, several at once, then prints measured
against simulated with PASS/FAIL per check and writes validate.json and each
run's results under --out. A check cases.yaml marks known_miss (the model
misses it today, for the reason given there) shows KNOWN MISS and does not
count. Exit status 0 when every other check passes, 1 when one fails, 2 on
bad input.

Full runs last each config's run.duration (20 s of simulated time for the
big.LITTLE cases: several minutes of host time each). --quick runs each
config for its case's `quick` time and checks only the direction of each
comparison (who is disadvantaged, which variant is faster).

--bands runs each case as an ensemble of -n members (seed and draws of the
uncertain values, the platforms' calibrated ranges where they have them; one
member is one hypothetical chip across all cases) and judges bands: a
measured figure (log10 ratio, the big core's rate) must lie inside the
members' 5-95% band, and the band must be useful (at most 2 decades wide;
rates within x/ 1.5 of the median); a tolerance (share, longest wait, CAS per
success, throughput gain, lifts) must hold the whole band. --duration caps
each member's simulated time (longest-wait checks then need 20 s members and
are skipped).

)";

const char* const validate_examples = R"(
examples:
  cohsim validate --quick                  # seconds: directions only
  cohsim validate -j 2 --out runs/calib    # the full runs, two at a time
  cohsim validate --cases asr_equal_freq   # one case
  cohsim validate --bands -n 16 --duration 2s -j 2   # ensembles, bands
)";

}  // namespace

int cmd_validate(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    std::string out_dir, cases_file, only, dur, n_text = "16";
    std::string jobs_text = std::to_string(host_cores());
    po::options_description d("options");
    d.add_options()  //
        ("quick", "short runs (each case's `quick` time); checks directions only");
    add_jobs_option(d, jobs_text, "runs at once (default: the number of cores)");
    add_out_option(d, out_dir, "cohsim-validate", "where each run's result.json and validate.json go");
    d.add_options()  //
        ("cases", po::value(&only)->value_name("ID,..."), "run only these cases (ids from cases.yaml)")  //
        ("bands", "judge each check on an ensemble (-n members drawing the platforms' calibrated ranges) instead of one run")  //
        ("members,n", po::value(&n_text)->value_name("N"), "with --bands: members per case (default 16; 4 to 10000)")  //
        ("duration", po::value(&dur)->value_name("TIME"),
         "with --bands: the longest a member runs (a case shorter keeps its own run.duration; default: each config's own)")  //
        ("file", po::value(&cases_file)->value_name("FILE"),
         "the cases file; configs are found beside it (default: the shipped configs/calibration/cases.yaml)");
    add_help_option(d);
    const parsed_args p = parse_args(args, d);
    if (cases_file.empty() && !p.vm.count("help")) cases_file = data_file("configs/calibration/cases.yaml");
    const po::variables_map& vm = p.vm;
    if (!p.positional.empty())
        throw usage_error("validate takes no positional argument, got '" + p.positional[0] + "' (see cohsim validate --help)");
    if (printed_help(vm, d, validate_help, validate_examples)) return 0;
    const auto jobs = parse_jobs(jobs_text);
    const bool quick = vm.count("quick") > 0, bands = vm.count("bands") > 0;
    if (quick && bands) throw usage_error("--quick and --bands do not go together (--bands --duration 2s is a shorter ensemble)");
    if (!bands && (vm.count("members") || vm.count("duration")))
        throw usage_error(std::string(vm.count("members") ? "-n" : "--duration") + " needs --bands");
    const auto members = static_cast<std::size_t>(parse_count(n_text, "--members", 4, 10000));
    if (!dur.empty()) check_duration_option(dur, "--duration");
    std::vector<calibration_case> cases = load_cases(cases_file);
    if (!only.empty()) cases = select_cases(cases, only, cases_file);
    prepare_output_dir(out_dir, "--out");  // before any run, not after them all
    if (bands) return validate_bands(cases, cases_file, members, jobs, dur, out_dir);
    return validate_runs(cases, cases_file, quick, jobs, out_dir);
}

}  // namespace cohsim

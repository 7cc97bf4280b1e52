// `cohsim litmus`: its options, help and checks; the engine (batches,
// placements, the verdicts, the platforms' table) is app/litmus.
#include <unistd.h>

#include <boost/program_options.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "app/commands/common.h"
#include "app/litmus.h"
#include "app/spawn.h"

namespace cohsim {

namespace {

const char* const litmus_help = R"(usage: cohsim litmus FILE.litmus [OPTIONS]
       cohsim litmus [FILE.litmus...] --platforms LIST|all [OPTIONS]

Runs a litmus test (herd7's AArch64 format) many times on simulated cores
and prints the final states seen with their counts, and whether the test's
condition was observed, as the litmus7 hardware runner reports:

  Histogram (2 states)
  1000  :>0:X4=0; 1:X4=1; x=1;     a state and how many runs ended in it
  0     *>...                      (*> marks the states the condition holds in)
  Observation NAME Never 0 2000    Never, Sometimes or Always; positive, negative

The runs are BATCHES child processes of ITERATIONS each. Every batch places
the test's threads on its own cores of the platform (drawn from --seed, across
clusters, unless --cores fixes them), pre-warms random locations in each
thread's L1 (a Shared copy by a load, a Unique one by PRFM PSTL1KEEP) and has
its own run seed; in every iteration each thread waits a random 0..JITTER
cycles before its code. With the platform's physical noise, that varies
who wins each race. A comment (* expect: Never *) (or Sometimes, Always) in
the test states the verdict derived from the architecture; --check exits 1
when the runs contradict it; (* expect: Allowed *) says the architecture
permits the outcome, and the run reports whether this platform shows it.
The shipped tests, workloads/litmus/*.litmus (a name alone finds them from
anywhere), are the exclusive-monitor and LSE rules of the Arm ARM (B2.9,
C3.2.12) and the classic shapes (mp, sb, lb, 2+2w, r, s, wrc, iriw: each
Allowed plain, Never with barriers; mp-rel-acq).

The file may be as herd7 writes it: the initial state over several lines,
C declarations (int x=1; uint64_t y;), comments (* ... *) or // ...,
locations [...], and filter (...) before the condition: the runs the filter
does not hold for are left out of the histogram and counted.

With --platforms, every test given (none: every shipped test) runs on each
platform listed (comma-separated names or files; all: every shipped one),
and a table shows what each platform shows: the observation and how many
runs ended where the condition holds, n/a where the test cannot run there
(LSE instructions on cores without them, more threads than cores), and why
an outcome the architecture allows never appears (store buffers off). Exit 1
when a platform contradicts a test's verdict. --json writes every cell.

Registers X0-X19 are the test's; the harness uses X20 and up. Each location
has a cache line of its own. Each batch's config and program stay in --out
(a temporary folder unless given): `cohsim run OUT/batch-0/config.yaml
--trace t.json` shows that batch's timeline.

)";

const char* const litmus_examples = R"(
examples:
  cohsim litmus workloads/litmus/ldxr-stxr-increment.litmus
  cohsim litmus lse-cas.litmus                (a shipped test, from any directory)
  cohsim litmus my.litmus --platform dynamiq_4xa55_4xa75 --batches 20 --iterations 500
  cohsim litmus my.litmus --cores big.0,little.1 --jitter 0 --json my.json
  cohsim litmus workloads/litmus/lse-ldadd.litmus --check     (exit 1 if the verdict is contradicted)
  cohsim litmus mp-dmb.litmus --set clusters.big.timing.store_buffer=8 --set clusters.little.timing.store_buffer=8
  cohsim litmus --platforms all --batches 4 --iterations 50    (every shipped test on every shipped platform)
  cohsim litmus mp.litmus sb.litmus --platforms asr_4xa53_4xa73,rk3588_4xa55_4xa76 --json what_shows.json
)";

}  // namespace

int cmd_litmus(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    std::string platform, platforms, batches_text = "10", iterations_text = "100", seed_text = "1", jitter_text = "200", cores_text,
                json_file, out_dir, jobs_text, time_text = "1s", batch_dir;
    std::vector<std::string> sets;
    po::options_description d("options");
    d.add_options()  //
        ("platform", po::value(&platform)->value_name("CONFIG"),
         "the platform (its clusters, caches, timing, noise); default: the built-in default's")  //
        ("platforms", po::value(&platforms)->value_name("LIST"),
         "every test given (default: every shipped test) on each of these platforms (comma-separated, or all): a table "
         "of what each platform shows")  //
        ("batches", po::value(&batches_text)->value_name("N"), "child runs, each with its own placement, pre-warming and seed (default 10)")  //
        ("iterations", po::value(&iterations_text)->value_name("N"), "runs of the test in each batch (default 100)")  //
        ("seed", po::value(&seed_text)->value_name("N"), "draws the placements, pre-warming and run seeds (default 1)")  //
        ("jitter", po::value(&jitter_text)->value_name("CYCLES"), "each thread waits 0..CYCLES before its code (default 200)")  //
        ("cores", po::value(&cores_text)->value_name("LIST"), "fixed placement, one core per thread: big.0,little.1")  //
        ("json", po::value(&json_file)->value_name("FILE"), "also write the states and counts as JSON");
    add_out_option(d, out_dir, nullptr, "keep each batch's config, program and outcomes here");
    d.add_options();
    add_jobs_option(d, jobs_text, "batches at once (default: the number of cores)");
    d.add_options()  //
        ("time", po::value(&time_text)->value_name("DURATION"), "the most simulated time a batch may take (default 1s)")  //
        ("set", po::value(&sets)->composing()->value_name("PATH=VALUE"),
         "override one platform value (e.g. clusters.big.timing.store_buffer=8); repeatable")  //
        ("check", "exit 1 when the runs contradict the test's (* expect: ... *) verdict")  //
        ("batch", po::value(&batch_dir)->value_name("DIR"), "(internal) run one prepared batch");
    add_help_option(d);
    const parsed_args p = parse_args(args, d);
    if (printed_help(p.vm, d, litmus_help, litmus_examples)) return exit_ok;
    if (!batch_dir.empty()) return litmus_batch(batch_dir);
    litmus_options o;
    o.batches = parse_count(batches_text, "--batches", 1, 10'000);
    o.iterations = parse_count(iterations_text, "--iterations", 1, 10'000);
    o.seed = parse_count(seed_text, "--seed", 0, UINT64_MAX);
    o.jitter = parse_count(jitter_text, "--jitter", 0, 1'000'000);
    o.jobs = jobs_text.empty() ? host_cores() : parse_jobs(jobs_text);
    o.progress = isatty(STDERR_FILENO) != 0;
    if (!platforms.empty()) {
        if (!platform.empty()) throw usage_error("--platform and --platforms: give one (--platforms runs every test on each)");
        if (!cores_text.empty() || !out_dir.empty())
            throw usage_error("--platforms places the threads by --seed on each platform: no --cores or --out");
        return litmus_survey(p.positional, platforms, sets, time_text, o, json_file);
    }
    if (p.positional.size() != 1)
        throw usage_error(p.positional.empty() ? "litmus needs a test file (FILE.litmus)" : "litmus takes one test file, got " + std::to_string(p.positional.size()) + " (several: --platforms)");
    o.out_dir = out_dir;
    return litmus_one(p.positional[0], platform, sets, time_text, cores_text, o, json_file, p.vm.count("check") > 0);
}

}  // namespace cohsim

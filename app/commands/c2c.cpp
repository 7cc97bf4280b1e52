// `cohsim c2c`: its options, help and checks; the engine (the core-to-core matrix,
// its references and a board's file beside it) is app/microbench.
#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "app/commands/common.h"
#include "app/commands/measurement.h"
#include "app/microbench.h"

namespace cohsim {

namespace {

const char* const c2c_help = R"(usage: cohsim c2c PLATFORM [OPTIONS]

The core-to-core latency matrix of PLATFORM (a config file, or a shipped
platform's name: asr_4xa53_4xa73, dynamiq_4xa55_4xa75, ...), measured the
way the core-to-core-latency tool measures a real machine with its CAS test:
for each pair of cores, two threads hand one cache line back and forth, each
spinning on a compare-and-swap until the line holds its value, then writing
the other's. The one-way latency is the time per hand-off (half a round
trip). Cores with LSE (Armv8.1+) use CAS; Armv8.0 cores the LDXR/STXR loop a
compiler emits for compare_exchange_strong (a pair uses CAS only when both
cores have it). --instruction llsc uses the LDXR/STXR loop on every pair, as
a build without LSE does on any core (Rust and MSVC on Windows on Arm, GCC
with -march=armv8-a -mno-outline-atomics): one hand-off is then a read and an
upgrade where CAS takes the line once. The program is
workloads/programs/c2c_cas.s.

Each pair is one run of --duration, through the sweep machinery: -j at once,
resumable (the same command again runs only what is missing). The platform's
workload and activity are replaced (no interrupts); its timing noise stays.
Prints the matrix and the range per kind of pair (same cluster, same DSU,
across the interconnect, across sockets); writes DIR/c2c.json (`cohsim plot
DIR` draws the heatmap) and the sweep's points/.

)";

const char* const c2c_examples = R"(
examples:
  cohsim c2c dynamiq_4xa55_4xa75 --out c2c-845
  cohsim c2c asr_4xa53_4xa73 --cores little.0,little.1,big.0,big.1 -j 2
  cohsim c2c configs/platforms/thunderx2_2s.yaml --cores s0.0,s0.1,s1.0
  cohsim plot c2c-845                                # heatmap (PNG and SVG)

Compare with a real board: build https://github.com/nviennot/core-to-core-latency
(cargo install core-to-core-latency), run `core-to-core-latency 5000 --csv >
board.csv` on the idle board (or wtarreau's cas-bench, its text output), then
  cohsim c2c PLATFORM --measured board.csv
prints the model's matrix and the board's side by side with the differences
(both one-way nanoseconds; CPU k of the file is the k-th core of --cores or
of the platform, the order Linux numbers them on the shipped SoCs).
)";

}  // namespace

int cmd_c2c(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    measurement_options m;
    c2c_request q;  // the options fill it
    po::options_description d("options");
    d.add_options()  //
        ("cores", po::value(&q.cores)->value_name("LIST"),
         "only these cores: cluster names and core ids, comma-separated (default: every core)")  //
        ("duration", po::value(&q.duration)->value_name("TIME"), "each pair's simulated time (default 50us)")  //
        ("instruction", po::value(&q.instruction)->value_name("I"),
         "auto: CAS where both cores have LSE, else LDXR/STXR (default; with --check, what the references were "
         "measured with); cas: CAS on every pair (every core needs LSE); llsc: LDXR/STXR on every pair");
    m.add_outputs(d, "pairs run at once (default: the number of cores)", "cohsim-c2c",
                  "the output directory (c2c.json, the sweep's points/)", "print the matrix of DIR again (no run)");
    d.add_options()  //
        ("check", "compare with the platform's published figures (configs/references.yaml, tolerance beside each); "
                  "exit 1 when one is missed (a row marked known_miss is reported with its reason, not counted)")  //
        ("measured", po::value(&q.measured)->value_name("FILE"),
         "a real board's matrix, as core-to-core-latency --csv or cas-bench writes it: printed beside the model's "
         "with the differences (CPU k of the file is the k-th core of --cores, or of the platform)");
    m.add_platform(d, "override one platform value for every pair (what if the DSU ran faster?); repeatable");
    const parsed_args p = parse_args(args, d);
    if (m.printed(p, d, c2c_help, c2c_examples, [](const std::string& dir) { return c2c_text(c2c_report(dir)); })) return 0;
    q.def = m.platform(p, "c2c");
    q.jobs = m.jobs();
    q.out_dir = m.out_dir;
    q.check = p.vm.count("check") > 0;
    return measure_c2c(q);
}

}  // namespace cohsim

// `cohsim latmem`: its options, help and checks; the engine (the load-to-use curve,
// its references and a board's file beside it) is app/microbench.
#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "app/commands/common.h"
#include "app/commands/measurement.h"
#include "app/microbench.h"

namespace cohsim {

namespace {

const char* const latmem_help = R"(usage: cohsim latmem PLATFORM [OPTIONS]

Load-to-use latency against working-set size on one core of PLATFORM,
measured as lmbench's lat_mem_rd measures a board: a chain of pointers
through SIZE bytes, one per 64-byte line, the last pointing back to the
first, walked with dependent loads after one warming pass
(workloads/programs/latmem.s). The latency steps from the L1 to the L2, the
L3 and memory as the working set outgrows each. Each size is one run,
through the sweep machinery (-j at once, resumable); the other cores idle.
Prints size, ns and core cycles per load; writes DIR/latmem.json (`cohsim
plot DIR` draws the curve).

)";

const char* const latmem_examples = R"(
examples:
  cohsim latmem dynamiq_4xa55_4xa75 --core big.0 --out lat-a75
  cohsim latmem asr_4xa53_4xa73 --sizes 16KiB,256KiB,8MiB
  cohsim latmem dynamiq_4xa55_4xa75 --core little.0 --check   # against the published plateaus

On a board: lmbench's `lat_mem_rd -P 1 64M 64 2> board.txt` (size in MB,
stride in bytes) writes the same curve; taskset it to the core you compare.
Then `cohsim latmem PLATFORM --core ID --measured board.txt` runs the model
at the board's sizes and prints both with the differences.
)";

}  // namespace

int cmd_latmem(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    measurement_options m;
    latmem_request q;  // the options fill it
    std::string loads_text = std::to_string(q.loads);
    po::options_description d("options");
    d.add_options()  //
        ("core", po::value(&q.core)->value_name("ID"), "the core that walks the chain (default: the platform's first)")  //
        ("sizes", po::value(&q.sizes)->value_name("LIST"),
         "working sets, comma-separated sizes (default: 4KiB to 16MiB, two or three per doubling); at most 128MiB")  //
        ("loads", po::value(&loads_text)->value_name("N"), "loads timed per size (default 2048; a multiple of 16)")  //
        ("duration", po::value(&q.duration)->value_name("TIME"), "the most simulated time one size may take (default 1s)");
    m.add_outputs(d, "sizes run at once (default: the number of cores)", "cohsim-latmem",
                  "the output directory (latmem.json, the sweep's points/)", "print the curve of DIR again (no run)");
    d.add_options()  //
        ("measured", po::value(&q.measured)->value_name("FILE"),
         "a real board's curve, as lmbench's lat_mem_rd writes it ('SIZE_MB NS' lines): printed beside the model's with "
         "the differences; without --sizes the model runs at the board's sizes from 4KiB to 16MiB")  //
        ("check", "compare with the platform's published latencies for this core's cluster (configs/references.yaml); "
                  "exit 1 when one is missed (a row marked known_miss is reported with its reason, not counted)");
    m.add_platform(d, "override one platform value; repeatable");
    const parsed_args p = parse_args(args, d);
    if (m.printed(p, d, latmem_help, latmem_examples, [](const std::string& dir) { return latmem_text(latmem_report(dir)); }))
        return 0;
    q.def = m.platform(p, "latmem");
    q.jobs = m.jobs();
    q.out_dir = m.out_dir;
    q.loads = parse_count(loads_text, "--loads", 16, 1'000'000);
    if (q.loads % 16) throw usage_error("--loads " + loads_text + ": not a multiple of 16 (the chase is unrolled 16 times)");
    q.check = p.vm.count("check") > 0;
    return measure_latmem(q);
}

}  // namespace cohsim

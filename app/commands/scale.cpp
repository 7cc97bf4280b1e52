// `cohsim scale`: its options, help and checks; the engine (the points, their
// figures, scale.json) is app/scaling.
#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "app/commands/common.h"
#include "app/commands/measurement.h"
#include "app/scaling.h"

namespace cohsim {

namespace {

const char* const scale_help = R"(usage: cohsim scale PLATFORM [OPTIONS]

How a lock scales on PLATFORM (a config file, or a shipped platform's name:
graviton2, thunderx2_2s, ...): for each placement and each thread count N,
N threads run the lock program (--program, the arm64 queued spinlock by
default) on N cores for --duration, and the run's lock throughput (every
thread's acquisitions per simulated second; for a lock-free update loop
such as locks/lockref.s, its successful updates), Jain's fairness over the
threads (1: all took as many) and the model events per acquisition (the
simulation's own cost) are reported. With --members M each point is an
ensemble of M runs (each its seed and its draw of the platform's uncertain
values, as `cohsim sweep --members`): medians and 5-95% bands.

The program runs with its parameters' defaults (INSIDE and OUTSIDE 0: the
threads do nothing but take and release the lock); --set
workload.params.OUTSIDE=200 gives it work between critical sections. A
compiled C program (an ELF file, built by the cross-compiler into
build/c-workloads/) needs --function, the function every thread runs.

Placements: compact, the first N cores in the platform's order (filling a
crosspoint, a cluster, a socket before the next); spread, N cores evenly
over all of them (on a mesh: far apart); sockets, the sockets' cores in
turn. The points run through the sweep machinery (-j at once, resumable:
the same command again runs only what is missing). Writes DIR/scale.json
and DIR/scale.csv; `cohsim plot DIR` draws throughput against threads, one
line (and band) per placement.

)";

const char* const scale_examples = R"(
examples:
  cohsim scale graviton2 --threads 1,2,4,8,16,32,64 --placement compact,spread -j 2
  cohsim scale thunderx2_2s --placement compact,sockets --members 8 --out tx2
  cohsim scale graviton2 --program locks/ticket_lse.s --duration 2ms
  cohsim scale graviton2 --program build/c-workloads/pthread_spin-lse.elf --function thread \
      --set workload.params.OUTSIDE=200             # glibc's pthread_spin_lock, with work between
  cohsim plot cohsim-scale                  # throughput against threads (PNG and SVG)
)";

}  // namespace

int cmd_scale(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    measurement_options m;
    scale_request q;
    std::string members_text;
    po::options_description d("options");
    d.add_options()  //
        ("threads", po::value(&q.threads)->value_name("LIST"),
         "thread counts, comma-separated (default: 1, 2, 4, ... and every core)")  //
        ("placement", po::value(&q.placement)->value_name("LIST"),
         "compact, spread and/or sockets, comma-separated (default compact)")  //
        ("program", po::value(&q.program)->value_name("FILE"),
         "the lock program every thread runs (default locks/qspinlock.s; a file, or one of the library's)")  //
        ("function", po::value(&q.function)->value_name("NAME"),
         "for a compiled C program (ELF): the function every thread runs (e.g. thread)")  //
        ("duration", po::value(&q.duration)->value_name("TIME"), "each run's simulated time (default 1ms)")  //
        ("members", po::value(&members_text)->value_name("M"), "runs per point, for medians and 5-95% bands (default 1)");
    m.add_outputs(d, "runs at once (default: the number of cores)", "cohsim-scale",
                  "the output directory (scale.json, scale.csv, the sweep's points/)", "print the table of DIR again (no run)");
    m.add_platform(d, "override one platform value for every run (what if the mesh ran faster?); repeatable");
    const parsed_args p = parse_args(args, d);
    if (m.printed(p, d, scale_help, scale_examples, [](const std::string& dir) { return scale_text(scale_report(dir)); }))
        return 0;
    q.def = m.platform(p, "scale");
    q.jobs = m.jobs();
    q.out_dir = m.out_dir;
    if (!members_text.empty()) q.members = static_cast<std::size_t>(parse_count(members_text, "--members", 1, 10000));
    return measure_scaling(q);
}

}  // namespace cohsim

// `cohsim scale PLATFORM`: how a lock scales with the threads that contend
// for it. For each placement (compact: the first N cores in the platform's
// order, filling a crosspoint, cluster and socket before the next; spread:
// N cores evenly over all of them; sockets: the sockets in turn) and each
// thread count N, N threads run the lock program on their cores for
// --duration, through the sweep machinery (parallel, resumable), with
// --members runs per point (their seeds and drawn uncertain values, as
// `cohsim sweep --members`). Per point: the lock's throughput (its
// operations per simulated second, all threads together: acquisitions, or a
// lock-free loop's successful updates, results.h lock_operations), Jain's fairness over
// the threads, and the model events per acquisition, each a median with
// its 5-95% band over the members. Writes DIR/scale.json and DIR/scale.csv;
// `cohsim plot DIR` draws throughput against threads, a line (and band) per
// placement.
#pragma once

#include <string>

#include "app/results.h"
#include "app/sweep.h"

namespace cohsim {

struct scale_request {
    sweep_def def;                                 // the platform and its overrides
    std::string program = "locks/qspinlock.s";     // what every thread runs
    std::string function;                          // an ELF program's function every thread runs
    std::string threads;                           // "1,2,4": empty: 1, 2, 4, ... and every core
    std::string placement = "compact";             // comma-separated: compact, spread, sockets
    std::string duration = "1ms";                  // each run's simulated time
    std::size_t members = 1;                       // runs per point (1: no band)
    unsigned jobs = 1;
    std::string out_dir;
};

// Runs the points and prints the table; 1 when a point failed.
int measure_scaling(scale_request q);

// DIR/scale.json, and the report as text.
json scale_report(const std::string& dir);
std::string scale_text(const json& report);

// The cores `n` threads run on under `placement`, from `cores` (ids in the
// platform's order) and each core's socket: compact, spread or sockets.
std::vector<std::string> placed_cores(const std::vector<std::string>& cores, const std::vector<unsigned>& sockets,
                                      const std::string& placement, std::size_t n);

}  // namespace cohsim

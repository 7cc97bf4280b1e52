// The microbenchmarks users run on real boards, run on a platform.
//
// `cohsim c2c PLATFORM`: the core-to-core latency matrix, measured inside the
// simulator the way the core-to-core-latency tool measures a real machine:
// for each pair of cores, two threads hand one cache line back and forth with
// compare-and-swap (workloads/programs/c2c_cas.s: CAS on cores with LSE, an
// LDXR/STXR loop on Armv8.0), and the pair's one-way latency is the time per
// hand-off. Every pair is one run, through the sweep machinery (parallel,
// resumable). Prints the matrix and, per kind of pair (same cluster, same
// DSU, across the interconnect, across sockets), the range; writes
// DIR/c2c.json, which `cohsim plot DIR` draws as a heatmap.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/results.h"
#include "app/sweep.h"

namespace cohsim {

// The report of a finished c2c directory (c2c.json's content).
json c2c_report(const std::string& dir);

// The report as text: the matrix, then the ranges per kind of pair.
std::string c2c_text(const json& report);

// What `cohsim c2c` measures: the platform's sweep (config and overrides),
// every pair of `cores` (cluster names and core ids, comma-separated; empty:
// every core) for `duration` each with `instruction` (auto, cas or llsc;
// empty: auto, or what the references were measured with under `check`),
// `jobs` at once, into `out_dir`; `measured`, a board's matrix file to set
// beside the model's.
struct c2c_request {
    sweep_def def;
    std::string duration = "50us";
    std::string cores, instruction, measured, out_dir;
    bool check = false;  // against the platform's rows of configs/references.yaml
    unsigned jobs = 1;
};
// Runs the pairs, prints the matrix (and the checks, and the board) and
// writes DIR/c2c.json; 1 when a pair failed or a reference row was missed.
int measure_c2c(c2c_request request);

// `cohsim latmem PLATFORM`: load-to-use latency against working-set size on
// one core, as lmbench's lat_mem_rd measures it (workloads/programs/latmem.s:
// a dependent pointer chase, one line per pointer), one run per size through
// the sweep machinery; DIR/latmem.json, `--check` against references.yaml.
json latmem_report(const std::string& dir);
std::string latmem_text(const json& report);
// What `cohsim latmem` measures: the platform's sweep, `core` (empty: the
// platform's first) walking `loads` dependent loads through each working set
// of `sizes` (comma-separated; empty: 4KiB to 16MiB, or the board's sizes of
// `measured`), each run at most `duration`, `jobs` at once, into `out_dir`.
struct latmem_request {
    sweep_def def;
    std::string duration = "1s";
    std::string core, sizes, measured, out_dir;
    std::uint64_t loads = 2048;
    bool check = false;  // against the core's cluster's rows of configs/references.yaml
    unsigned jobs = 1;
};
// Runs the sizes, prints the curve and writes DIR/latmem.json; 1 when a size
// failed or did not finish, or a reference row was missed.
int measure_latmem(latmem_request request);

// The sweep of a microbenchmark over PLATFORM (the one positional argument: a
// config file or a shipped platform's name) with `sets`; with `check`, at the
// clocks the reference boards ran at. `cmd` names the command in messages.
sweep_def microbench_sweep(const std::vector<std::string>& positional, const std::string& cmd,
                           const std::vector<std::string>& sets, bool check);

// The platform as the sweep's points see it (bad input stops here), with a
// warning on stderr for each generic cache value.
struct platform_config;
platform_config load_sweep_config(const sweep_def& def);

}  // namespace cohsim

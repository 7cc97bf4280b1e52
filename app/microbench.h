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

#include <string>
#include <vector>

#include "app/results.h"

namespace cohsim {

// The report of a finished c2c directory (c2c.json's content).
json c2c_report(const std::string& dir);

// The report as text: the matrix, then the ranges per kind of pair.
std::string c2c_text(const json& report);

int cmd_c2c(const std::vector<std::string>& args);

// `cohsim latmem PLATFORM`: load-to-use latency against working-set size on
// one core, as lmbench's lat_mem_rd measures it (workloads/programs/latmem.s:
// a dependent pointer chase, one line per pointer), one run per size through
// the sweep machinery; DIR/latmem.json, `--check` against references.yaml.
json latmem_report(const std::string& dir);
std::string latmem_text(const json& report);
int cmd_latmem(const std::vector<std::string>& args);

}  // namespace cohsim

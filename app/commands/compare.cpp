// `cohsim compare`: see its help text below.
#include "app/commands/common.h"

#include <boost/program_options.hpp>

#include <iostream>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace cohsim {

// ---- compare --------------------------------------------------------------

const char* const compare_help = R"(usage: cohsim compare A B [--threshold PCT] [--html FILE] [--json FILE] [--fail-on-difference]

Two runs, sweeps or predictions side by side. A and B are --out directories
of `cohsim run` (or a run's result.json), `cohsim sweep` (with or without
--members) or `cohsim predict`; a run and a prediction compare with each
other (one point each), a sweep with a sweep over the same swept paths.

Per core that takes a lock (matched by core id; for sweeps, per point,
matched by the swept values): the rate (acquisitions per simulated second),
the share of all acquisitions, the longest wait and the verdict, each as
A -> B and the change (+x% within a factor of 2, else xN or /N). An
ensemble's figure is its median with the 5-95% band [p5..p95], its verdict
the most likely one with its probability.

A difference that matters is flagged with `!` (highlighted in the HTML):
  - a verdict that changed;
  - two numbers more than the threshold apart;
  - a band and a number, or two bands, that do not overlap, with medians more
    than the threshold apart (a difference inside the noise is not flagged).
Rows that only one side has (another platform's cores, points not run) are
listed after the table.

options:
  --threshold PCT       relative difference that matters, in percent (default 10)
  --html FILE           also write the comparison as a self-contained HTML page
                        (atomically)
  --json FILE           also write every compared row as JSON (each figure's A and
                        B as median, p5, p95; the verdicts; what differs)
  --fail-on-difference  exit 1 when anything is flagged or a row is on one side
                        only (a regression check in a script); else exit 0

examples:
  cohsim run --out a -q && cohsim run --set clusters.little.freq=1.2GHz --out b -q
  cohsim compare a b
  cohsim compare a p1                          # one run against a prediction's bands
  cohsim sweep --vary clusters.little.freq=800MHz:1.8GHz:200MHz --out s_old
  cohsim sweep --vary clusters.little.freq=800MHz:1.8GHz:200MHz --set interconnect.request_latency=40cycles --out s_new
  cohsim compare s_old s_new --html what_changed.html --fail-on-difference

The work is done by scripts/compare.py (Python's standard library alone).
)";

int cmd_compare(const std::vector<std::string>& args) {
    if (std::find(args.begin(), args.end(), "--help") != args.end() || std::find(args.begin(), args.end(), "-h") != args.end()) {
        std::cout << compare_help;
        return exit_ok;
    }
    return exec_script("compare.py", args);
}

}  // namespace cohsim

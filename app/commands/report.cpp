// `cohsim report`: see its help text below.
#include "app/commands/common.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace cohsim {

// ---- report ---------------------------------------------------------------

const char* const report_help = R"(usage: cohsim report RUN_DIR|SWEEP_DIR|PREDICT_DIR|C2C_DIR [--out FILE]

Writes one self-contained HTML page of a run (the --out directory of `cohsim
run`) or a sweep (of `cohsim sweep`) to attach to a bug report or a
mailing-list post: it needs no network and no other file to view. A run's page
holds the verdicts with their reasons, the per-core table, the busiest lines,
the region profile, the plots (inline SVG, as `cohsim plot` draws them), the
effective config and the provenance (version, commit, build type, command
line, host); a sweep's, its points' results, failed points with their
errors, the share plot over the first two swept paths and the provenance; a
prediction's (`cohsim predict`), each core's bands, the verdict counts with the
95% interval of their probability, the sensitivity and the margin, with its
plot; a c2c directory's, the latency by kind of pair, the matrix and the pairs.
Written atomically to FILE (default DIR/report.html). The work is done by
scripts/report.py with Debian's python3-matplotlib.

examples:
  cohsim run --out runs/a -q && cohsim report runs/a
  cohsim report s1 --out sweep-s1.html
  cohsim predict -n 16 --out p1 && cohsim report p1
)";

int cmd_report(const std::vector<std::string>& args) {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << report_help;
        return exit_ok;
    }
    if (args.empty()) throw usage_error("report needs a RUN_DIR or SWEEP_DIR (see cohsim report --help)");
    const std::filesystem::path dir(args[0]);
    if (!std::filesystem::exists(dir / "result.json") && !std::filesystem::exists(dir / "sweep.json") &&
        !std::filesystem::exists(dir / "prediction.json") && !std::filesystem::exists(dir / "c2c.json"))
        throw usage_error("report " + args[0] +
                          ": no result.json, sweep.json, prediction.json or c2c.json there (expected the --out directory "
                          "of cohsim run, sweep, predict or c2c)");
    return exec_script("report.py", args);
}

}  // namespace cohsim

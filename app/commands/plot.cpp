// `cohsim plot`: see its help text below.
#include "app/commands/common.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace cohsim {

// ---- plot -----------------------------------------------------------------

const char* const plot_help = R"(usage: cohsim plot RUN_DIR [--out DIR]
       cohsim plot SWEEP_DIR [--x PATH] [--y PATH] [--metric NAME] [--core ID] [--out DIR]

Draws the plots of a run's results (RUN_DIR/result.json, as written by
`cohsim run --out RUN_DIR`) as PNG and SVG, with Debian's python3-matplotlib:
  wait_histogram.png/.svg  each contending core's wait-time histogram
                           (log buckets of 2^(1/8), both axes logarithmic)
  share.png/.svg           each core's share of the acquisitions against the
                           fair share, coloured by verdict
For a prediction directory (`cohsim predict --out DIR`):
  prediction.png/.svg      each core's acquisitions per second in every member,
                           its median and 5-95% band; the rank correlation of the
                           least successful core's rate with each parameter
For a sweep directory (`cohsim sweep --out SWEEP_DIR`):
  sweep_METRIC.png/.svg    with --y, a heatmap of METRIC (a results.csv
                           column, default share) of one core over the x and y
                           values, its STARVED cells outlined, one panel per
                           value of any other swept path; without --y, lines
                           (sweep_METRIC_lines.png/.svg); --x may be left out
                           when the sweep varies one path
For a scaling directory (`cohsim scale --out DIR`):
  scale.png/.svg           the lock's throughput against threads, a line (and
                           5-95% band) per placement; the events per acquisition
The work is done by scripts/plot.py (python3 scripts/plot.py --help).

examples:
  cohsim run --out runs/a && cohsim plot runs/a
  cohsim plot runs/a --out figures
  cohsim plot s1 --x clusters.little.freq --y clusters.big.freq --metric share
)";


int cmd_plot(const std::vector<std::string>& args) {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << plot_help;
        return exit_ok;
    }
    if (args.empty()) throw usage_error("plot needs the RUN_DIR of a `cohsim run` (see cohsim plot --help)");
    // A prediction directory (prediction.json) gets its bands, a c2c directory
    // (c2c.json) its heatmap, a sweep directory (sweep.json) the sweep plots.
    const std::filesystem::path dir(args[0]);
    const bool predict = std::filesystem::exists(dir / "prediction.json");
    const bool c2c = std::filesystem::exists(dir / "c2c.json");
    const bool latmem = std::filesystem::exists(dir / "latmem.json");
    const bool scale = std::filesystem::exists(dir / "scale.json");  // (a scale directory holds its sweep.json too)
    const bool sweep = std::filesystem::exists(dir / "sweep.json");
    std::vector<std::string> script_args = {predict ? "predict" : c2c ? "c2c" : latmem ? "latmem" : scale ? "scale" : sweep ? "sweep" : "run"};
    script_args.insert(script_args.end(), args.begin(), args.end());
    return exec_script("plot.py", script_args);
}

}  // namespace cohsim

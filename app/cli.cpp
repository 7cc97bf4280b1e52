// The `cohsim` command line: the table of commands (each in app/commands/),
// `cohsim --help`, and what every command's errors become.
//
// Exit status: 0 success; 1 the simulation failed; 2 bad input (usage or
// config: the message names file, line, column and key); 130 interrupted
// (results up to the interrupt are written).
#include "app/cli.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <systemc>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "app/commands/common.h"
#include "app/data.h"
#include "app/results.h"
#include "app/spawn.h"
#include "sim/schema.h"

namespace cohsim {
namespace {

const char* const main_help_head = R"(cohsim: a cycle-approximate multicore cache-coherence simulator.

usage: cohsim COMMAND [ARGS] [OPTIONS]

commands:
)";

const char* const main_help_tail = R"(
examples:
  cohsim run                                      # the built-in default scenario
  cohsim run configs/default.yaml --duration 1s --json out.json
  cohsim run --set clusters.little.freq=1248MHz   # what if the little core ran faster?
  cohsim config configs/default.yaml --set run.seed=7
  cohsim params
  cohsim validate --quick                         # calibration, short runs
  cohsim run --out runs/a && cohsim plot runs/a   # plots of a run
  cohsim sweep --vary clusters.little.freq=600MHz:1.8GHz:200MHz --out s1
  cohsim predict -n 32 --out p1                   # bands and probabilities, not one number
  cohsim compare runs/a runs/b --html diff.html   # what changed between two runs
  cohsim c2c dynamiq_4xa55_4xa75 --check         # core-to-core latencies against the published ones

Every command takes --help. Exit status: 0 ok, 1 simulation failed,
2 bad input, 130 interrupted (partial results written).
)";

struct command {
    const char* name;
    const char* args;  // what follows the name in the help's list
    std::vector<const char*> summary;  // the help's lines
    int (*run)(const std::vector<std::string>&);
};

const std::vector<command>& commands() {
    static const std::vector<command> list = {
        {"run", "[CONFIG]",
         {"simulate a config (the built-in default scenario without one)",
          "and print per-core results; `cohsim run --help` for options"},
         cmd_run},
        {"config", "[CONFIG]",
         {"print the effective config: the file with every include,", "override and default resolved"},
         cmd_config},
        {"params", "", {"list every config parameter: path, type, unit, default,", "description"}, cmd_params},
        {"sweep", "[CONFIG]", {"run a grid of config values in parallel, resumable; results.csv"}, cmd_sweep},
        {"predict", "[CONFIG]",
         {"an ensemble over the config's uncertain values and seeds:",
          "each core's median and 5-95% band, verdicts with their",
          "probability, what the outcome depends on most"},
         cmd_predict},
        {"plot", "RUN_DIR", {"draw a run's wait histograms and shares (PNG and SVG)"}, cmd_plot},
        {"report", "DIR", {"one self-contained HTML page of a run or sweep, to share"}, cmd_report},
        {"compare", "A B",
         {"two runs, sweeps or predictions side by side: per core the",
          "rate, share, longest wait and verdict, what changed flagged"},
         cmd_compare},
        {"protocol", "",
         {"print the coherence protocol's tables as the simulator runs",
          "them (Markdown), optionally with a run's transition counts;",
          "--murphi: a model of it for the rumur model checker"},
         cmd_protocol},
        {"litmus", "FILE",
         {"run a herd7-format AArch64 litmus test many times under",
          "timing variation; the final states seen, with counts"},
         cmd_litmus},
        {"validate", "",
         {"run the calibration cases (configs/calibration/) and print",
          "measured against simulated, pass/fail per check; --bands",
          "judges each measured figure against an ensemble's band"},
         cmd_validate},
        {"calibrate", "PLATFORM",
         {"narrow a platform's uncertain values to the draws that",
          "reproduce every calibration case; writes them into PLATFORM"},
         cmd_calibrate},
        {"c2c", "PLATFORM",
         {"the core-to-core latency matrix (CAS ping-pong per pair of",
          "cores, as the core-to-core-latency tool measures a board)"},
         cmd_c2c},
        {"latmem", "PLATFORM",
         {"load-to-use latency against working-set size (a pointer", "chase, as lmbench's lat_mem_rd measures a board)"},
         cmd_latmem},
        {"scale", "PLATFORM",
         {"how a lock scales: its throughput, fairness and events per",
          "acquisition against the threads contending, per placement"},
         cmd_scale},
    };
    return list;
}

// `cohsim --help`: the commands listed from the table, each summary's lines
// aligned after the longest name that fits.
std::string main_help() {
    constexpr std::size_t column = 17;
    std::string list;
    for (const command& c : commands()) {
        std::string head = std::string(c.name) + (*c.args ? std::string(" ") + c.args : "");
        head += head.size() < column ? std::string(column - head.size(), ' ') : "  ";
        for (std::size_t i = 0; i < c.summary.size(); ++i)
            list += "  " + (i == 0 ? head : std::string(column, ' ')) + c.summary[i] + "\n";
    }
    return main_help_head + list + main_help_tail;
}

}  // namespace

int cli_main(int argc, const char* const* argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    set_command_line(argc, argv);
    cfg::set_include_finder(shipped_config);  // `include: rk3588_4xa55_4xa76` in a user's config
    // A run started by `cohsim sweep` or `cohsim validate` dies with it (a
    // killed sweep leaves no orphan writing into its directory).
    if (const char* parent = std::getenv("COHSIM_DIE_WITH_PARENT")) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (std::to_string(getppid()) != parent) return exit_failure;  // the parent is already gone
    }
    try {
        if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
            if (args.size() == 2 && args[0] == "help") return cli_main(3, std::vector<const char*>{argv[0], argv[2], "--help"}.data());
            std::cout << main_help();
            return args.empty() ? exit_bad_input : exit_ok;
        }
        if (args[0] == "--version") {
            std::cout << "cohsim " << version << " (commit " << commit << ", " << (*build_type ? build_type : "unspecified")
                      << " build)\n";
            return exit_ok;
        }
        const std::string cmd = args[0];
        args.erase(args.begin());
        std::string names;
        for (const command& c : commands()) {
            if (cmd == c.name) return c.run(args);
            names += (names.empty() ? "" : &c == &commands().back() ? " or " : ", ") + std::string(c.name);
        }
        throw usage_error("unknown command '" + cmd + "' (expected " + names + ")");
    } catch (const children_interrupted& e) {
        std::cerr << "cohsim: " << e.what() << "; what had finished is kept: the same command again goes on from there\n";
        return exit_interrupted;
    } catch (const usage_error& e) {
        std::cerr << "cohsim: " << e.what() << "\nTry 'cohsim --help' or 'cohsim COMMAND --help'.\n";
        return exit_bad_input;
    } catch (const cfg::config_error& e) {
        std::cerr << e.what() << "\n";
        return exit_bad_input;
    } catch (const sc_core::sc_report& r) {
        // The message alone: not SystemC's report id, file and process.
        std::string msg = r.get_msg();
        const std::string uncaught = "uncaught exception: ";
        if (msg.rfind(uncaught, 0) == 0) msg = msg.substr(uncaught.size());
        std::cerr << "cohsim: simulation error: " << msg << "\n";
        return exit_failure;
    } catch (const std::exception& e) {
        std::cerr << "cohsim: error: " << e.what() << "\n";
        return exit_failure;
    }
}

}  // namespace cohsim

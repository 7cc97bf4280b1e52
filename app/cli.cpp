// The `cohsim` command line: subcommands run, config, params, validate, plot.
//
// Exit status: 0 success; 1 the simulation failed; 2 bad input (usage or
// config: the message names file, line, column and key); 130 interrupted
// (results up to the interrupt are written).
#include "app/cli.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <boost/program_options.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "app/microbench.h"
#include "app/litmus.h"
#include "app/murphi.h"
#include "models/coherence_protocol.h"
#include "sim/files.h"
#include "sim/log.h"
#include "app/platform.h"
#include "app/results.h"
#include "sim/runner.h"
#include "app/system.h"
#include "app/text_table.h"
#include "app/sweep.h"
#include "app/predict.h"
#include "app/calibrate.h"
#include "app/data.h"
#include "app/spawn.h"
#include "app/explain.h"
#include "app/trace.h"
#include "app/validate.h"
#include "app/watchdog.h"

namespace po = boost::program_options;

namespace cohsim {
namespace {

constexpr int exit_ok = 0, exit_failure = 1, exit_bad_input = 2, exit_interrupted = 130;

std::atomic<bool> g_stop{false};
extern "C" void on_signal(int) {
    g_stop = true;
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C kills at once
    std::signal(SIGTERM, SIG_DFL);
}

const char* const main_help = R"(cohsim: a cycle-approximate multicore cache-coherence simulator.

usage: cohsim COMMAND [ARGS] [OPTIONS]

commands:
  run [CONFIG]     simulate a config (the built-in default scenario without one)
                   and print per-core results; `cohsim run --help` for options
  config [CONFIG]  print the effective config: the file with every include,
                   override and default resolved
  params           list every config parameter: path, type, unit, default,
                   description
  sweep [CONFIG]   run a grid of config values in parallel, resumable; results.csv
  predict [CONFIG] an ensemble over the config's uncertain values and seeds:
                   each core's median and 5-95% band, verdicts with their
                   probability, what the outcome depends on most
  plot RUN_DIR     draw a run's wait histograms and shares (PNG and SVG)
  report DIR       one self-contained HTML page of a run or sweep, to share
  compare A B      two runs, sweeps or predictions side by side: per core the
                   rate, share, longest wait and verdict, what changed flagged
  protocol         print the coherence protocol's tables as the simulator runs
                   them (Markdown), optionally with a run's transition counts;
                   --murphi: a model of it for the rumur model checker
  litmus FILE      run a herd7-format AArch64 litmus test many times under
                   timing variation; the final states seen, with counts
  validate         run the calibration cases (configs/calibration/) and print
                   measured against simulated, pass/fail per check; --bands
                   judges each measured figure against an ensemble's band
  calibrate PLATFORM  narrow a platform's uncertain values to the draws that
                   reproduce every calibration case; writes them into PLATFORM
  c2c PLATFORM     the core-to-core latency matrix (CAS ping-pong per pair of
                   cores, as the core-to-core-latency tool measures a board)
  latmem PLATFORM  load-to-use latency against working-set size (a pointer
                   chase, as lmbench's lat_mem_rd measures a board)

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

void add_common(po::options_description& d, std::vector<std::string>& sets, std::vector<std::string>& include_paths) {
    d.add_options()  //
        ("include-path", po::value(&include_paths)->composing()->value_name("DIR"), include_path_help)  //
        ("set", po::value(&sets)->composing()->value_name("PATH=VALUE"),
         "override one config value, same syntax as in the file; repeatable, applied in order.\n"
         "  --set clusters.little.freq=1248MHz --set run.seed=7")  //
        ("help,h", "show this help");
}

std::string config_arg(const parsed_args& p, const char* cmd) {
    if (p.positional.size() > 1)
        throw usage_error(std::string("'") + cmd + "' takes at most one CONFIG file, got " +
                          std::to_string(p.positional.size()) + " ('" + p.positional[1] + "' is extra)");
    return p.positional.empty() ? "" : find_config(p.positional.front());
}

// ---- run ------------------------------------------------------------------

const char* const run_help = R"(usage: cohsim run [CONFIG] [OPTIONS]

Simulates CONFIG (a YAML file; without one, the built-in default scenario:
4 x Cortex-A53 @ 832MHz + 4 x Cortex-A73 @ 1.8GHz) for run.duration of
simulated time, prints a table of per-core results, and writes the result
JSON, a per-core CSV and the effective config into the output directory.

)";

const char* const run_examples = R"(
examples:
  cohsim run
  cohsim run configs/default.yaml --duration 20s --seed 3 --out runs/a
  cohsim run --set clusters.big.freq=1248MHz --json equal.json -q

Ctrl-C stops the run at once and still writes the results so far
("completed": false in the JSON); exit status 130.
)";

}  // namespace

std::string progress_text(duration done, duration total, double host) {
    const double frac = total.fs ? static_cast<double>(done.fs) / static_cast<double>(total.fs) : 1.0;
    const double eta = frac > 0 ? host * (1 - frac) / frac : 0;
    char buf[160];
    std::snprintf(buf, sizeof buf, "[%3.0f%%] %s of %s simulated, %.1f s host, ETA %.1f s", 100 * frac,
                  time_text(done.ns()).c_str(), time_text(total.ns()).c_str(), host, eta);
    return buf;
}

namespace {

class progress_line {
public:
    progress_line(duration total, bool enabled) : m_total(total), m_enabled(enabled) {}
    void update(duration done, double host) {
        if (!m_enabled || host - m_last < 0.2) return;
        m_last = host;
        std::fprintf(stderr, "\r\033[K%s", progress_text(done, m_total, host).c_str());
        std::fflush(stderr);
        m_drawn = true;
        log::progress_drawn(true);
    }
    void finish() {
        if (m_drawn) std::fprintf(stderr, "\r\033[K");
        m_drawn = false;
        log::progress_drawn(false);
    }
    // A warning while the run goes on, on its own line above the progress.
    void note(const std::string& text) {
        if (m_drawn) std::fprintf(stderr, "\r\033[K");
        spdlog::warn("{}", text);
        m_last = -1;  // redraw the progress at the next update
    }

private:
    duration m_total;
    bool m_enabled;
    double m_last = -1;
    bool m_drawn = false;
};

// An address given on the command line (0x... or decimal), or a usage error naming the option.
std::uint64_t parse_address(const std::string& text, const std::string& option) {
    try {
        std::size_t used = 0;
        const std::uint64_t addr = std::stoull(text, &used, 0);
        if (used == text.size()) return addr;
    } catch (const std::exception&) {
    }
    throw usage_error(option + ": '" + text + "' is not an address (expected e.g. 0x10000040)");
}

// The program's shared data symbols, as "lock 0x10000040, nodes 0x10000080".
std::string shared_symbols(const system_model& sys) {
    std::string out;
    for (const auto& [name, addr] : shared_data(sys)) out += (out.empty() ? "" : ", ") + name + " " + hex(addr);
    return out;
}

// The line --explain follows: an address (0x...), or a shared data symbol of
// the program, optionally with an offset ("lock", "nodes+0x40"), as the
// tables name lines. An unknown symbol is a usage error listing the known ones.
std::uint64_t explain_target(const system_model& sys, const std::string& text) {
    const bool numeric = !text.empty() && std::isdigit(static_cast<unsigned char>(text[0]));
    if (numeric) return parse_address(text, "--explain") & ~std::uint64_t{63};
    const auto plus = text.find('+');
    const std::string name = text.substr(0, plus);
    const std::uint64_t off = plus == std::string::npos ? 0 : parse_address(text.substr(plus + 1), "--explain");
    for (const auto& [n, addr] : shared_data(sys))
        if (n == name) return (addr + off) & ~std::uint64_t{63};
    const std::string known = shared_symbols(sys);
    throw usage_error("--explain " + text + ": '" + name + "' is neither an address nor a shared data symbol of the program" +
                      (known.empty() ? std::string(" (it has none; give an address, e.g. 0x10000040)")
                                     : " (expected an address, e.g. 0x10000040, or one of: " + known + ")"));
}

// The trace recorder for --trace: its window and its lines.
std::unique_ptr<trace_recorder> make_trace(const system_model& sys, const platform_config& cfg, const std::string& path,
                                           const std::string& window, const std::string& lines, const std::string& max) {
    const std::size_t max_events = max.empty() ? 2'000'000 : parse_count(max, "--trace-max-events", 1, 100'000'000);
    duration from{}, to = cfg.run.length;
    if (!window.empty()) {
        const auto colon = window.find(':');
        if (colon == std::string::npos) throw usage_error("--trace-window " + window + ": expected START:END, e.g. 1ms:1.2ms");
        try {
            from = parse_duration(window.substr(0, colon));
            to = parse_duration(window.substr(colon + 1));
        } catch (const std::exception& e) {
            throw usage_error("--trace-window " + window + ": " + e.what() + " (expected START:END with units, e.g. 1ms:1.2ms)");
        }
        if (!(from < to)) throw usage_error("--trace-window " + window + ": the window ends before it starts");
    }
    std::unique_ptr<trace_recorder> t;
    try {
        t = std::make_unique<trace_recorder>(path, from, to, max_events);
    } catch (const std::runtime_error& e) {
        throw usage_error(std::string("--trace ") + e.what() + " (expected a file in a directory that exists)");
    }
    if (!lines.empty()) {
        std::stringstream ss(lines);
        for (std::string a; std::getline(ss, a, ',');) t->trace_line(parse_address(a, "--trace-lines") & ~std::uint64_t{63});
    } else {
        for (const auto& [name, addr] : shared_data(sys))
            if (t->lines().size() < 8) t->trace_line(addr & ~std::uint64_t{63});
    }
    return t;
}

int cmd_run(const std::vector<std::string>& args) {
    std::vector<std::string> sets, include_paths;
    std::string dur, seed, json_file, out_dir, trace_file, trace_window, trace_lines, trace_max, explain_line;
    std::string explain_count_text = "20";
    po::options_description d("options");
    add_common(d, sets, include_paths);
    d.add_options()  //
        ("duration", po::value(&dur)->value_name("TIME"),
         "simulated time to run, overriding run.duration.\n  --duration 20s   (units: fs ps ns us ms s)")  //
        ("seed", po::value(&seed)->value_name("N"), "random seed, overriding run.seed.\n  --seed 42")  //
        ("json", po::value(&json_file)->value_name("FILE"),
         "also write the result JSON to FILE (atomically); - writes it to standard output instead of the table.\n"
         "  --json results/run1.json")  //
        ("out", po::value(&out_dir)->default_value("cohsim-out")->value_name("DIR"),
         "directory for result.json, cores.csv and config.yaml (the effective config); created if needed.\n"
         "  --out runs/freq-1248")  //
        ("trace", po::value(&trace_file)->value_name("FILE"),
         "write a timeline (Chrome/Perfetto trace-event JSON; open it in ui.perfetto.dev): per core its lock waits, "
         "critical sections, misses and WFE sleeps; per traced line each L1's state; snoops, reservation losses, STXR "
         "failures, SEV, event-stream ticks and wake-ups; request-to-grant arrows.\n  --trace run.json")  //
        ("trace-window", po::value(&trace_window)->value_name("START:END"),
         "keep only this part of the run in the trace.\n  --trace-window 1ms:1.2ms")  //
        ("trace-lines", po::value(&trace_lines)->value_name("ADDR,..."),
         "the lines whose states get tracks (default: the lines of the program's shared data).\n  --trace-lines "
         "0x10000040")  //
        ("trace-max-events", po::value(&trace_max)->value_name("N"),
         "the most events the trace holds (default 2000000, about 180 MB); past them it stops, says so at once and in "
         "its otherData.\n  --trace-max-events 500000")  //
        ("explain", po::value(&explain_line)->value_name("LINE"),
         "print the first coherence transactions of the line holding ADDR as a message sequence: each access and the "
         "state it meets, what the home serves and snoops, states before and after, reservations cleared, cores "
         "woken, STXRs failing. LINE is an address or a shared data symbol of the program (lock, nodes+0x40).\n  --explain lock")  //
        ("explain-count", po::value(&explain_count_text)->value_name("N"),
         "how many transactions --explain follows (default 20)")  //
        ("verbose,v", "log details (model set-up, each written file) to stderr")  //
        ("quiet,q", "print nothing but errors (no table, no progress)");
    const parsed_args p = parse_args(args, d);
    if (p.vm.count("help")) {
        std::cout << run_help << d << run_examples;
        return exit_ok;
    }
    const bool quiet = p.vm.count("quiet") > 0;
    if (quiet && p.vm.count("verbose")) throw usage_error("--quiet and --verbose contradict each other");
    log::init(quiet ? log::verbosity::quiet : p.vm.count("verbose") ? log::verbosity::verbose : log::verbosity::normal);

    add_include_paths(include_paths);
    const std::string file = config_arg(p, "run");
    auto overrides = numbered(sets);
    if (!dur.empty()) overrides.emplace_back("--duration", "run.duration=" + dur);
    if (!seed.empty()) overrides.emplace_back("--seed", "run.seed=" + seed);
    const platform_config cfg = load_platform(file, overrides);
    const std::string source = file.empty() ? default_config_name : file;
    for (const auto& g : cfg.cache_warnings) spdlog::warn("{}: {}", source, g);
    if (cfg.workload.threads.empty() && !cfg.workload.trace)
        spdlog::warn("{}: no workload (workload.threads is empty and there is no workload.trace): every core idles "
                     "in WFE and there is no lock to judge; give threads, e.g. workload: {{threads: [{{core: {}.0}}]}}",
                     source, cfg.clusters.items.front().first);

    // Where the results go must be writable before the run, not after it.
    prepare_output_dir(out_dir, "--out");
    const bool json_stdout = json_file == "-";
    if (json_stdout && !explain_line.empty())
        throw usage_error("--json - and --explain both write to standard output; give --json a file");
    if (!json_file.empty() && !json_stdout) {
        try {
            atomic_file probe(json_file);  // removed unwritten when it goes
        } catch (const std::runtime_error& e) {
            throw usage_error(std::string("--json ") + e.what() + " (expected a file in a directory that exists)");
        }
    }

    spdlog::debug("elaborating {} cores from {}", [&] {
        unsigned n = 0;
        for (const auto& [name, c] : cfg.clusters) n += c.cores;
        return n;
    }(), source);
    system_model sys(cfg, file.empty() ? std::string(".") : std::filesystem::path(file).parent_path().string());

    std::unique_ptr<trace_recorder> trace;
    if (!trace_file.empty()) trace = make_trace(sys, cfg, trace_file, trace_window, trace_lines, trace_max);
    else if (!trace_window.empty() || !trace_lines.empty() || !trace_max.empty())
        throw usage_error("--trace-window, --trace-lines and --trace-max-events need --trace FILE");
    const auto explain_count = static_cast<unsigned>(parse_count(explain_count_text, "--explain-count", 1, 1'000'000));
    std::unique_ptr<explainer> explain;
    if (!explain_line.empty()) explain = std::make_unique<explainer>(explain_target(sys, explain_line), explain_count);
    sys.observe({trace.get(), explain.get()});

    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    progress_line progress(cfg.run.length, !quiet && isatty(STDERR_FILENO));
    watchdog dog(sys);
    std::string failure;
    bool trace_detached = false;
    run_outcome run = run_for(
        cfg.run.length,
        [&](duration done, double host) {
            progress.update(done, host);
            if (trace && !trace_detached) {
                if (const std::string w = trace->forecast(done); !w.empty()) progress.note(w);
                if (trace->over(done)) {  // full, or past its window: the models stop reporting
                    sys.observe({nullptr, explain.get()});
                    trace_detached = true;
                }
            }
            if (failure.empty()) failure = sys.program_fault();
            if (failure.empty()) failure = dog.check();
            if (!failure.empty()) g_stop = true;
        },
        &g_stop);
    if (failure.empty()) failure = sys.program_fault();
    if (failure.empty()) failure = sys.lock_stuck(run.simulated);  // a lock stuck with every core asleep
    run.failed = !failure.empty();
    progress.finish();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    json result_json = make_result(sys, run, source);
    if (!failure.empty()) result_json["error"] = failure;
    const std::string result = result_json.dump(2) + "\n";
    platform_config rerun = cfg;  // its program files by absolute path: it runs again from the output directory
    rerun.workload = with_files_resolved(cfg.workload, file.empty() ? "." : std::filesystem::path(file).parent_path().string());
    const std::string effective = "# effective config of a cohsim " + std::string(version) + " run of " + source +
                                  "\n" + cfg::to_yaml(effective_config(rerun));
    const std::string out_json = (std::filesystem::path(out_dir) / "result.json").string();
    write_file_atomic((std::filesystem::path(out_dir) / "config.yaml").string(), effective);
    write_file_atomic((std::filesystem::path(out_dir) / "cores.csv").string(), format_csv(sys, run));
    write_file_atomic(out_json, result);
    spdlog::debug("wrote {} and config.yaml", out_json);
    if (json_stdout) {
        std::cout << result << std::flush;
    } else if (!json_file.empty()) {
        write_file_atomic(json_file, result);
        spdlog::debug("wrote {}", json_file);
    }
    if (trace) {
        sys.observe({trace.get(), explain.get()});  // attached again if it was let go: the waits still going on
        for (const auto& th : sys.threads()) th->metrics().trace_ongoing(run.simulated);
        const std::string warning = trace->finish(run.simulated);
        if (!warning.empty()) spdlog::warn("{}", warning);
        spdlog::debug("wrote the trace {} ({} events)", trace_file, trace->events());
    }
    if (!quiet && !json_stdout) std::cout << format_table(sys, run);
    if (explain) {
        const std::string story = explain->text();
        if (story.empty()) {
            const std::string known = shared_symbols(sys);
            std::cout << "\nexplain " << hex(explain->line()) << ": no core touched this line in the run"
                      << (known.empty() ? "" : " (the program's shared data: " + known + ")") << "\n";
        } else {
            std::cout << "\nexplain " << hex(explain->line()) << ": its first " << explain_count
                      << " transactions (times in ns; states per the protocol table, `cohsim protocol`)\n"
                      << story;
        }
    }
    if (!failure.empty()) {
        std::cerr << "cohsim: " << failure << "\n";
        return exit_failure;
    }
    if (!run.completed) {
        spdlog::warn("interrupted after {} of {} simulated; results so far written to {}", time_text(run.simulated),
                     time_text(cfg.run.length), out_dir);
        return exit_interrupted;
    }
    return exit_ok;
}

// ---- plot -----------------------------------------------------------------

const char* const plot_help = R"(usage: cohsim plot RUN_DIR [--out DIR]
       cohsim plot SWEEP_DIR --x PATH [--y PATH] [--metric NAME] [--core ID] [--out DIR]

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
                           (sweep_METRIC_lines.png/.svg)
The work is done by scripts/plot.py (python3 scripts/plot.py --help).

examples:
  cohsim run --out runs/a && cohsim plot runs/a
  cohsim plot runs/a --out figures
  cohsim plot s1 --x clusters.little.freq --y clusters.big.freq --metric share
)";

// Replaces this process with the Python script NAME of the data directory
// (scripts/NAME) and `args`; returns only by throwing.
[[noreturn]] int exec_script(const std::string& name, const std::vector<std::string>& args) {
    const std::string script = data_file("scripts/" + name);
    if (!std::filesystem::exists(script)) throw std::runtime_error("the script " + script + " is missing");
    const std::string python = python_interpreter();
    std::vector<std::string> argv = {python, script};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    std::cout.flush();
    execvp(python.c_str(), cargv.data());
    throw std::runtime_error("cannot run " + python + ": " + std::strerror(errno));
}

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
    const bool sweep = std::filesystem::exists(dir / "sweep.json");
    std::vector<std::string> script_args = {predict ? "predict" : c2c ? "c2c" : latmem ? "latmem" : sweep ? "sweep" : "run"};
    script_args.insert(script_args.end(), args.begin(), args.end());
    return exec_script("plot.py", script_args);
}

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

// ---- protocol -------------------------------------------------------------

const char* const protocol_help = R"(usage: cohsim protocol [--table cache|home|transactions] [--counts RUN_DIR|RESULT_JSON]
       cohsim protocol --murphi [--caches N] [--lines N | --granules N] [--broadcast] [--mutate CELL]...

Prints the MOESI protocol exactly as the simulator implements it, generated
from its tables (models/coherence_protocol.cpp), as Markdown: the cache
controller (one row per state, stable and transient, one column per event:
the core's requests, snoops, grants) and the home at the point of
serialisation (one row per home state, one column per request as the home
classifies it). A cell reads NEXT: actions, "stall" (the event waits), or
"—" (impossible: the simulator stops with a protocol error). State and event
names follow Sorin, Hill and Wood's Primer on Memory Consistency and Cache
Coherence.

With --counts, each cell also shows how often a run executed it (xN), from
the run's result.json ("protocol_transitions").

With --murphi, prints instead a Murphi model of the protocol generated from
the same tables, for an exhaustive check by a model checker (Debian's rumur):
N caches, lines of reservation granules holding one of two values, FIFO
channels with arbitrary delays, the home's blocking and records, loads,
stores, exclusives, PRFM PST, evictions and CLREX, and the exclusive monitor
as the protocol keeps it. It checks single writer / multiple readers, the
data values, the home's records, the store-exclusive rule (success only if
no other observer wrote the granule since the load-exclusive) and that every
state can drain (no deadlock). scripts/model-check.sh runs the whole check.
--mutate replaces one cache-table cell, to see what the checker finds when a
cell is wrong: CELL is cache:STATE:EVENT=NEXT[+ACTION...], =stall or
=impossible; actions: hit, send_GetS, send_GetM, send_Upg, send_PutS,
send_PutE, send_PutO, send_PutM, drop, snp_ack, snp_clean, snp_dirty, unblock.

examples:
  cohsim protocol > protocol.md
  cohsim protocol --table home
  cohsim run --out runs/a -q && cohsim protocol --counts runs/a/result.json
  cohsim protocol --murphi --caches 3 --lines 1 --granules 2 > moesi.m
  rumur --output moesi.c moesi.m && cc -std=gnu11 -O2 -o moesi moesi.c -lpthread && ./moesi
  cohsim protocol --murphi --mutate cache:S:Inv=S+snp_ack > broken.m   (a sharer ignores Inv)
)";

int cmd_protocol(const std::vector<std::string>& args) {
    std::string counts_file, table = "all";
    std::vector<std::string> mutations;
    std::string caches = "3", lines, granules;
    po::options_description d("options");
    d.add_options()  //
        ("murphi", "print a Murphi model of the protocol for a model checker (rumur)")  //
        ("caches", po::value(&caches)->value_name("N"), "--murphi: caches in the model, 2 to 8 (default 3)")  //
        ("lines", po::value(&lines)->value_name("N"), "--murphi: lines, 1 to 4 (default 2, or 1 with --granules)")  //
        ("granules", po::value(&granules)->value_name("N"),
         "--murphi: reservation granules per line, 1 to 4 (default 1)")  //
        ("broadcast", "--murphi: broadcast snoops (CCI-400) instead of a snoop filter")  //
        ("mutate", po::value(&mutations)->value_name("CELL"),
         "--murphi: replace a cache-table cell, cache:STATE:EVENT=NEXT[+ACTION...] (repeatable)")  //
        ("table", po::value(&table)->value_name("NAME"),
         "print only one table, without headings: cache, home or transactions (default: the whole document)")  //
        ("counts", po::value(&counts_file)->value_name("RUN_DIR"), "show how often a run executed each cell (a run's --out folder, or its result.json)")  //
        ("help,h", "show this help");
    const parsed_args p = parse_args(args, d);
    if (p.vm.count("help")) {
        std::cout << protocol_help;
        return exit_ok;
    }
    if (!p.positional.empty()) throw usage_error("protocol takes no positional argument ('" + p.positional[0] + "')");
    if (p.vm.count("murphi")) {
        if (p.vm.count("table") || p.vm.count("counts")) throw usage_error("--murphi prints a model: it takes no --table or --counts");
        murphi_options o;
        o.caches = static_cast<int>(parse_count(caches, "--caches", 2, 8));
        o.granules = granules.empty() ? 1 : static_cast<int>(parse_count(granules, "--granules", 1, 4));
        o.lines = !lines.empty() ? static_cast<int>(parse_count(lines, "--lines", 1, 4)) : granules.empty() ? 2 : 1;
        o.broadcast = p.vm.count("broadcast") > 0;
        for (const auto& text : mutations) {
            try {
                add_mutation(o, text);
            } catch (const std::invalid_argument& e) {
                throw usage_error(e.what());
            }
        }
        std::cout << murphi_model(o);
        return exit_ok;
    }
    for (const char* only : {"caches", "lines", "granules", "broadcast", "mutate"})
        if (p.vm.count(only)) throw usage_error(std::string("--") + only + " belongs to --murphi");
    if (table != "all" && table != "cache" && table != "home" && table != "transactions")
        throw usage_error("--table " + table + ": no such table (expected cache, home or transactions)");
    protocol::cache_counts cc{};
    protocol::home_counts hc{};
    const bool with_counts = !counts_file.empty();
    if (with_counts) {
        if (!std::filesystem::exists(counts_file)) throw usage_error("--counts " + counts_file + ": no such file");
        // A run's folder (`cohsim run --out DIR`) stands for its result.json.
        if (std::filesystem::is_directory(counts_file)) {
            const std::string inside = (std::filesystem::path(counts_file) / "result.json").string();
            if (!std::filesystem::exists(inside))
                throw usage_error("--counts " + counts_file + ": a folder without result.json (expected the --out folder of "
                                  "`cohsim run`, or its result.json)");
            counts_file = inside;
        }
        json j;
        try {
            j = json::parse(read_file(counts_file));
        } catch (const json::exception& e) {
            throw usage_error("--counts " + counts_file + ": not a result of cohsim run (it is not valid JSON: " +
                              std::string(e.what()).substr(std::string(e.what()).find(' ') + 1) +
                              "; expected the result.json that `cohsim run --out DIR` writes)");
        }
        if (!j.contains("protocol_transitions"))
            throw usage_error("--counts " + counts_file + ": no \"protocol_transitions\" (expected a result.json of cohsim run)");
        const json& t = j["protocol_transitions"];
        counts_from_json<protocol::cstate, protocol::cevent>(t.value("cache", json::object()), cc);
        counts_from_json<protocol::hstate, protocol::hevent>(t.value("home", json::object()), hc);
    }
    if (table == "cache") std::cout << protocol::cache_table_markdown(with_counts ? &cc : nullptr);
    if (table == "home") std::cout << protocol::home_table_markdown(with_counts ? &hc : nullptr);
    if (table == "transactions") std::cout << protocol::transaction_table_markdown();
    if (table != "all") return exit_ok;
    std::cout << "# The MOESI protocol of cohsim " << version << "\n\n"
              << "## Cache controller (every L1)\n\n"
              << protocol::cache_table_markdown(with_counts ? &cc : nullptr) << "\n"
              << "## Home (point of serialisation: the SCU, the DSU or the interconnect)\n\n"
              << protocol::home_table_markdown(with_counts ? &hc : nullptr) << "\n"
              << "## Home transactions (one per line at a time: requests meeting a busy line wait)\n\n"
              << protocol::transaction_table_markdown();
    return exit_ok;
}

// ---- config ---------------------------------------------------------------

int cmd_config(const std::vector<std::string>& args) {
    std::vector<std::string> sets, include_paths;
    po::options_description d("options");
    add_common(d, sets, include_paths);
    const parsed_args p = parse_args(args, d);
    if (p.vm.count("help")) {
        std::cout << "usage: cohsim config [CONFIG] [--set PATH=VALUE]...\n\n"
                     "Prints the effective config as YAML: CONFIG (or the built-in default) with its\n"
                     "includes merged, the overrides applied and every default filled in. The same\n"
                     "text is written as config.yaml beside every run's results, and running it again\n"
                     "gives the same simulation.\n\n"
                  << d
                  << "\nexamples:\n  cohsim config configs/default.yaml\n"
                     "  cohsim config --set clusters.little.freq=1248MHz > equal-freq.yaml\n";
        return exit_ok;
    }
    add_include_paths(include_paths);
    const std::string file = config_arg(p, "config");
    const platform_config cfg = load_platform(file, numbered(sets));
    std::cout << cfg::to_yaml(effective_config(cfg));
    return exit_ok;
}

// ---- params ---------------------------------------------------------------

std::string md_escape(std::string s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += "\\";
        out += c;
    }
    return out;
}

int cmd_params(const std::vector<std::string>& args) {
    std::vector<std::string> sets;
    po::options_description d("options");
    d.add_options()("markdown", "print a Markdown table (the docs' parameter reference is generated from it)")  //
        ("ranges", "list the uncertain values (NOMINAL ~ LO..HI) of CONFIG (the built-in default without one) instead")  //
        ("set", po::value(&sets)->composing()->value_name("PATH=VALUE"), "with --ranges: override a config value")  //
        ("help,h", "show this help");
    const parsed_args p = parse_args(args, d);
    if (p.vm.count("help")) {
        std::cout << "usage: cohsim params [--markdown]\n"
                     "       cohsim params --ranges [CONFIG] [--set PATH=VALUE]...\n\n"
                     "Lists every config parameter: its path (<cluster> stands for any cluster name),\n"
                     "type, accepted units, default ('(required)' if it has none), allowed values and\n"
                     "description. The list is generated from the same declarations that parse configs.\n"
                     "Any number or quantity may be given with its uncertainty, NOMINAL ~ LO..HI\n"
                     "(e.g. request_latency: 26cycles ~ 20cycles..34cycles): a run uses NOMINAL,\n"
                     "`cohsim predict` draws from the range. --ranges lists a config's ranges.\n\n"
                  << d << "\nexamples:\n  cohsim params | grep clusters\n  cohsim params --ranges configs/platforms/asr_4xa53_4xa73.yaml\n";
        return exit_ok;
    }
    if (p.vm.count("ranges")) {
        const platform_config cfg = load_platform(config_arg(p, "params --ranges"), numbered(sets));
        text_table t;
        const bool any_prior = std::any_of(cfg.uncertain.begin(), cfg.uncertain.end(), [](const auto& u) { return !u.prior.empty(); });
        std::vector<std::string> head = {"parameter", "nominal", "range", "width"};
        if (any_prior) head.push_back("before calibration");
        t.header(head);
        for (const auto& u : cfg.uncertain) {
            char w[32];
            std::snprintf(w, sizeof w, "%+.0f%% / %+.0f%%", u.nominal ? 100.0 * (double(u.lo) - double(u.nominal)) / double(u.nominal) : 0.0,
                          u.nominal ? 100.0 * (double(u.hi) - double(u.nominal)) / double(u.nominal) : 0.0);
            std::vector<std::string> row = {u.path, u.format(u.nominal), u.format(u.lo) + ".." + u.format(u.hi), w};
            if (any_prior) row.push_back(u.prior.empty() ? "-" : u.prior);
            t.row(row);
        }
        if (cfg.uncertain.empty()) std::cout << "no uncertain values (NOMINAL ~ LO..HI) in this config\n";
        else std::cout << t.str();
        return exit_ok;
    }
    if (!sets.empty()) throw usage_error("--set needs --ranges (the parameter list does not depend on a config)");
    if (!p.positional.empty()) throw usage_error("'params' takes no arguments, got '" + p.positional.front() + "' (a config's ranges: --ranges CONFIG)");
    const auto params = cfg::list_params<platform_config>();
    if (p.vm.count("markdown")) {
        std::cout << "| path | type | units | default | allowed | description |\n|---|---|---|---|---|---|\n";
        for (const auto& i : params)
            std::cout << "| `" << i.path << "` | " << i.type << " | " << i.unit << " | " << md_escape(i.default_text)
                      << " | " << md_escape(i.constraint) << " | " << md_escape(i.description) << " |\n";
        return exit_ok;
    }
    for (const auto& i : params) {
        std::cout << i.path << "  (" << i.type;
        if (!i.unit.empty()) std::cout << "; " << i.unit;
        std::cout << ")  default: " << i.default_text << "\n";
        if (!i.constraint.empty()) std::cout << "    allowed: " << i.constraint << "\n";
        std::cout << "    " << i.description << "\n";
    }
    return exit_ok;
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
            std::cout << main_help;
            return args.empty() ? exit_bad_input : exit_ok;
        }
        if (args[0] == "--version") {
            std::cout << "cohsim " << version << " (commit " << commit << ", " << (*build_type ? build_type : "unspecified")
                      << " build)\n";
            return exit_ok;
        }
        const std::string cmd = args[0];
        args.erase(args.begin());
        if (cmd == "run") return cmd_run(args);
        if (cmd == "config") return cmd_config(args);
        if (cmd == "params") return cmd_params(args);
        if (cmd == "validate") return cmd_validate(args);
        if (cmd == "plot") return cmd_plot(args);
        if (cmd == "report") return cmd_report(args);
        if (cmd == "compare") return cmd_compare(args);
        if (cmd == "sweep") return cmd_sweep(args);
        if (cmd == "predict") return cmd_predict(args);
        if (cmd == "calibrate") return cmd_calibrate(args);
        if (cmd == "protocol") return cmd_protocol(args);
        if (cmd == "litmus") return cmd_litmus(args);
        if (cmd == "c2c") return cmd_c2c(args);
        if (cmd == "latmem") return cmd_latmem(args);
        throw usage_error("unknown command '" + cmd + "' (expected run, config, params, sweep, predict, validate, calibrate, c2c, latmem, plot, report, compare, protocol or litmus)");
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

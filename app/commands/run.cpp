// `cohsim run`: see its help text below.
#include "app/commands/common.h"

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

#include "models/coherence_protocol.h"
#include "sim/files.h"
#include "sim/log.h"
#include "app/platform.h"
#include "app/results.h"
#include "sim/runner.h"
#include "app/system.h"
#include "app/text_table.h"
#include "app/data.h"
#include "app/spawn.h"
#include "app/explain.h"
#include "app/trace.h"
#include "app/watchdog.h"

namespace po = boost::program_options;

namespace cohsim {

namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_signal(int) {
    g_stop = true;
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C kills at once
    std::signal(SIGTERM, SIG_DFL);
}

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

}  // namespace

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
         "  --json results/run1.json");
    add_out_option(d, out_dir, "cohsim-out",
                   "directory for result.json, cores.csv and config.yaml (the effective config); created if needed.\n"
                   "  --out runs/freq-1248");
    d.add_options()  //
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
    if (printed_help(p.vm, d, run_help, run_examples)) return exit_ok;
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
        &g_stop, [&] { return dog.next_check(); });
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


}  // namespace cohsim

// cohsim_bench: how fast cohsim simulates.
//
//   cohsim_bench [CONFIG] [--duration TIME] [--set PATH=VALUE]...   one scenario
//   cohsim_bench --suite [--full] [--cohsim FILE]                  the table
//
// One scenario: simulated seconds per host second, the simulation's events
// (actions run and core resumptions, deterministic) per host second, per
// simulated second and per lock acquisition, the SystemC kernel's activations,
// and peak resident memory; as "key: value" lines and one JSON line. One
// scenario per process: SystemC elaborates once.
//
// --suite runs the scenarios of docs/development/benchmarks.md, each in its own process
// (this program again, or `cohsim run` for the traced run), and prints one row
// each as a Markdown table: wall-clock figures from a full-length run, and,
// when valgrind is installed, the host instructions of a shorter run counted
// exactly by callgrind (inside the simulation only), per simulated ms and per
// lock operation (an acquisition, or a lock-free loop's counted success);
// --full adds the full `cohsim validate -j 2` (minutes).
// No thresholds: a report, not a test.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "app/platform.h"
#include "app/results.h"
#include "app/spawn.h"
#include "app/system.h"
#include "sim/files.h"
#include "sim/kernel.h"
#include "sim/log.h"
#include "sim/runner.h"

namespace {
using namespace cohsim;

int one_scenario(const std::string& file, const std::vector<std::pair<std::string, std::string>>& overrides) {
    try {
        const platform_config cfg = load_platform(file, overrides);
        system_model sys(cfg);
        const std::uint64_t switches0 = kernel::switches();
        const run_outcome r = run_for(cfg.run.length, nullptr, nullptr);
        std::uint64_t acquisitions = 0;
        for (const auto& th : sys.threads()) acquisitions += th->metrics().acquisitions();
        // A lock operation: an acquisition, or for a lock-free update loop
        // (lockref) a success its program counts (stat_*successes).
        std::uint64_t operations = acquisitions;
        if (operations == 0)
            for (std::uint64_t n : lock_operations(make_result(sys, r, file))) operations += n;
        const double sim_s = r.simulated.seconds();
        json j;
        j["scenario"] = file.empty() ? default_config_name : file;
        j["simulated_s"] = sim_s;
        j["host_s"] = r.host_seconds;
        j["sim_s_per_host_s"] = sim_s / r.host_seconds;
        j["events"] = r.events;
        j["events_per_host_s"] = r.events / r.host_seconds;
        j["events_per_sim_s"] = r.events / sim_s;
        j["acquisitions"] = acquisitions;
        j["events_per_acquisition"] = acquisitions ? static_cast<double>(r.events) / acquisitions : 0.0;
        j["operations"] = operations;
        j["events_per_operation"] = operations ? static_cast<double>(r.events) / operations : 0.0;
        j["core_resumptions"] = kernel::switches() - switches0;
        j["kernel_activations"] = r.activations;
        j["kernel_activations_per_acquisition"] = acquisitions ? static_cast<double>(r.activations) / acquisitions : 0.0;
        j["peak_rss_kib"] = peak_rss_kib();
        for (const auto& [k, v] : j.items()) std::cout << k << ": " << v << "\n";
        std::cout << j.dump() << "\n";
    } catch (const cfg::config_error& e) {
        std::cerr << e.what() << "\n";
        return 2;
    }
    return 0;
}

// One child at a time (this program again, or cohsim): its output, host time and peak memory.
child_job run_child(const std::string& program, std::vector<std::string> args, const std::string& log) {
    std::vector<child_job> jobs(1);
    jobs[0].program = program;
    jobs[0].args = std::move(args);
    jobs[0].log = log;
    run_children(jobs, 1, [](std::size_t) {});
    return jobs[0];
}

// The program's path on PATH, or "".
std::string find_program(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (std::size_t at = 0; at <= dirs.size();) {
        const std::size_t end = std::min(dirs.find(':', at), dirs.size());
        const std::filesystem::path p = std::filesystem::path(dirs.substr(at, end - at)) / name;
        if (end > at && ::access(p.c_str(), X_OK) == 0) return p.string();
        at = end + 1;
    }
    return "";
}

std::string fmt(const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

int suite(const std::string& self, std::string cohsim, bool full) {
    namespace fs = std::filesystem;
    const fs::path src = COHSIM_SOURCE_DIR;
    if (cohsim.empty()) cohsim = (fs::path(self).parent_path() / "cohsim").string();
    const fs::path tmp = fs::temp_directory_path() / ("cohsim_bench_" + std::to_string(getpid()));
    fs::create_directories(tmp);
    const std::string log = (tmp / "log").string();
    struct scenario {
        std::string name, config, duration;
        std::vector<std::string> sets;  // more --set overrides
        std::string counted;            // the shorter run counted under callgrind
    };
    std::vector<scenario> scenarios = {
        {"default scenario (2 cores, ticket lock)", "", "200ms", {}, "5ms"},
        {"lockref, 28 cores (calibration)", (src / "configs/calibration/lockref_28_threads.yaml").string(), "10ms", {}, "2ms"},
        {"qspinlock, 8 cores (asr platform)", (src / "bench/qspinlock_8_cores.yaml").string(), "20ms", {}, "5ms"},
        {"qspinlock, 64 cores (two sockets)", (src / "bench/qspinlock_64_cores.yaml").string(), "2ms", {}, "500us"},
        {"lockref, 64 cores (two sockets)", (src / "bench/lockref_64_cores.yaml").string(), "2ms", {}, "500us"},
        {"qspinlock, 64 cores (Graviton2 mesh)", (src / "bench/qspinlock_graviton2.yaml").string(), "2ms", {}, "500us"},
        {"qspinlock, 128 cores (8 x 8 mesh)", (src / "bench/qspinlock_128_cores.yaml").string(), "1ms", {}, "250us"},
        {"qspinlock, 192 cores (two Graviton4 meshes)", (src / "bench/qspinlock_graviton4_2s.yaml").string(), "1ms", {}, "250us"},
    };
#ifdef COHSIM_C_WORKLOADS
    // The same contention with the qspinlock compiled from C (workloads/c/qspinlock.c): decoded machine code.
    if (fs::exists(fs::path(COHSIM_C_WORKLOADS) / "qspinlock.elf"))
        scenarios.push_back({"qspinlock in C, 8 cores (asr platform)", (src / "bench/qspinlock_8_cores.yaml").string(), "20ms",
                             {"workload.program=" + (fs::path(COHSIM_C_WORKLOADS) / "qspinlock.elf").string(),
                              "workload.function=thread"},
                             "5ms"});
#endif
    // Host instructions, counted exactly by callgrind (wall time on a shared
    // machine varies by 2x): only inside the simulation (run_for), not the
    // config's parsing.
    const std::string valgrind = find_program("valgrind");
    std::cout << "| scenario | simulated | host s | simulated s per host s | lock operations | events per operation | "
                 "host instructions per simulated ms | host instructions per operation | peak memory |\n"
                 "|---|---|---|---|---|---|---|---|---|\n";
    int failures = 0;
    auto json_of = [](const std::string& out) {
        const auto line = out.rfind("{\"");  // the last JSON line (valgrind's report may follow it)
        if (line == std::string::npos) return json();
        return json::parse(out.substr(line, out.find('\n', line) - line), nullptr, false);
    };
    for (const auto& s : scenarios) {
        auto args_for = [&](const std::string& duration) {
            std::vector<std::string> args;
            if (!s.config.empty()) args.push_back(s.config);
            args.insert(args.end(), {"--duration", duration});
            for (const auto& set : s.sets) args.insert(args.end(), {"--set", set});
            return args;
        };
        const child_job r = run_child(self, args_for(s.duration), log);
        const json j = json_of(read_file(log));
        if (r.status != 0 || !j.is_object()) {
            std::cout << "| " << s.name << " | failed (exit " << r.status << ") | | | | | | | |\n";
            ++failures;
            continue;
        }
        std::string per_ms = "(no valgrind)", per_op = "(no valgrind)";
        if (!valgrind.empty()) {
            std::vector<std::string> args = {"--tool=callgrind", "--callgrind-out-file=" + (tmp / "callgrind.out").string(),
                                             "--toggle-collect=cohsim::run_for*", self};
            const auto more = args_for(s.counted);
            args.insert(args.end(), more.begin(), more.end());
            const child_job c = run_child(valgrind, args, log);
            const std::string out = read_file(log);
            const json cj = json_of(out);
            const auto at = out.find("Collected : ");
            if (c.status == 0 && cj.is_object() && at != std::string::npos) {
                const double ir = std::stod(out.substr(at + 12));
                const double ops = cj["operations"].get<double>();
                per_ms = fmt("%.3g", ir / (cj["simulated_s"].get<double>() * 1e3));
                per_op = ops > 0 ? fmt("%.3g", ir / ops) : "(no operations)";
                per_ms += " (" + s.counted + ")";
            } else {
                per_ms = per_op = "failed";
                ++failures;
            }
        }
        std::cout << "| " << s.name << " | " << s.duration << " | " << fmt("%.2f", j["host_s"].get<double>()) << " | "
                  << fmt("%.3g", j["sim_s_per_host_s"].get<double>()) << " | "
                  << fmt("%.0f", j["operations"].get<double>()) << " | "
                  << fmt("%.1f", j["events_per_operation"].get<double>()) << " | " << per_ms << " | " << per_op << " | "
                  << fmt("%.1f MB", j["peak_rss_kib"].get<double>() / 1024.0) << " |\n";
        std::cout.flush();
    }
    // The traced default run against the same run untraced.
    const child_job plain = run_child(cohsim, {"run", "--duration", "100ms", "-q", "--out", (tmp / "a").string()}, log);
    const child_job traced = run_child(
        cohsim, {"run", "--duration", "100ms", "-q", "--out", (tmp / "b").string(), "--trace", (tmp / "t.json").string()}, log);
    std::error_code ec;
    const auto trace_bytes = fs::file_size(tmp / "t.json", ec);
    if (plain.status == 0 && traced.status == 0) {
        std::cout << "| default, 100 ms, `--trace` (" << fmt("%.0f MB file", ec ? 0.0 : trace_bytes / 1e6) << ") | 100ms | "
                  << fmt("%.2f", traced.host_seconds) << " | " << fmt("%.3g", 0.1 / traced.host_seconds) << " | | "
                  << fmt("%.1fx the untraced run", traced.host_seconds / plain.host_seconds) << " | | | "
                  << fmt("%.1f MB", traced.peak_rss_kib / 1024.0) << " |\n";
    } else {
        std::cout << "| default, 100 ms, `--trace` | failed | | | | | | | |\n";
        ++failures;
    }
    if (full) {
        const child_job v = run_child(cohsim, {"validate", "-j", "2", "--out", (tmp / "validate").string()}, log);
        std::cout << "| full `cohsim validate -j 2` (" << (v.status == 0 ? "all rows pass" : "rows fail") << ") | | "
                  << fmt("%.1f", v.host_seconds) << " | | | | | | " << fmt("%.1f MB", v.peak_rss_kib / 1024.0) << " |\n";
    }
    fs::remove_all(tmp, ec);
    return failures ? 1 : 0;
}
}  // namespace

int sc_main(int argc, char* argv[]) {
    std::string file, cohsim;
    bool run_suite = false, full = false;
    std::vector<std::pair<std::string, std::string>> overrides;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--set" || a == "--duration") && i + 1 < argc) {
            const std::string v = argv[++i];
            overrides.emplace_back(a, a == "--set" ? v : "run.duration=" + v);
        } else if (a == "--suite") {
            run_suite = true;
        } else if (a == "--full") {
            full = true;
        } else if (a == "--cohsim" && i + 1 < argc) {
            cohsim = argv[++i];
        } else if (a == "--help" || a == "-h") {
            std::cout << "usage: cohsim_bench [CONFIG] [--duration TIME] [--set PATH=VALUE]...\n"
                         "       cohsim_bench --suite [--full] [--cohsim FILE]\n";
            return 0;
        } else if (file.empty() && a[0] != '-') {
            file = a;
        } else {
            std::cerr << "cohsim_bench: unexpected argument '" << a << "' (see --help)\n";
            return 2;
        }
    }
    log::init(log::verbosity::quiet);
    if (run_suite) return suite(std::filesystem::absolute(argv[0]).string(), cohsim, full);
    return one_scenario(file, overrides);
}

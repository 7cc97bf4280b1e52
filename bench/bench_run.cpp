// cohsim_bench: runs one scenario and reports simulator speed.
//
//   cohsim_bench [CONFIG] [--duration TIME] [--set PATH=VALUE]...
//
// Prints simulated seconds per host second, simulation events per second
// (process activations of cohsim models), events per simulated second and
// peak resident memory, as "key: value" lines and one JSON line. One scenario
// per process: SystemC elaborates once.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "sim/log.h"
#include "app/platform.h"
#include "app/results.h"
#include "sim/runner.h"
#include "app/system.h"

int sc_main(int argc, char* argv[]) {
    using namespace cohsim;
    std::string file;
    std::vector<std::pair<std::string, std::string>> overrides;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--set" || a == "--duration") && i + 1 < argc) {
            const std::string v = argv[++i];
            overrides.emplace_back(a, a == "--set" ? v : "run.duration=" + v);
        } else if (a == "--help" || a == "-h") {
            std::cout << "usage: cohsim_bench [CONFIG] [--duration TIME] [--set PATH=VALUE]...\n";
            return 0;
        } else if (file.empty() && a[0] != '-') {
            file = a;
        } else {
            std::cerr << "cohsim_bench: unexpected argument '" << a << "'\n";
            return 2;
        }
    }
    log::init(log::verbosity::quiet);
    try {
        const platform_config cfg = load_platform(file, overrides);
        system_model sys(cfg);
        const run_outcome r = run_for(cfg.run.length, nullptr, nullptr);
        const double sim_s = r.simulated.seconds();
        json j;
        j["scenario"] = file.empty() ? default_config_name : file;
        j["simulated_s"] = sim_s;
        j["host_s"] = r.host_seconds;
        j["sim_s_per_host_s"] = sim_s / r.host_seconds;
        j["events"] = r.events;
        j["events_per_host_s"] = r.events / r.host_seconds;
        j["events_per_sim_s"] = r.events / sim_s;
        j["peak_rss_kib"] = peak_rss_kib();
        for (const auto& [k, v] : j.items()) std::cout << k << ": " << v << "\n";
        std::cout << j.dump() << "\n";
    } catch (const cfg::config_error& e) {
        std::cerr << e.what() << "\n";
        return 2;
    }
    return 0;
}

// A small two-cluster platform for model tests, built from the same config
// path as real runs. Clocks are chosen so that no two domains have an
// integer period ratio: little 832 MHz, big 1.75 GHz, interconnect 533 MHz.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sc_reports.h"
#include "sim/kernel.h"
#include "app/platform.h"
#include "app/system.h"

namespace cohsim::testing {

// Set by a test that runs both ways: test_platform() then turns every
// acceleration off (run.exact, the reference timing).
inline bool& exact_runs() {
    static bool on = false;
    return on;
}

// test_platform()'s clusters with the Armv8.2 successors of their cores
// (Cortex-A55, A75), which have LSE: for programs with CAS, LDADD, SWP.
inline std::vector<std::string> lse_cores() { return {"clusters.little.core=cortex-a55", "clusters.big.core=cortex-a75"}; }

inline platform_config test_platform(const std::vector<std::string>& sets = {}) {
    std::vector<std::pair<std::string, std::string>> o;
    const char* const base[] = {
        "clusters={little: {freq: 832MHz, cores: 2, core: cortex-a53}, big: {freq: 1.75GHz, cores: 2, core: cortex-a73}}",
        "clusters.little.l1={size: 32KiB, ways: 4, hit_latency: 3cycles}",
        "clusters.little.l2={size: 1MiB, ways: 16, latency: 6cycles}",
        "clusters.little.scu={request_latency: 2cycles, snoop_latency: 2cycles, snoop_miss_latency: 6cycles}",
        "clusters.little.timing={wfe_wake_latency: 4cycles}",
        "clusters.big.l1={size: 64KiB, ways: 4, hit_latency: 3cycles}",
        "clusters.big.l2={size: 2MiB, ways: 16, latency: 14cycles}",
        "clusters.big.scu={request_latency: 2cycles, snoop_latency: 2cycles, snoop_miss_latency: 6cycles}",
        "clusters.big.timing={wfe_wake_latency: 10cycles}",
        "interconnect={freq: 533MHz, snoop_filter: false, request_latency: 26cycles, snoop_latency: 27cycles, "
        "response_latency: 26cycles, data_latency: 26cycles, request_occupancy: 1cycle, data_occupancy: 4cycles}",
        "memory={latency: 100ns, bytes_per_second: 12800000000}",
        "timer={freq: 1.92MHz, evnti: 8, event_stream: false}",
        "run={duration: 1ms}",
        "workload.threads=[]",
        "workload.params={}",
        "activity={}",  // no interrupts unless a test asks for them
        "spread_spectrum={}",  // steady clocks (the default's calibrated down-spread dropped) unless a test asks
    };
    for (const char* b : base) o.emplace_back("test", b);
    if (exact_runs()) o.emplace_back("test", "run.exact=true");
    for (const auto& s : sets) o.emplace_back("test", s);
    return load_platform("", o);
}

// A stat group's counters and distributions, by name.
struct group_stats : stat_visitor {
    std::map<std::string, std::uint64_t> counters;
    std::map<std::string, summary> dists;
    explicit group_stats(const stat_group& g) { g.accept(*this); }
    void counter(const std::string& n, const std::string&, std::uint64_t v) override { counters[n] = v; }
    void distribution(const std::string& n, const std::string&, const summary& s) override { dists[n] = s; }
};

inline void run_for_fs(std::uint64_t fs) { kernel::run(duration{fs}); }

}  // namespace cohsim::testing

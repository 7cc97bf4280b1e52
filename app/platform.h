// The root of a cohsim config: what to run, on which platform. Each section's
// keys are declared by the struct that owns them (see schema.h); this file
// only composes them.
#pragma once

#include <map>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/core.h"
#include "models/generic_timer.h"
#include "models/memory_system.h"
#include "workloads/activity.h"
#include "workloads/scenario.h"
#include "sim/schema.h"

namespace cohsim {

struct run_params {
    duration length;
    std::uint64_t seed = 1;
    duration deadlock_after;
    duration lock_stuck_after;  // 0: no stuck-lock check
    bool exact = false;  // no acceleration: the reference timing
    bool noise = true;   // false: every physical noise source off (exact-cycle tests)
    static void describe(cfg::struct_schema<run_params>& s);
};

// Spread-spectrum clocking of the SoC's PLLs (a noise source, run.noise):
// every cluster, DSU and interconnect clock is down-spread by the same depth
// and rate, each PLL at its own phase drawn from the seed. The system counter
// (generic timer) runs from its crystal, unmodulated.
struct spread_spectrum_params {
    std::uint32_t down_spread_ppm = 0;
    frequency rate{31'500};
    static void describe(cfg::struct_schema<spread_spectrum_params>& s);
};

struct cluster_params {
    frequency freq;
    std::uint32_t cores = 1;
    std::uint32_t socket = 0;
    std::string dsu;  // empty: none
    core_type core = core_type::cortex_a53;
    core_params timing;
    l1_params l1;
    l2_params l2;
    scu_params scu;
    exclusive_params exclusive;
    static void describe(cfg::struct_schema<cluster_params>& s);
};

struct platform_config {
    std::string description;
    run_params run;
    cfg::named_list<cluster_params> clusters;
    cfg::named_list<dsu_params> dsus;
    interconnect_params interconnect;
    spread_spectrum_params spread_spectrum;
    memory_params memory;
    generic_timer_params timer;
    workload_params workload;
    activity_params activity;
    // The values the file gives as NOMINAL ~ LO..HI, in document order (not a
    // key: filled by load_platform; the run uses each nominal value).
    std::vector<cfg::uncertain_param> uncertain;
    // The platform's calibrated draws (`calibrated_draws:`, written by `cohsim
    // calibrate`): each a hypothetical chip that reproduced every calibration
    // case, as index into `uncertain` -> value in base units. Ensembles take
    // their members' platform values from these, in turn. Empty: none.
    std::vector<std::map<std::size_t, std::uint64_t>> calibrated_draws;
    // What the run warns about a cluster's caches (not a key: filled by
    // load_platform), one sentence each: values its core type's preset gives
    // as estimates, private L2s without a DSU, and private L2s that no one
    // cluster L2 holds (left to cohsim's generic L2).
    std::vector<std::string> cache_warnings;
    static void describe(cfg::struct_schema<platform_config>& s);
};

// Loads a config file (the built-in default when `file` is empty, standard
// input when it is "-"), applies
// overrides in order (each: origin for messages, "PATH=VALUE"), and
// validates. Throws cfg::config_error.
// A platform's `calibrated:` map (PATH: NOMINAL ~ LO..HI, written by `cohsim
// calibrate`) replaces the ranges of those values before the overrides, unless
// `calibrated` is false (then the file's own, prior, ranges stay); a value the
// scenario fixed to one number keeps it.
platform_config load_platform(const std::string& file,
                              const std::vector<std::pair<std::string, std::string>>& overrides,
                              bool calibrated = true);
// The same from a parsed config (cfg::load_text: a config given as text).
platform_config load_platform_tree(cfg::node root, const std::vector<std::pair<std::string, std::string>>& overrides,
                                   bool calibrated = true);
// The effective config: every key with its value, the uncertain ones written
// NOMINAL ~ LO..HI as in the file.
cfg::node effective_config(const platform_config& c);

// Every core of the platform by its id, "CLUSTER.N", in config order.
std::vector<std::string> core_ids(const platform_config& c);

// The built-in default scenario (configs/default.yaml, compiled in).
extern const char* const default_config_yaml;
extern const char* const default_config_name;

}  // namespace cohsim

// What else runs on the machine while the workload runs: an activity profile.
// A platform file describes silicon; which interrupts arrived during a
// measurement (the scheduler tick, a display's vsync, devices at no fixed
// rhythm) belongs to that measurement, so a scenario names its profile
// (configs/activity/, included like any fragment) in this section:
//
//   activity:
//     description: "phone, screen on"
//     tick: {period: 4ms, handler: 5us, skew: false, cores: all}
//     random_interrupts: {interval: 250ms, handler: 2us, cores: all}
//     device_interrupts:
//       - {name: vsync, cores: little.0, period: 16.666667ms, handler: 30us}
//     bus_traffic: {load_percent: 10}   # other agents on the interconnect
//
// `cores` selects by cluster name or core id, comma-separated ("big",
// "little.0, big.3"), or "all". Every interrupt is taken as the core model
// describes (models/core.h): at the core's next operation, or waking it from
// WFE; the exception return sets the event register and clears the monitor.
// Phases: every tick at one phase drawn from the seed (Linux's default), or
// one per core with `skew` (skew_tick=1); a device interrupt at `phase`, or at
// a phase drawn from the seed, the same on every core it targets.
#pragma once

#include <string>
#include <vector>

#include "models/core.h"
#include "sim/schema.h"

namespace cohsim {

struct tick_activity {
    duration period;  // 0 = none
    duration handler;
    bool skew = false;
    std::string cores = "all";
    static void describe(cfg::struct_schema<tick_activity>& s);
};

struct random_irq_activity {
    duration interval;  // mean gap; 0 = none
    duration handler;
    std::string cores = "all";
    static void describe(cfg::struct_schema<random_irq_activity>& s);
};

struct device_irq_activity {
    std::string name;
    std::string cores;
    duration period;
    duration handler;
    std::optional<duration> phase;  // unset: drawn from the run's seed
    static void describe(cfg::struct_schema<device_irq_activity>& s);
};

struct bus_traffic_activity {
    std::uint32_t load_percent = 0;  // of each interconnect channel's cycles
    static void describe(cfg::struct_schema<bus_traffic_activity>& s);
};

struct activity_params {
    std::string description;
    tick_activity tick;
    random_irq_activity random_interrupts;
    std::vector<device_irq_activity> device_interrupts;
    bus_traffic_activity bus_traffic;
    static void describe(cfg::struct_schema<activity_params>& s);
};

// Whether `selector` ("all", or cluster names and core ids, comma-separated)
// picks the core `id` of `cluster`.
bool selects(const std::string& selector, const std::string& cluster, const std::string& id);

// The words of a selector, trimmed ("all" gives none).
std::vector<std::string> selector_words(const std::string& selector);

// Sets the interrupt parameters of core `id` (cluster `cluster`, core number
// `index` of all cores) from the profile; phases drawn from `seed`.
void apply_activity(const activity_params& a, const std::string& cluster, const std::string& id, std::uint64_t seed,
                    core_params& p);

}  // namespace cohsim

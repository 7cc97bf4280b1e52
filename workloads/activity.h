// What else runs on the machine while the workload runs: an activity profile.
// A platform file describes silicon; which interrupts arrived during a
// measurement (the scheduler tick, a display's vsync, devices at no fixed
// rhythm) belongs to that measurement, so a scenario names its profile
// (configs/activity/, included like any fragment) in this section:
//
//   activity:
//     description: "phone, screen on"
//     tick: {period: 4ms, handler: 5us, handler_spread: 40, skew: false, jitter: 1us,
//            timekeeping: 2us, softirq_every: 8, softirq: 15us, cores: all}
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
// Variation between invocations (a handler's cache state, the work it finds):
// each handler time is lognormal around the given median, `handler_spread`
// percent being 100 x the standard deviation of its logarithm (0: the same
// every time); each core's tick arrives up to `jitter` after the common
// instant; one core keeps time (`timekeeping` more per tick); every
// `softirq_every`-th tick of a core runs softirq work too, at a tick number
// drawn per core. Sources: docs/sources.md, "Interrupts and ticks".
#pragma once

#include <string>
#include <vector>

#include "models/core.h"
#include "sim/schema.h"

namespace cohsim {

struct tick_activity {
    duration period;  // 0 = none
    duration handler;  // the median invocation's
    std::uint32_t handler_spread = 0;  // percent: 100 x the standard deviation of ln(handler time)
    bool skew = false;
    duration jitter;  // each core's arrival: up to this after the tick's instant
    duration timekeeping;  // more on the timekeeping core
    std::string timekeeper;  // its id; empty: the first core the tick selects
    std::uint32_t softirq_every = 0;  // every Nth tick of a core runs softirq work; 0 = none
    duration softirq;  // that work's median time
    std::string cores = "all";
    static void describe(cfg::struct_schema<tick_activity>& s);
};

struct random_irq_activity {
    duration interval;  // mean gap; 0 = none
    duration handler;
    std::uint32_t handler_spread = 0;
    std::string cores = "all";
    static void describe(cfg::struct_schema<random_irq_activity>& s);
};

struct device_irq_activity {
    std::string name;
    std::string cores;
    duration period;
    duration handler;
    std::uint32_t handler_spread = 0;
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

// Sets the interrupt parameters of core `id` (cluster `cluster`) from the
// profile; phases drawn from `seed`. `timekeeper`: whether this core keeps
// time for the system (see timekeeper()).
void apply_activity(const activity_params& a, const std::string& cluster, const std::string& id, std::uint64_t seed,
                    bool timekeeper, core_params& p);

// The cores of `ids` ("CLUSTER.N", in platform order) the tick reaches (none
// without a tick).
std::vector<std::string> ticked_cores(const activity_params& a, const std::vector<std::string>& ids);

// The core that keeps time on each tick (Linux's tick_do_timer_cpu): the
// profile's `tick.timekeeper`, else the first core the tick reaches; empty
// when none does.
std::string timekeeper(const activity_params& a, const std::vector<std::string>& ids);

}  // namespace cohsim

// Runs the elaborated simulation for a given simulated time, in slices, so
// that progress can be shown and an interrupt (SIGINT/SIGTERM) stops the run
// at a slice boundary with everything computed so far intact.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "sim/units.h"

namespace cohsim {

struct run_outcome {
    duration simulated;
    double host_seconds = 0;
    std::uint64_t events = 0;       // the model's events (kernel::model_events): deterministic
    std::uint64_t activations = 0;  // the SystemC kernel's process activations: depend on the slicing
    bool completed = false;  // false: stopped early, by `stop` (interrupted) or by kernel::stop (failed)
    bool failed = false;     // stopped by kernel::stop where something went wrong, at `simulated`
};

// `progress(simulated_so_far, host_seconds)` is called after every slice
// (it may throw to end the run, e.g. the deadlock watchdog); `stop` is polled
// between slices. `next_check`, when given, says the latest simulated time
// (kernel::now's clock) the next slice may end at: a check that must happen
// at a fixed simulated time, whatever the host's speed.
run_outcome run_for(duration length, const std::function<void(duration, double)>& progress,
                    const std::atomic<bool>* stop, const std::function<duration()>& next_check = nullptr);

// Peak resident memory of this process, in KiB.
std::uint64_t peak_rss_kib();

}  // namespace cohsim

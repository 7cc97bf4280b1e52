#include "sim/runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>

#include "sim/kernel.h"

namespace cohsim {

run_outcome run_for(duration length, const std::function<void(duration, double)>& progress,
                    const std::atomic<bool>* stop, const std::function<duration()>& next_check) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const std::uint64_t events0 = kernel::model_events(), activations0 = kernel::events();
    const duration start = kernel::now();
    const std::uint64_t end_fs = start.fs + length.fs;
    // Slices aim at ~0.1 s of host time each: short enough for a live progress
    // line and a prompt stop, long enough that slicing costs nothing.
    // Start with 1 us (or less) and let the slice grow at most 4x per step.
    double slice_fs = std::min<double>(1e9, static_cast<double>(length.fs));
    run_outcome out;
    // Slices in SystemC's time: the model's may be ahead of it (kernel.h).
    while (kernel::kernel_time().fs < end_fs) {
        if ((stop && stop->load()) || kernel::stopped()) break;
        const std::uint64_t now_fs = kernel::kernel_time().fs;
        std::uint64_t step = std::min<std::uint64_t>(end_fs - now_fs, std::max<std::uint64_t>(1, static_cast<std::uint64_t>(slice_fs)));
        if (next_check) {
            const std::uint64_t by = next_check().fs;
            if (by > now_fs) step = std::min(step, by - now_fs);
        }
        const auto s0 = clock::now();
        kernel::run({step}, {end_fs});
        const double dt = std::chrono::duration<double>(clock::now() - s0).count();
        // From the slice just run (shorter than slice_fs when a check or the
        // run's end cut it).
        slice_fs = std::max(1.0, static_cast<double>(step) * std::clamp(0.1 / std::max(dt, 1e-6), 0.5, 4.0));
        if (progress) progress({kernel::now().fs - start.fs}, std::chrono::duration<double>(clock::now() - t0).count());
    }
    // A stop (kernel::stop) ends the run at its moment, in either timing mode.
    const std::uint64_t end_now = kernel::stopped() ? std::min(kernel::stop_time().fs, end_fs) : kernel::now().fs;
    out.simulated = {end_now - start.fs};
    out.failed = kernel::stopped();
    out.completed = !out.failed && end_now >= end_fs;
    out.events = kernel::model_events() - events0;
    out.activations = kernel::events() - activations0;
    out.host_seconds = std::chrono::duration<double>(clock::now() - t0).count();
    return out;
}

std::uint64_t peak_rss_kib() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<std::uint64_t>(ru.ru_maxrss);
}

}  // namespace cohsim

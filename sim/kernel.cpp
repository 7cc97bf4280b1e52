#include "sim/kernel.h"

#include <algorithm>
#include <stdexcept>

namespace cohsim::kernel {
namespace detail {
std::uint64_t model_now_fs = 0;
bool stopped = false;
bool exact = false;
std::uint64_t slice_end_fs = 0;
std::uint64_t events = 0, switches = 0, actions = 0;
bool alone = false;
}
namespace {
std::uint64_t g_stop_fs = 0;
std::uint64_t g_run_end_fs = 0;  // the end of the current sc_start (0: none yet: no running ahead)
}  // namespace

void init() {
    static bool done = false;
    if (done) return;
    done = true;
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
}

void detail::went_back() { throw std::logic_error("kernel: the model's clock cannot go back"); }

duration horizon() {
    const duration n = now();
    if (detail::exact) return n;
    const std::uint64_t sc = kernel_time().fs;
    const std::uint64_t to_next = sc_core::sc_time_to_pending_activity().value();  // 0: another process is runnable
    const std::uint64_t next = to_next > ~std::uint64_t{0} - sc ? ~std::uint64_t{0} : sc + to_next;
    return {std::max(n.fs, std::min(next, g_run_end_fs))};
}

void set_exact(bool on) { detail::exact = on; }
void set_alone(bool on) {
    catch_up();
    detail::alone = on;
}

void run(duration d, duration run_end) {
    const std::uint64_t sc = sc_core::sc_time_stamp().value();
    detail::slice_end_fs = sc + d.fs;
    g_run_end_fs = std::max(detail::slice_end_fs, run_end.fs);
    sc_core::sc_start(to_sc(d));
    catch_up();  // the kernel's time is at the slice's end (or the pause)
}

void stop(duration at) {
    if (detail::stopped) return;
    detail::stopped = true;
    g_stop_fs = std::max(at.fs, now().fs);
    sc_core::sc_pause();
}
duration stop_time() { return {g_stop_fs}; }

}  // namespace cohsim::kernel

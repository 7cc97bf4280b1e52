#include "sim/kernel.h"

namespace cohsim::kernel {
namespace {
std::uint64_t g_events = 0;
}

void init() {
    static bool done = false;
    if (done) return;
    done = true;
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
}

void count_event() { ++g_events; }
std::uint64_t events() { return g_events; }

}  // namespace cohsim::kernel

// The thin layer between cohsim and the SystemC kernel: time resolution,
// time conversion, and the count of simulation events (process activations of
// cohsim's models), which is what the benchmarks and `sim_events` report.
#pragma once

#include <systemc>

#include <cstdint>

#include "sim/units.h"

namespace cohsim::kernel {

// Sets the SystemC time resolution to 1 fs. Call before any model is built.
void init();

inline sc_core::sc_time to_sc(duration d) { return sc_core::sc_time::from_value(d.fs); }
inline duration now() { return {sc_core::sc_time_stamp().value()}; }

// Every SC_METHOD/SC_THREAD activation of a cohsim model calls this once.
void count_event();
std::uint64_t events();

}  // namespace cohsim::kernel

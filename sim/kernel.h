// The thin layer between cohsim and the SystemC kernel: time resolution,
// time conversion, the model's clock, how far a process may run ahead, and
// the count of simulation events (process activations of cohsim's models),
// which is what the benchmarks and `sim_events` report.
//
// The model's clock (`now()`) is not always SystemC's. Two accelerations let
// it run ahead of SystemC's time without a kernel activation, where nothing
// could tell the difference (see event_queue.h and core.h):
//   - the event queue runs the actions of several times in one activation,
//     while nothing else is pending before them;
//   - a core that computes, or hits in its L1, moves its time on without a
//     wait while nothing else is pending before its new time.
// Everything the models schedule goes to an event queue at an absolute time,
// so SystemC's time lagging behind the model's is never seen. `exact` turns
// both accelerations off: every time then has its own activation and every
// core waits in the kernel (the reference the accelerated run must equal).
#pragma once

#include <systemc>

#include <cstdint>

#include "sim/units.h"

namespace cohsim::kernel {

// The kernel's state that the hot path reads inline.
namespace detail {
extern std::uint64_t model_now_fs;   // the model's clock, when ahead of SystemC's
extern bool exact;                   // read on every action the event queue runs
extern bool stopped;                 // read on every action the event queue runs
extern std::uint64_t slice_end_fs;   // read on every time the event queue runs
extern std::uint64_t events, switches, actions;
// The event queue is the only SystemC process (event_queue.h): SystemC's time
// moves only when it is activated, or when a run's sc_start ends, and both
// bring model_now_fs up to it (catch_up), so now() is model_now_fs alone.
extern bool alone;
[[noreturn]] void went_back();
}  // namespace detail

// Sets the SystemC time resolution to 1 fs. Call before any model is built.
void init();

inline sc_core::sc_time to_sc(duration d) { return sc_core::sc_time::from_value(d.fs); }

// SystemC's own time (sc_time_stamp), never ahead of now().
inline duration kernel_time() { return {sc_core::sc_get_curr_simcontext()->time_stamp().value()}; }
// The model's clock: SystemC's time, or later while a process runs ahead.
inline duration now() {
    if (detail::alone) return {detail::model_now_fs};
    const std::uint64_t sc = kernel_time().fs;  // inline, unlike sc_time_stamp()
    return {detail::model_now_fs > sc ? detail::model_now_fs : sc};
}
// SystemC's time has moved (an activation, the end of an sc_start): the
// model's clock is at least there. (now() without `alone` takes the later of
// the two itself.)
inline void catch_up() {
    const std::uint64_t sc = kernel_time().fs;
    if (detail::model_now_fs < sc) detail::model_now_fs = sc;
}
// From the event queue as the simulation starts: it is the only process.
void set_alone(bool on);
// The model's clock moves on to `t` (not earlier than now()).
inline void advance_to(duration t) {
    if (t.fs < now().fs) detail::went_back();
    detail::model_now_fs = t.fs;
}

// The earliest time at which anything may happen besides the caller: SystemC
// activity pending (now, if another process is runnable), or the end of the
// current run. The caller may run ahead to any time strictly before it.
// With exact(true), now(): no running ahead.
duration horizon();
void set_exact(bool on);
inline bool exact() { return detail::exact; }

// Runs the simulation for `d` (sc_start). Nothing runs ahead past the end of
// the run: `run_end` if later (a run in slices: run_for), else now + d. The
// slices of a run change how often the kernel is entered, never what runs.
void run(duration d, duration run_end = {});
// Stops the simulation where something went wrong (a program's fault, a
// broken lock): `at` is the moment it happened on the model's clock (the
// faulting core's local time, at or after now()). Nothing else runs after it
// in either timing mode: the event queue runs no further action or process,
// the current sc_start ends (sc_pause) and run_for ends the run there, so a
// fault stops at the same time, with the same state, accelerated or exact.
// The first stop counts; later ones are ignored.
void stop(duration at);
// Whether stop() was called, and its moment.
inline bool stopped() { return detail::stopped; }
duration stop_time();
// The end of the current sc_start: the event queue returns to the kernel there.
inline duration slice_end() { return {detail::slice_end_fs}; }

// The kernel's counts, inline (counted once per activation, switch and action).
// Every SC_METHOD/SC_THREAD activation of a cohsim model calls this once.
inline void count_event() { ++detail::events; }
inline std::uint64_t events() { return detail::events; }
// Every resumption of a model process (process.h: a switch of stacks, not a
// kernel activation) calls this once, and every action the event queue runs.
inline void count_switch() { ++detail::switches; }
inline std::uint64_t switches() { return detail::switches; }
inline void count_action() { ++detail::actions; }
inline std::uint64_t actions() { return detail::actions; }
// The simulation's events: actions run and processes resumed. Unlike the
// kernel's activations, the same for a config and seed however the run is
// sliced.
inline std::uint64_t model_events() { return actions() + switches(); }

}  // namespace cohsim::kernel

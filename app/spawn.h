// Runs `cohsim` subcommands as child processes, several at a time (SystemC
// elaborates once per process, so every simulation is its own process).
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cohsim {

struct child_job {
    std::vector<std::string> args;  // after the program: e.g. {"run", CONFIG, "-q", ...}
    std::string program;            // empty: this binary
    std::string log;                // stdout and stderr go here
    int status = -1;                // exit status, or 128 + signal
    double host_seconds = 0;
    std::uint64_t peak_rss_kib = 0;  // the child's peak resident memory
};

// The running cohsim binary (/proc/self/exe).
std::string self_binary();

// Thrown by run_children when SIGINT or SIGTERM stops it: the jobs that ran
// to the end have had their done(); those still running were stopped and
// waited for (their status is 128 + the signal), those not started never ran.
struct children_interrupted : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Runs every job, at most `parallel` at once, in order of the list; calls
// `done(index)` as each finishes (on this thread). Ctrl-C (SIGINT) or
// SIGTERM: no new job starts, the running ones are sent SIGTERM (a `cohsim
// run` writes what it simulated and stops) and waited for, then
// children_interrupted is thrown.
void run_children(std::vector<child_job>& jobs, unsigned parallel, const std::function<void(std::size_t)>& done);

// The number of host cores (at least 1).
unsigned host_cores();

}  // namespace cohsim

// Runs `cohsim` subcommands as child processes, several at a time (SystemC
// elaborates once per process, so every simulation is its own process).
#pragma once

#include <cstdint>
#include <functional>
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

// Runs every job, at most `parallel` at once, in order of the list; calls
// `done(index)` as each finishes (on this thread).
void run_children(std::vector<child_job>& jobs, unsigned parallel, const std::function<void(std::size_t)>& done);

// The number of host cores (at least 1).
unsigned host_cores();

}  // namespace cohsim

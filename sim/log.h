// One logging path: spdlog to stderr, each line stamped with the simulated
// time, and SystemC's own reports (sc_report) routed into it.
#pragma once

#include <spdlog/spdlog.h>

namespace cohsim::log {

enum class verbosity { quiet, normal, verbose };

// Installs the stderr logger, the "%S" simulated-time flag and the
// sc_report handler. Safe to call more than once.
void init(verbosity v);

// cohsim's line format: "[<simulated time>] [level] message", the time in
// the model's clock ("[1.365 ms] [warning] ...").
std::unique_ptr<spdlog::formatter> formatter();

// A progress line is on the terminal (true) or not: each message then first
// erases it, so no message is glued onto it.
void progress_drawn(bool drawn);

}  // namespace cohsim::log

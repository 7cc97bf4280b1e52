// Entry point of the `cohsim` command (see cli.cpp for the exit statuses).
#pragma once

#include "app/options.h"

#include <string>

#include "sim/units.h"

namespace cohsim {
int cli_main(int argc, const char* const* argv);
// The progress line of a long run: "[ 58%] 11.6 ms of 20 ms simulated, 3.2 s host, ETA 2.3 s".
std::string progress_text(duration done, duration total, double host);
}

// Entry point of the `cohsim` command (see cli.cpp for the exit statuses).
#pragma once

#include <stdexcept>

namespace cohsim {
int cli_main(int argc, const char* const* argv);

// A bad command line: exit status 2 with a hint to --help.
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
}

// Entry point of the `cohsim` command (see cli.cpp for the exit statuses).
#pragma once

#include "app/options.h"

namespace cohsim {
int cli_main(int argc, const char* const* argv);
}

// Shared by the libFuzzer harnesses: SystemC's library wants an sc_main
// (its main() is not used: libFuzzer brings its own), and the rule every
// harness checks: bad input may only end in cfg::config_error (the CLI's
// exit status 2 with a located message); any other exception, a crash, a
// hang or a sanitizer report is a bug.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "sim/config_tree.h"

extern "C" int sc_main(int, char**) { return 0; }

namespace cohsim::fuzz {

template <class F>
void only_config_errors(F&& f) {
    try {
        f();
    } catch (const cfg::config_error& e) {
        // Bad input, reported as it should be; the message must say where.
        if (std::string(e.what()).empty()) std::abort();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "not a config_error: %s\n", e.what());
        std::abort();
    }
}

}  // namespace cohsim::fuzz

// A bad command line: `cohsim` exits with status 2 and a hint to --help.
#pragma once

#include <stdexcept>

namespace cohsim {

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace cohsim

// Physical timing noise: seeded, and keyed to what happens (which message,
// where, at what time), never to the order the host evaluates things, so the
// accelerated and the reference timing draw the same values. A model asks
// for the uniform variate of one occurrence by naming it with a few numbers.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "sim/random.h"

namespace cohsim {

struct noise {
    bool on = false;        // false: every source off (run.noise: false, or a model test)
    std::uint64_t seed = 0;  // the run's seed

    // A uniform variate in [0, 1) for the occurrence named (kind, a, b, t):
    // the same name always gives the same value.
    double uniform(std::uint64_t kind, std::uint64_t a, std::uint64_t b, std::uint64_t t) const {
        std::uint64_t h = splitmix64(seed ^ 0x6e6f697365ULL);
        for (std::uint64_t x : {kind, a, b, t}) h = splitmix64(h ^ x);
        return static_cast<double>(h >> 11) * 0x1p-53;
    }
};

}  // namespace cohsim

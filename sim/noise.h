// Physical timing noise: seeded, and keyed to what happens (which message,
// where, at what time), never to the order the host evaluates things, so the
// accelerated and the reference timing draw the same values. A model asks
// for the uniform variate of one occurrence by naming it with a few numbers.
#pragma once

#include <cstdint>

#include "sim/random.h"

namespace cohsim {

struct noise {
    bool on = false;        // false: every source off (run.noise: false, or a model test)
    std::uint64_t seed = 0;  // the run's seed

    // A uniform variate in [0, 1) for the occurrence named (kind, a, b, t):
    // the same name always gives the same value.
    double uniform(std::uint64_t kind, std::uint64_t a, std::uint64_t b, std::uint64_t t) const {
        return uniform_in(stream(kind, a), b, t);
    }
    // The same in two steps, for a source that draws often under few (kind, a)
    // names: the name's first half, hashed once and kept, then each draw.
    std::uint64_t stream(std::uint64_t kind, std::uint64_t a) const {
        return splitmix64(splitmix64(splitmix64(seed ^ 0x6e6f697365ULL) ^ kind) ^ a);
    }
    static double uniform_in(std::uint64_t stream, std::uint64_t b, std::uint64_t t) {
        return static_cast<double>(splitmix64(splitmix64(stream ^ b) ^ t) >> 11) * 0x1p-53;
    }
};

}  // namespace cohsim

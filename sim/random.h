// Deterministic pseudo-random numbers: the same seed gives the same stream
// on every host (no std:: distributions, whose output is implementation-
// defined).
#pragma once

#include <cmath>
#include <cstdint>

namespace cohsim {

// A well-mixed 64-bit hash (Steele, Lea, Flood: SplitMix64).
inline std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// A SplitMix64 stream.
class random_stream {
public:
    explicit random_stream(std::uint64_t seed = 0) : m_state(seed) {}
    std::uint64_t next() { return splitmix64(m_state += 0x9e3779b97f4a7c15ULL); }
    // Uniform in [lo, hi] (the modulo bias is below 2^-40 for spans under 2^24).
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return hi <= lo ? lo : lo + next() % (hi - lo + 1); }
    // Exponentially distributed with the given mean (the gaps of a Poisson
    // process), rounded to an integer; inverse transform of a uniform drawn
    // strictly inside (0, 1) from the top 53 bits.
    std::uint64_t exponential(std::uint64_t mean) {
        const double u = (static_cast<double>(next() >> 11) + 0.5) * 0x1p-53;
        return static_cast<std::uint64_t>(std::llround(-std::log(u) * static_cast<double>(mean)));
    }

private:
    std::uint64_t m_state;
};

}  // namespace cohsim

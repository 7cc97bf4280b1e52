// Deterministic pseudo-random numbers: the same seed gives the same stream
// on every host (no std:: distributions, whose output is implementation-
// defined).
#pragma once

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

private:
    std::uint64_t m_state;
};

}  // namespace cohsim

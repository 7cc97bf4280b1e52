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

// The standard normal distribution's quantile: z with P(Z <= z) = p, for p in
// (0, 1). A rational approximation in three pieces (central, and the two
// tails in sqrt(-2 ln p)), after Acklam's published coefficients; relative
// error below 1.2e-9 (tests/unit/random_test.cpp checks it against tabled
// quantiles).
double normal_quantile(double p);

// A lognormal time around `median` (of any unit): median * exp(sigma * z), z
// the standard normal quantile of `u` in (0, 1), clipped to 4 standard
// deviations (so that one unlucky draw cannot be absurd; P(|z| > 4) = 6e-5).
// sigma 0 gives `median` exactly, with no floating point.
std::uint64_t lognormal_at(std::uint64_t median, double sigma, double u);

// A uniform variate strictly inside (0, 1) from 64 random bits (the top 53).
inline double open_unit(std::uint64_t bits) { return (static_cast<double>(bits >> 11) + 0.5) * 0x1p-53; }

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
        const double u = open_unit(next());
        return static_cast<std::uint64_t>(std::llround(-std::log(u) * static_cast<double>(mean)));
    }

private:
    std::uint64_t m_state;
};

}  // namespace cohsim

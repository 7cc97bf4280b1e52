#include "sim/clock_domain.h"

#include <limits>
#include <stdexcept>

namespace cohsim {
namespace {
using u128 = unsigned __int128;
constexpr u128 fs_per_s = fs_per_second;

std::uint64_t checked_fs(u128 fs, const std::string& domain) {
    if (fs > (std::numeric_limits<std::uint64_t>::max)())
        throw std::overflow_error("clock domain " + domain + ": time beyond the 64-bit femtosecond range");
    return static_cast<std::uint64_t>(fs);
}
}  // namespace

clock_domain::clock_domain(std::string name, frequency freq) : m_name(std::move(name)), m_freq(freq) {
    if (freq.hz == 0) throw std::invalid_argument("clock domain " + m_name + ": frequency must be positive");
}

duration clock_domain::time_of(std::uint64_t cycle) const {
    return {checked_fs(u128(cycle) * fs_per_s / m_freq.hz, m_name)};
}

std::uint64_t clock_domain::cycle_at(duration t) const {
    // Largest k with floor(k*F/f) <= t  <=>  k*F/f < t+1  <=>  k < (t+1)*f/F.
    const u128 num = (u128(t.fs) + 1) * m_freq.hz;
    const u128 k_excl = (num + fs_per_s - 1) / fs_per_s;  // ceil
    return static_cast<std::uint64_t>(k_excl - 1);
}

std::uint64_t clock_domain::next_edge_cycle(duration t) const {
    // Smallest k with floor(k*F/f) >= t  <=>  k*F/f >= t  <=>  k >= t*f/F.
    const u128 num = u128(t.fs) * m_freq.hz;
    return static_cast<std::uint64_t>((num + fs_per_s - 1) / fs_per_s);
}

}  // namespace cohsim

#include "sim/clock_domain.h"

#include <limits>
#include <stdexcept>

namespace cohsim {
namespace {
using u128 = unsigned __int128;
constexpr u128 fs_per_s = fs_per_second;

// num / d for a 128-bit numerator and 64-bit divisor. On x86-64, when the
// quotient fits in 64 bits, one hardware divide instead of libgcc's generic
// 128-bit division (a tenth of all run time before).
inline u128 div_u128(u128 num, std::uint64_t d) {
#if defined(__x86_64__)
    const std::uint64_t hi = static_cast<std::uint64_t>(num >> 64), lo = static_cast<std::uint64_t>(num);
    if (hi < d) {
        std::uint64_t q, r;
        __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d));
        return q;
    }
#endif
    return num / d;
}

std::uint64_t checked_fs(u128 fs, const std::string& domain) {
    if (fs > (std::numeric_limits<std::uint64_t>::max)())
        throw std::overflow_error("clock domain " + domain + ": time beyond the 64-bit femtosecond range");
    return static_cast<std::uint64_t>(fs);
}
}  // namespace

clock_domain::clock_domain(std::string name, frequency freq) : m_name(std::move(name)), m_freq(freq) {
    if (freq.hz == 0) throw std::invalid_argument("clock domain " + m_name + ": frequency must be positive");
    m_period_fs = fs_per_second / freq.hz;
    m_period_rem = fs_per_second % freq.hz;
}

std::uint64_t clock_domain::exact_time_of(std::uint64_t cycle) const {
    return checked_fs(div_u128(u128(cycle) * fs_per_s, m_freq.hz), m_name);
}

duration clock_domain::time_of(std::uint64_t cycle) const {
    // Most calls step a few cycles on from the previous one: floor((k+n)F/f)
    // = t_k + n*P + floor((r_k + n*R)/f), all in 64 bits for n < 2^20.
    if (cycle >= m_last_k && cycle - m_last_k < (1u << 20)) {
        const std::uint64_t n = cycle - m_last_k;
        const std::uint64_t rr = m_last_r + n * m_period_rem;
        const std::uint64_t t = m_last_t + n * m_period_fs + rr / m_freq.hz;
        m_last_k = cycle, m_last_t = t, m_last_r = rr % m_freq.hz;
        return {t};
    }
    const std::uint64_t t = exact_time_of(cycle);
    m_last_k = cycle, m_last_t = t;
    m_last_r = static_cast<std::uint64_t>((u128(cycle) * fs_per_s) % m_freq.hz);
    return {t};
}

std::uint64_t clock_domain::cycle_at(duration t) const {
    // Largest k with floor(k*F/f) <= t  <=>  k*F/f < t+1  <=>  k < (t+1)*f/F.
    const u128 num = (u128(t.fs) + 1) * m_freq.hz;
    const u128 k_excl = div_u128(num + fs_per_s - 1, fs_per_second);  // ceil
    return static_cast<std::uint64_t>(k_excl - 1);
}

std::uint64_t clock_domain::next_edge_cycle(duration t) const {
    // At or just after the last edge computed: no division needed.
    if (t.fs == m_last_t) return m_last_k;
    if (t.fs > m_last_t && t.fs - m_last_t <= m_period_fs) {
        // The next edge is at most P+1 fs later; is t beyond it?
        const std::uint64_t next = m_last_t + m_period_fs + (m_last_r + m_period_rem >= m_freq.hz ? 1 : 0);
        if (t.fs <= next) return m_last_k + 1;
    }
    // Smallest k with floor(k*F/f) >= t  <=>  k*F/f >= t  <=>  k >= t*f/F.
    const u128 num = u128(t.fs) * m_freq.hz;
    return static_cast<std::uint64_t>(div_u128(num + fs_per_s - 1, fs_per_second));
}

}  // namespace cohsim

#include "sim/clock_domain.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cohsim {
namespace {
using u128 = unsigned __int128;
constexpr u128 fs_per_s = fs_per_second;

// num / d (and num % d) for a 128-bit numerator and 64-bit divisor. On
// x86-64, when the quotient fits in 64 bits, one hardware divide instead of
// libgcc's generic 128-bit division (a tenth of all run time before).
inline u128 div_u128(u128 num, std::uint64_t d, std::uint64_t* rem = nullptr) {
#if defined(__x86_64__)
    const std::uint64_t hi = static_cast<std::uint64_t>(num >> 64), lo = static_cast<std::uint64_t>(num);
    if (hi < d) {
        std::uint64_t q, r;
        __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d));
        if (rem) *rem = r;
        return q;
    }
#endif
    if (rem) *rem = static_cast<std::uint64_t>(num % d);
    return num / d;
}

// q = num / d when that fits in 64 bits (else false): one hardware divide on
// x86-64, with no call to fall back on, so a caller's fast path needs none.
inline bool div_to_u64(u128 num, std::uint64_t d, std::uint64_t& q) {
    const std::uint64_t hi = static_cast<std::uint64_t>(num >> 64);
    if (hi >= d) return false;
#if defined(__x86_64__)
    std::uint64_t r;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(static_cast<std::uint64_t>(num)), "d"(hi), "rm"(d));
#else
    q = static_cast<std::uint64_t>(num / d);
#endif
    return true;
}

[[noreturn]] __attribute__((noinline, cold)) void beyond_range(const std::string& domain) {
    throw std::overflow_error("clock domain " + domain + ": time beyond the 64-bit femtosecond range");
}

inline std::uint64_t checked_fs(u128 fs, const std::string& domain) {
    if (fs >> 64) beyond_range(domain);
    return static_cast<std::uint64_t>(fs);
}
}  // namespace

clock_domain::clock_domain(std::string name, frequency freq, spread_spectrum ssc)
    : m_name(std::move(name)), m_freq(freq), m_ssc(ssc) {
    if (freq.hz == 0) throw std::invalid_argument("clock domain " + m_name + ": frequency must be positive");
    m_period_fs = fs_per_second / freq.hz;
    m_period_rem = fs_per_second % freq.hz;
    if (m_ssc.ppm > 0) {
        if (m_ssc.rate.hz == 0 || m_ssc.rate.hz > freq.hz / 2)
            throw std::invalid_argument("clock domain " + m_name + ": spread-spectrum rate must lie in 1Hz..f/2");
        if (m_ssc.ppm > 1'000'000) throw std::invalid_argument("clock domain " + m_name + ": spread above 100%");
        m_half = std::max<std::uint64_t>(1, (freq.hz + m_ssc.rate.hz) / (2 * m_ssc.rate.hz));
        m_phase = m_ssc.phase % (2 * m_half);
        m_spread_a = u128(1'000'000'000ULL) * m_ssc.ppm;  // <= 10^15
        const u128 m = u128(2 * m_half) * freq.hz;
        if (m >> 64) throw std::invalid_argument("clock domain " + m_name + ": spread-spectrum rate too low for its frequency");
        m_spread_m = static_cast<std::uint64_t>(m);
        // A period is at most the nominal one (P or P+1 fs) and the peak
        // stretch D = 10^9 ppm / f fs, and the floors add at most 1 more each.
        m_longest_period = m_period_fs + 1 + (1'000'000'000ULL * m_ssc.ppm + freq.hz - 1) / freq.hz + 1;
        m_spread0 = spread_fs(m_phase);
    }
    // The window keeps every step's products in 64 bits: d P and r + d rem
    // (rem < f) below 2^62, and 2H S's growth (below d 4H) too.
    const std::uint64_t widest = std::max<std::uint64_t>(m_period_fs, freq.hz);
    m_window = m_half < (std::uint64_t{1} << 30) ? std::clamp<std::uint64_t>((std::uint64_t{1} << 62) / widest, 1, 1 << 14) : 1;
    set_anchor(0);
}

std::uint64_t clock_domain::spread_fs(std::uint64_t j, std::uint64_t* rem) const {
    // 2H * S(j): H per whole triangle, then the part of the current one:
    // p(p-1) rising, then the whole triangle's 2H*H less what the falling
    // part has still to add.
    const std::uint64_t two_h = 2 * m_half, h = m_half;
    const std::uint64_t n = j / two_h, p = j - n * two_h;
    u128 s2h;
    if (h < (std::uint64_t{1} << 31)) {  // every product below fits 64 bits
        const std::uint64_t whole = two_h * h;
        s2h = u128(n) * whole + (p <= h ? p * (p - (p > 0 ? 1 : 0)) : whole - (two_h - p) * (two_h - p + 1));
    } else {
        const u128 w = u128(two_h) * h, q = p, r = u128(two_h) - p;
        s2h = u128(n) * w + (p <= h ? q * (q - (p > 0 ? 1 : 0)) : w - r * (r + 1));
    }
    // D = 10^9 ppm / f fs; the stretch is floor(D * s2h / 2H) = floor(A s2h / M).
    const u128 q = div_u128(u128(m_spread_a) * s2h, m_spread_m, rem);
    return checked_fs(q, m_name);
}

void clock_domain::set_anchor(std::uint64_t cycle) const {
    anchor_edge a;
    a.k = cycle;
    a.tn = nominal_fs(cycle, a.r);
    a.span = m_window;
    if (m_ssc.ppm != 0) {
        const std::uint64_t j = cycle + m_phase, two_h = 2 * m_half, p = j % two_h;
        a.s = spread_fs(j, &a.rs) - m_spread0;
        if (m_window > 1) {
            // 2H S's growth d cycles on, while the triangle keeps its slope:
            // rising (p + d <= H), p' (p' - 1) - p (p - 1) = d (2p - 1 + d);
            // falling (p + d <= 2H), with b = 2H - p: b (b + 1) - (b - d) (b - d + 1)
            // = d (2b + 1 - d).
            const bool rising = p < m_half;
            a.slope = rising ? 2 * p - 1 : 2 * (two_h - p) + 1;  // 2p - 1 wraps at p = 0; d (d - 1) stays right
            a.turn = rising ? 1 : ~std::uint64_t{0};              // + d or - d, modulo 2^64
            a.span = std::min(m_window, (rising ? m_half : two_h) - p + 1);
        }
    }
    m_anchor = a;
}

duration clock_domain::computed_time_of(std::uint64_t cycle) const {
    const anchor_edge& a = m_anchor;
    const std::uint64_t d = cycle - a.k;
    if (d >= a.span) return reanchored_time_of(cycle);  // behind the anchor (d wraps) or past its span
    // floor(cycle 10^15 / f) = tn + d P + floor((r + d rem) / f).
    const std::uint64_t x = a.r + d * m_period_rem;
    std::uint64_t t;
    if (__builtin_add_overflow(a.tn, d * m_period_fs + x / m_freq.hz, &t)) beyond_range(m_name);
    if (m_ssc.ppm == 0) {
        m_last_k = cycle, m_last_t = t, m_last_r = x % m_freq.hz;
        return remember(cycle, t);
    }
    // The stretch grows by floor((rs + A * (2H S's growth)) / M).
    const std::uint64_t grown = d * (a.slope + a.turn * d);
    std::uint64_t q;
    if (!div_to_u64(u128(m_spread_a) * grown + a.rs, m_spread_m, q)) return reanchored_time_of(cycle);  // the closed form says why
    if (__builtin_add_overflow(t, a.s + q, &t)) beyond_range(m_name);
    return remember(cycle, t);
}

duration clock_domain::reanchored_time_of(std::uint64_t cycle) const {
    // Up to a quarter window back, for the queries a little behind this one,
    // but not past the start of the triangle's slope the cycle lies on; or,
    // where stepping cannot say, the closed form at the cycle itself.
    std::uint64_t back = std::min(cycle, m_window / 4);
    if (m_anchor.k <= cycle && cycle - m_anchor.k < m_anchor.span) {
        back = 0;
    } else if (m_ssc.ppm != 0 && back > 0) {
        const std::uint64_t p = (cycle + m_phase) % (2 * m_half);
        back = std::min(back, p < m_half ? p : p - m_half);
    }
    set_anchor(cycle - back);
    return computed_time_of(cycle);
}

std::uint64_t clock_domain::computed_next_edge_cycle(duration t) const {
    const std::uint64_t k = m_ssc.ppm == 0 ? nominal_next_edge_cycle(t) : spread_next_edge_cycle(t);
    m_by_time[time_slot(t)] = {k, t.fs};
    return k;
}

std::uint64_t clock_domain::cycle_at(duration t) const {
    if (m_ssc.ppm == 0) return nominal_cycle_at(t);
    return next_edge_cycle({t.fs + 1}) - 1;  // the edge before the first one after t
}

std::uint64_t clock_domain::spread_next_edge_cycle(duration t) const {
    if (t.fs == 0) return 0;
    // The last answer, or the edge after it: most queries.
    if (t.fs == m_ssc_t && m_ssc_k > 0) return m_ssc_k;
    if (t.fs > m_ssc_t && t.fs - m_ssc_t <= (m_period_fs << 12)) {
        // Up to a few thousand periods on from the last answer: every period
        // lies between P (the nominal one's whole fs) and the longest, so the
        // edge is among the few between gap / longest and gap / P cycles on
        // (often one: no edge time needed); a binary search among them.
        const std::uint64_t gap = t.fs - m_ssc_t;
        std::uint64_t lo = m_ssc_k + (gap + m_longest_period - 1) / m_longest_period;
        std::uint64_t hi = m_ssc_k + (gap + m_period_fs - 1) / m_period_fs;
        std::uint64_t hi_t = 0;  // time_of(hi), once computed
        std::uint64_t below_t = 0;  // the time of the last edge found before t
        while (lo < hi) {
            const std::uint64_t mid = lo + (hi - lo) / 2;
            const std::uint64_t at = time_of(mid).fs;
            if (at >= t.fs)
                hi = mid, hi_t = at;
            else
                lo = mid + 1, below_t = at;
        }
        // The next search starts from an edge whose time is known: the
        // answer's, or else the edge just before t (any known edge at or
        // before the next query bounds its answer as well; the nearer, the
        // fewer candidates). With no time of hi computed, every step moved lo
        // up: the last edge found before t is hi - 1.
        if (hi_t != 0)
            m_ssc_k = hi, m_ssc_t = hi_t;
        else if (below_t > m_ssc_t)
            m_ssc_k = hi - 1, m_ssc_t = below_t;
        return hi;
    }
    return spread_next_edge_far(t);
}

std::uint64_t clock_domain::spread_next_edge_far(duration t) const {
    // Guess from the mean period (the nominal one stretched by ppm/2).
    // Then Newton steps on the local period (the stretch is the triangle's value
    // there); the answer is then checked exactly against time_of. Floating
    // point only chooses where to look: the result is exact either way.
    // From the last answer when t lies ahead of it.
    std::uint64_t k = m_ssc_k, at = m_ssc_t;
    if (t.fs < m_ssc_t || t.fs - m_ssc_t > (m_period_fs << 16)) {
        k = nominal_next_edge_cycle(t);
        k -= static_cast<std::uint64_t>(u128(k) * m_ssc.ppm / 2'000'000);
        at = time_of(k).fs;
    }
    const double peak = 1e9 * m_ssc.ppm / static_cast<double>(m_freq.hz);
    const double nominal = 1e15 / static_cast<double>(m_freq.hz);
    for (int i = 0; i < 4; ++i) {
        const std::uint64_t p = (k + m_phase) % (2 * m_half);
        const double tri = static_cast<double>(p <= m_half ? p : 2 * m_half - p) / static_cast<double>(m_half);
        const double gap = at >= t.fs ? -static_cast<double>(at - t.fs) : static_cast<double>(t.fs - at);
        const auto n = static_cast<std::int64_t>(std::ceil(gap / (nominal + peak * tri)));
        if (n == 0 || (n < 0 && static_cast<std::uint64_t>(-n) > k)) break;
        k = static_cast<std::uint64_t>(static_cast<std::int64_t>(k) + n);
        at = time_of(k).fs;
    }
    while (at < t.fs) at = time_of(++k).fs;
    // Every period is at least the nominal one's whole femtoseconds (the
    // stretch only adds): an edge less than that after t has its predecessor
    // before t, with no need to compute it.
    while (k > 0 && at - t.fs >= m_period_fs) {
        const std::uint64_t before = time_of(k - 1).fs;
        if (before < t.fs) break;
        --k, at = before;
    }
    m_ssc_k = k, m_ssc_t = at;
    return k;
}

std::uint64_t clock_domain::nominal_fs(std::uint64_t cycle, std::uint64_t& rem) const {
    // floor(k * 10^15 / f): one 128-bit product and one division, with its
    // remainder (k 10^15) mod f.
    return checked_fs(div_u128(u128(cycle) * fs_per_s, m_freq.hz, &rem), m_name);
}

std::uint64_t clock_domain::nominal_cycle_at(duration t) const {
    // Largest k with floor(k*F/f) <= t  <=>  k*F/f < t+1  <=>  k < (t+1)*f/F.
    const u128 num = (u128(t.fs) + 1) * m_freq.hz;
    const u128 k_excl = div_u128(num + fs_per_s - 1, fs_per_second);  // ceil
    return static_cast<std::uint64_t>(k_excl - 1);
}

std::uint64_t clock_domain::nominal_next_edge_cycle(duration t) const {
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

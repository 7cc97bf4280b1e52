#include "app/ensemble.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "sim/random.h"

namespace cohsim {

std::vector<std::vector<double>> latin_hypercube(std::size_t n, std::size_t d, std::uint64_t seed) {
    std::vector<std::vector<double>> out(n, std::vector<double>(d));
    random_stream rng(splitmix64(seed ^ 0x1a71c0de5eedULL));
    std::vector<std::size_t> strata(n);
    for (std::size_t j = 0; j < d; ++j) {
        std::iota(strata.begin(), strata.end(), 0);
        for (std::size_t i = n; i > 1; --i) std::swap(strata[i - 1], strata[rng.next() % i]);  // Fisher-Yates
        for (std::size_t i = 0; i < n; ++i) {
            const double r = static_cast<double>(rng.next() >> 11) * 0x1p-53;  // [0, 1)
            out[i][j] = (static_cast<double>(strata[i]) + r) / static_cast<double>(n);
        }
    }
    return out;
}

std::uint64_t draw(const cfg::uncertain_param& p, double u) {
    const std::uint64_t q = p.quantum ? p.quantum : 1;
    const std::uint64_t klo = (p.lo + q - 1) / q, khi = p.hi / q;
    if (klo > khi) return p.nominal;
    const std::uint64_t span = khi - klo + 1;
    const auto k = std::min<std::uint64_t>(static_cast<std::uint64_t>(u * static_cast<double>(span)), span - 1);
    return (klo + k) * q;
}

std::uint64_t member_value(const std::vector<std::map<std::size_t, std::uint64_t>>& calibrated_draws,
                           const cfg::uncertain_param& p, std::size_t j, std::size_t i, double u) {
    if (!calibrated_draws.empty()) {
        const auto& d = calibrated_draws[i % calibrated_draws.size()];
        if (const auto it = d.find(j); it != d.end()) return it->second;
    }
    return draw(p, u);
}

double quantile(std::vector<double> xs, double q) {
    if (xs.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::sort(xs.begin(), xs.end());
    const double h = (static_cast<double>(xs.size()) - 1) * std::clamp(q, 0.0, 1.0);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, xs.size() - 1);
    return xs[lo] + (h - static_cast<double>(lo)) * (xs[hi] - xs[lo]);
}

namespace {
std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<std::size_t> idx(v.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < idx.size();) {
        std::size_t j = i;
        while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
        const double avg = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
        for (std::size_t k = i; k <= j; ++k) r[idx[k]] = avg;
        i = j + 1;
    }
    return r;
}
}  // namespace

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size() || x.size() < 3) return 0;
    const auto rx = ranks(x), ry = ranks(y);
    const double n = static_cast<double>(x.size());
    const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n, my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < rx.size(); ++i) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
}

}  // namespace cohsim

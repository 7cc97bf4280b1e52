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

std::vector<sweep_axis> member_axes(const platform_config& cfg, std::size_t n, const std::vector<std::string>& fixed,
                                    nlohmann::ordered_json* params, nlohmann::ordered_json* draws) {
    std::vector<std::size_t> drawn;  // indices into cfg.uncertain
    for (std::size_t j = 0; j < cfg.uncertain.size(); ++j)
        if (std::find(fixed.begin(), fixed.end(), cfg.uncertain[j].path) == fixed.end()) drawn.push_back(j);
    const auto u = latin_hypercube(n, drawn.size(), cfg.run.seed);
    std::vector<sweep_axis> axes{{"run.seed", {}}};
    for (std::size_t i = 0; i < n; ++i) axes[0].values.push_back(std::to_string(cfg.run.seed + i));
    if (params) *params = nlohmann::ordered_json::array();
    if (draws) *draws = nlohmann::ordered_json::array();
    for (std::size_t j : drawn) {
        const auto& up = cfg.uncertain[j];
        axes.push_back({up.path, {}});
        // Taken from the calibrated draws in turn (members share them) or drawn per member.
        const bool calibrated = std::any_of(cfg.calibrated_draws.begin(), cfg.calibrated_draws.end(),
                                            [&](const auto& d) { return d.count(j) > 0; });
        if (params)
            params->push_back({{"path", up.path}, {"type", up.type}, {"nominal", up.format(up.nominal)},
                               {"range", up.format(up.lo) + ".." + up.format(up.hi)}, {"calibrated", calibrated}});
    }
    for (std::size_t i = 0; i < n; ++i) {
        nlohmann::ordered_json row = nlohmann::ordered_json::array();
        for (std::size_t d = 0; d < drawn.size(); ++d) {
            const auto& up = cfg.uncertain[drawn[d]];
            const std::uint64_t v = member_value(cfg.calibrated_draws, up, drawn[d], i, u[i][d]);
            row.push_back(v);
            axes[d + 1].values.push_back(up.format(v));
        }
        if (draws) draws->push_back(row);
    }
    return axes;
}

}  // namespace cohsim

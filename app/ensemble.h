// The statistics of an ensemble (`cohsim predict`, `cohsim sweep --members`):
// Latin hypercube draws of the uncertain parameters, quantiles for bands, and
// Spearman's rank correlation for what the outcome depends on. Pure
// functions, deterministic per seed on every host; and the members of an
// ensemble of a config, as the axes its sweep runs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/platform.h"
#include "app/sweep.h"
#include "sim/schema.h"

namespace cohsim {

// n points of a Latin hypercube in [0,1)^d, seeded: for each dimension the n
// strata [k/n, (k+1)/n) are each hit exactly once, in a random order, at a
// random place inside the stratum. Result[i][j]: member i, dimension j.
std::vector<std::vector<double>> latin_hypercube(std::size_t n, std::size_t d, std::uint64_t seed);

// The value (in base units) a uniform u in [0,1) picks from p's range: every
// multiple of p.quantum in [lo, hi] equally likely (the range's ends rounded
// inward to the quantum; the nominal value when none is inside).
std::uint64_t draw(const cfg::uncertain_param& p, double u);

// Member i's value of uncertain value j: from the i-th (cyclically) of the
// platform's calibrated draws when they hold j, else draw(p, u).
std::uint64_t member_value(const std::vector<std::map<std::size_t, std::uint64_t>>& calibrated_draws,
                           const cfg::uncertain_param& p, std::size_t j, std::size_t i, double u);

// The q-quantile (0..1) of xs, linear between order statistics (R's type 7,
// numpy's default). xs need not be sorted; empty: NaN.
double quantile(std::vector<double> xs, double q);

// Spearman's rank correlation of x and y (Pearson's on the ranks, ties given
// their average rank); 0 when either is constant or there are fewer than 3.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

// The n members of an ensemble of `cfg`: member i runs seed run.seed + i and
// the i-th draw of each uncertain value (member_value) not named in `fixed`
// (a swept path: the sweep sets it). As zip axes, run.seed first, each of n
// values; `params` and `draws` (when given) describe them for ensemble.json:
// per value its path, type, nominal, range and whether the platform's
// calibrated draws supply it; per member the values in base units.
std::vector<sweep_axis> member_axes(const platform_config& cfg, std::size_t n, const std::vector<std::string>& fixed,
                                    nlohmann::ordered_json* params = nullptr, nlohmann::ordered_json* draws = nullptr);

}  // namespace cohsim

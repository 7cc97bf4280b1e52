#include "workloads/contention.h"

#include <cmath>

#include "sim/units.h"

#include <algorithm>
#include <cstdio>

namespace cohsim {

const char* name(verdict v) {
    switch (v) {
        case verdict::fair: return "fair";
        case verdict::disadvantaged: return "DISADVANTAGED";
        case verdict::starved: return "STARVED";
        case verdict::dominant: return "DOMINANT";
        case verdict::too_few: return "too few samples";
    }
    return "?";
}

std::string count_text(std::uint64_t n) {
    char buf[32];
    if (n >= 1'000'000'000) std::snprintf(buf, sizeof buf, "%.1fG", n / 1e9);
    else if (n >= 1'000'000) std::snprintf(buf, sizeof buf, "%.1fM", n / 1e6);
    else if (n >= 10'000) std::snprintf(buf, sizeof buf, "%.1fk", n / 1e3);
    else std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(n));
    return buf;
}

contention judge(const std::vector<contender>& cores, double run_ns) {
    contention out;
    if (cores.empty()) return out;
    double sum = 0, sum2 = 0;
    for (const auto& c : cores) sum += static_cast<double>(c.acquisitions), sum2 += double(c.acquisitions) * double(c.acquisitions);
    const double n = static_cast<double>(cores.size());
    out.jain = sum2 > 0 ? sum * sum / (n * sum2) : 1.0;
    out.turn_ns = sum > 0 ? run_ns * n / sum : 0;
    const bool contended = cores.size() > 1;
    out.enough = !contended || sum / n >= min_acquisitions_per_core;
    const auto best = std::max_element(cores.begin(), cores.end(),
                                       [](const contender& a, const contender& b) { return a.acquisitions < b.acquisitions; });
    const double fair = 1.0 / n;
    for (const auto& c : cores) {
        contender_result r;
        r.id = c.id;
        r.acquisitions = c.acquisitions;
        r.share = sum > 0 ? static_cast<double>(c.acquisitions) / sum : fair;
        r.longest_wait_ns = c.longest_wait_ns;
        r.longest_wait_turns = out.turn_ns > 0 ? c.longest_wait_ns / out.turn_ns : 0;
        const double wait_frac = run_ns > 0 ? c.longest_wait_ns / run_ns : 0;
        if (!out.enough) r.v = verdict::too_few;
        else if (!contended) r.v = verdict::fair;  // nobody to lose to
        else if (r.share < 0.01 * fair) r.v = verdict::starved;
        else if (r.share < 0.5 * fair || r.longest_wait_turns >= 100 || wait_frac >= 0.25) r.v = verdict::disadvantaged;
        else if (r.share > (n + 1) / (2 * n)) r.v = verdict::dominant;
        char share[32];
        std::snprintf(share, sizeof share, "%.2g", r.share);
        r.reason = c.id + " " + name(r.v) + ": " + count_text(c.acquisitions) + " acquisitions";
        if (&c != &*best) r.reason += " vs " + count_text(best->acquisitions) + " for " + best->id;
        r.reason += std::string(" (share ") + share + "); longest wait " + time_text(c.longest_wait_ns);
        if (r.longest_wait_turns > 0) {
            char turns[32];
            std::snprintf(turns, sizeof turns, "%.3g", r.longest_wait_turns);
            // Many turns in words, not exponents: 3720, 87.6k, 1.9M.
            const std::string t = r.longest_wait_turns >= 100 ? count_text(static_cast<std::uint64_t>(std::llround(r.longest_wait_turns))) : turns;
            r.reason += " (" + t + " turns)";
        }
        if (r.v == verdict::too_few) {
            char avg[32];
            std::snprintf(avg, sizeof avg, "%.3g", sum / n);
            r.reason = c.id + ": too few samples: " + avg + " acquisitions per core on average, a verdict needs " +
                       std::to_string(static_cast<int>(min_acquisitions_per_core)) + " (run longer)";
        }
        out.cores.push_back(r);
    }
    return out;
}

}  // namespace cohsim

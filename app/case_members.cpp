#include "app/case_members.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/ensemble.h"
#include "app/options.h"
#include "app/platform.h"
#include "app/results.h"
#include "app/spawn.h"
#include "app/sweep.h"
#include "app/yaml_reader.h"
#include "sim/config_tree.h"
#include "sim/files.h"
#include "sim/units.h"

namespace cohsim {

namespace fs = std::filesystem;

namespace {

struct config_run {
    std::string case_id, which, file;
    std::vector<std::size_t> param_index;  // this config's uncertain values -> the union's index
    std::vector<cfg::uncertain_param> params;
    std::vector<std::map<std::size_t, std::uint64_t>> calibrated_draws;
    std::uint64_t seed = 1;
    duration length;
};

}  // namespace

case_members run_case_members(const std::vector<calibration_case>& cases, const fs::path& cases_dir, std::size_t n,
                              std::size_t replicates, unsigned jobs, const std::string& max_duration, const fs::path& out, bool calibrated,
                              std::uint64_t seed, const std::function<std::vector<bool>(const case_members&)>& screen,
                              bool reject_early) {
    case_members m;
    std::vector<config_run> runs;
    std::map<std::string, std::size_t> index_of;
    const duration cap = max_duration.empty() ? duration{~0ULL} : parse_duration(max_duration);
    for (const auto& c : cases)
        for (const auto& [which, name] : {std::pair<std::string, std::string>{"config", c.config}, {"better", c.better}}) {
            if (name.empty()) continue;
            config_run r{c.id, which, (cases_dir / name).string(), {}, {}, {}, 1, {}};
            const platform_config cfg = load_platform(r.file, {}, calibrated);
            r.calibrated_draws = cfg.calibrated_draws;
            cfg::node tree = cfg::load_file(r.file);
            r.seed = cfg.run.seed;
            r.length = std::min(cfg.run.length, cap);
            r.params = cfg.uncertain;
            for (const auto& u : cfg.uncertain) {
                auto it = index_of.find(u.path);
                if (it == index_of.end()) {
                    it = index_of.emplace(u.path, m.params.size()).first;
                    m.params.push_back(u);
                    const cfg::node* v = cfg::find_path(tree, u.path);
                    m.param_files.push_back(v ? same_file(v->loc.file) : std::string());
                }
                r.param_index.push_back(it->second);
            }
            runs.push_back(r);
        }
    // Run k is replicate k % R of draw k / R, with its own seed.
    const std::size_t R = std::max<std::size_t>(1, replicates), runs_n = n * R;
    const auto u = latin_hypercube(n, m.params.size(), seed);
    m.draws.assign(runs_n, std::vector<std::uint64_t>(m.params.size(), 0));  // filled per config below

    // Every config's sweep: run k's seed and values (the draws are filled here, before anything runs).
    std::vector<sweep_def> defs;
    for (const config_run& cr : runs) {
        sweep_def def;
        def.config = fs::absolute(cr.file).string();
        def.sets = {"run.duration=" + to_string(cr.length)};
        def.zip = true;
        sweep_axis seeds{"run.seed", {}};
        for (std::size_t k = 0; k < runs_n; ++k) seeds.values.push_back(std::to_string(cr.seed + k));
        def.axes.push_back(seeds);
        for (std::size_t j = 0; j < cr.params.size(); ++j) {
            sweep_axis a{cr.params[j].path, {}};
            for (std::size_t k = 0; k < runs_n; ++k) {
                // This config's own range, at the draw's shared position in the hypercube.
                const std::size_t i = k / R;
                const std::uint64_t v = member_value(cr.calibrated_draws, cr.params[j], j, i, u[i][cr.param_index[j]]);
                a.values.push_back(cr.params[j].format(v));
                m.draws[k][cr.param_index[j]] = v;
            }
            def.axes.push_back(a);
        }
        defs.push_back(def);
    }
    // The screen sees each draw once (its first run's values) and says which draws run.
    std::vector<bool> wanted(n, true);
    if (screen) {
        case_members per_draw = m;
        per_draw.draws.clear();
        for (std::size_t i = 0; i < n; ++i) per_draw.draws.push_back(m.draws[i * R]);
        wanted = screen(per_draw);
        wanted.resize(n, false);
    }
    m.cases_run.assign(runs_n, 0);
    std::vector<json> results(runs_n, json::object());
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t r = 0, ci = 0; r < runs.size(); ++ci) {
        // Case ci: its configs are runs[r .. e).
        std::size_t e = r;
        while (e < runs.size() && runs[e].case_id == runs[r].case_id) ++e;
        std::vector<std::size_t> chosen;  // the runs that run (point k of every sweep is run k)
        for (std::size_t k = 0; k < runs_n; ++k)
            if (wanted[k / R]) chosen.push_back(k);
        for (; r < e && !chosen.empty(); ++r) {
            const config_run& cr = runs[r];
            const fs::path dir = out / cr.case_id / fs::path(cr.file).stem();
            std::cerr << "cohsim: " << cr.case_id << " (" << fs::path(cr.file).filename().string() << "): " << chosen.size()
                      << " runs of " << to_string(cr.length) << " [" << r + 1 << "/" << runs.size() << "]\n";
            // The whole sweep, of which only the chosen points run: the same
            // directory serves a screened and an unscreened calibration.
            run_sweep(defs[r], dir, jobs, dir.string(), chosen.size() < runs_n ? &chosen : nullptr);
            for (std::size_t k : chosen) {
                const fs::path f = dir / "points" / point_name(k) / "result.json";
                if (!fs::exists(f)) continue;
                try {
                    results[k][cr.case_id][cr.which] = json::parse(read_file(f.string()));
                } catch (const json::exception& ex) {
                    std::cerr << "cohsim: " << f.string() << ": unreadable result (" << ex.what() << ")\n";
                }
            }
        }
        r = e;
        for (std::size_t k : chosen) m.cases_run[k] = ci + 1;
        if (!reject_early) continue;
        // A draw that fails a check of this case in any run is not kept
        // whatever the later cases give: it runs no more of them. (A check
        // against a case not yet run waits for the end.)
        std::set<std::string> done_ids;
        for (std::size_t q = 0; q < e; ++q) done_ids.insert(runs[q].case_id);
        const calibration_case* c = nullptr;
        for (const auto& cc : cases)
            if (cc.id == runs[e - 1].case_id) c = &cc;
        std::size_t dropped = 0;
        for (std::size_t k : chosen) {
            if (!wanted[k / R]) continue;
            // All the cases: a check may compare with another case (`than`).
            for (const check_row& row : evaluate(cases, results[k], false))
                if (row.case_id == c->id && row.counts_as_failure() &&
                    (c->checks[row.check_index].than.empty() || done_ids.count(c->checks[row.check_index].than))) {
                    wanted[k / R] = false;
                    ++dropped;
                    break;
                }
        }
        if (dropped && e < runs.size())
            std::cerr << "cohsim: " << dropped << " draws miss a check of " << c->id << ": the later cases run without them\n";
    }
    m.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (std::size_t k = 0; k < runs_n; ++k) m.rows.push_back(evaluate(cases, results[k], false));
    return m;
}

}  // namespace cohsim

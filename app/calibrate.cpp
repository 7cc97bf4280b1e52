#include "app/calibrate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <ctime>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <unistd.h>

#include "app/case_members.h"
#include "app/data.h"
#include "app/ensemble.h"
#include "app/options.h"
#include "app/platform.h"
#include "app/results.h"
#include "app/spawn.h"
#include "app/sweep.h"
#include "app/text_table.h"
#include "app/yaml_reader.h"
#include "sim/config_tree.h"
#include "sim/files.h"
#include "sim/units.h"

namespace cohsim {

namespace fs = std::filesystem;

namespace {

// Whether any value of the loaded tree was written in `file`.
bool tree_uses(const cfg::node& n, const std::string& file) {
    if (!n.loc.file.empty() && same_file(n.loc.file) == file) return true;
    for (const auto& [k, v] : n.entries)
        if (tree_uses(v, file)) return true;
    for (const auto& v : n.items)
        if (tree_uses(v, file)) return true;
    return false;
}

const char* const begin_marker = "# ---- calibrated ranges: written by `cohsim calibrate` (re-run it rather than edit) ----";
const char* const end_marker = "# ---- end of calibrated ranges ----";

// The platform's rows of configs/references.yaml, checked per draw beside the
// cases with the draw's values of the platform (the cases' other files do not
// describe the silicon): its core-to-core rows by `cohsim c2c PLATFORM
// --check` on the first two cores of every cluster (every kind of pair), its
// load-to-use rows by `cohsim latmem PLATFORM --check` on the first core of
// each cluster they name, at the working sets they name; both at the
// reference board's clocks. A row marked known_miss is reported, not counted.
struct reference_rows {
    std::vector<std::string> names;        // "c2c little", "latmem big 256KiB", in references.yaml's order
    std::vector<std::vector<int>> result;  // [draw][row]: 1 pass, 0 miss, -1 a known miss (not counted)
};

reference_rows platform_references(const std::string& platform, const case_members& m, std::size_t n, unsigned jobs,
                                   const fs::path& out) {
    reference_rows r;
    const std::string stem = fs::path(platform).stem().string();
    const YAML::Node root = load_yaml_file(find_config("references.yaml"), "a readable references.yaml");
    if (!root[stem]) return r;
    const platform_config cfg = load_platform(platform, {}, false);
    // One measurement program per kind of reference: its arguments, its report and what names a row.
    struct bench {
        std::string dir;                // under out: one folder per draw
        std::vector<std::string> args;  // after `cohsim`
        std::string report;             // the report's file in the draw's folder
        std::function<std::string(const json&)> name;
    };
    std::vector<bench> benches;
    if (root[stem]["c2c"]) {
        std::string cores;
        for (const auto& c : cfg.clusters)
            for (std::uint32_t k = 0; k < std::min<std::uint32_t>(2, c.second.cores); ++k)
                cores += (cores.empty() ? "" : ",") + c.first + "." + std::to_string(k);
        benches.push_back({"c2c", {"c2c", platform, "--check", "--cores", cores}, "c2c.json",
                           [](const json& e) { return "c2c " + e["pairs"].get<std::string>(); }});
    }
    if (root[stem]["latmem"]) {
        std::map<std::string, std::string> sizes;  // cluster -> its rows' working sets
        for (const auto& row : root[stem]["latmem"])
            if (row["core"] && row["size"]) {
                std::string& s = sizes[row["core"].as<std::string>()];
                s += (s.empty() ? "" : ",") + row["size"].as<std::string>();
            }
        for (const auto& [cluster, list] : sizes)
            if (cfg.clusters.find(cluster))
                benches.push_back({"latmem-" + cluster, {"latmem", platform, "--check", "--core", cluster + ".0", "--sizes", list},
                                   "latmem.json", [](const json& e) {
                                       return "latmem " + e["core"].get<std::string>() + " " + e["size"].get<std::string>();
                                   }});
    }
    if (benches.empty()) return r;
    std::vector<child_job> children(n * benches.size());
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t b = 0; b < benches.size(); ++b) {
            child_job& c = children[i * benches.size() + b];
            c.args = benches[b].args;
            for (const std::string& a : {std::string("-j"), std::string("1"), std::string("--out"),
                                         (out / benches[b].dir / point_name(i)).string()})
                c.args.push_back(a);
            for (std::size_t j = 0; j < m.params.size(); ++j)
                if (m.param_files[j] == platform) {
                    c.args.push_back("--set");
                    c.args.push_back(m.params[j].path + "=" + m.params[j].format(m.draws[i][j]));
                }
            c.log = (out / benches[b].dir / (point_name(i) + ".log")).string();
            fs::create_directories(out / benches[b].dir);
        }
    std::string what;
    for (const auto& b : benches) what += (what.empty() ? "" : ", ") + b.args[0] + " --check" + (b.args.size() > 5 ? " " + b.args[3] + " " + b.args[4] : "");
    std::cerr << "cohsim: " << stem << "'s published figures (configs/references.yaml): per draw, cohsim " << what << " (" << children.size()
              << " runs)\n";
    const auto t0 = std::chrono::steady_clock::now();
    const bool tty = isatty(STDERR_FILENO);
    std::size_t finished = 0, failed = 0;
    run_children(children, jobs, [&](std::size_t k) {
        failed += children[k].status > 1;
        const std::string line = progress_text(++finished, children.size(), failed, t0);
        if (tty)
            std::cerr << "\r" << line << "   " << (finished == children.size() ? "\n" : "") << std::flush;
        else
            std::cerr << line << ": draw " << k / benches.size() << "'s " << children[k].args[0] << " done\n";
    });
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<int> row;
        for (std::size_t b = 0; b < benches.size(); ++b) {
            const child_job& c = children[i * benches.size() + b];
            const fs::path f = out / benches[b].dir / point_name(i) / benches[b].report;
            if (c.status > 1 || !fs::exists(f))
                throw std::runtime_error("cohsim " + benches[b].args[0] + " failed for draw " + std::to_string(i) + " (exit " +
                                         std::to_string(c.status) + "): see " + c.log);
            const json report = json::parse(read_file(f.string()));
            for (const auto& e : report.value("checks", json::array())) {
                if (i == 0) r.names.push_back(benches[b].name(e));
                row.push_back(e.contains("known_miss") ? -1 : e["pass"].get<bool>() ? 1 : 0);
            }
        }
        r.result.push_back(row);
    }
    return r;
}

}  // namespace

std::string replace_calibrated_block(const std::string& text, const std::string& block) {
    const auto b = text.find(begin_marker);
    if (b == std::string::npos) {
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            if (line.rfind("calibrated:", 0) == 0)
                throw std::runtime_error("it has a `calibrated:` key that `cohsim calibrate` did not write; remove it first");
        return text + (text.empty() || text.back() == '\n' ? "" : "\n") + "\n" + block;
    }
    const auto e = text.find(end_marker, b);
    if (e == std::string::npos) throw std::runtime_error("its calibrated block has no end marker ('" + std::string(end_marker) + "')");
    auto after = text.find('\n', e);
    after = after == std::string::npos ? text.size() : after + 1;
    return text.substr(0, b) + block + text.substr(after);
}

double narrowing_by_chance(std::size_t kept, double width_kept) {
    if (kept < 2) return 1.0;
    const double w = std::clamp(width_kept, 0.0, 1.0), k = static_cast<double>(kept);
    return std::clamp(k * std::pow(w, k - 1) - (k - 1) * std::pow(w, k), 0.0, 1.0);
}

int calibrate(const calibration_request& q) {
    const std::string &platform = q.platform, &cases_file = q.cases_file, &dur = q.max_duration, &out_dir = q.out_dir;
    const std::size_t n = q.draws, replicates = q.replicates;
    const unsigned jobs = q.jobs;
    const bool dry = q.dry_run;
    const std::uint64_t seed = q.seed;
    const std::vector<std::string>& also = q.also;
    const fs::path cases_dir = fs::path(cases_file).parent_path();

    // The cases whose configs use the platform.
    std::vector<calibration_case> cases;
    for (const auto& c : load_cases(cases_file)) {
        bool uses = false;
        for (const auto& f : {c.config, c.better})
            if (!f.empty() && fs::exists(cases_dir / f)) uses = uses || tree_uses(cfg::load_file((cases_dir / f).string()), platform);
        if (uses) cases.push_back(c);
    }
    if (cases.empty()) throw usage_error("no case of " + cases_file + " uses " + q.platform_arg + ": nothing to calibrate on");
    // A lifts_little check needs its other case, which uses the platform too if it is in the file at all.
    std::string ids;
    for (const auto& c : cases) ids += (ids.empty() ? "" : ", ") + c.id;
    prepare_output_dir(out_dir, "--out");  // before any run, not after them all
    std::cerr << "cohsim calibrate: " << n << " draws x " << replicates << " runs x " << cases.size() << " cases (" << ids << "), runs of at most " << dur
              << ", " << jobs << " at a time, in " << out_dir << "\n";

    // The published figures first: they cost a few seconds a draw, the cases
    // a minute or more, and a draw that misses one is not kept whatever its
    // cases give, so only the draws that match them run the cases.
    reference_rows refs;
    std::function<std::vector<bool>(const case_members&)> screen;
    if (q.references)
        screen = [&](const case_members& d) {
            refs = platform_references(platform, d, n, jobs, fs::absolute(out_dir));
            std::vector<bool> wanted(n, true);
            std::size_t w = n;
            for (std::size_t i = 0; i < refs.result.size(); ++i)
                for (int res : refs.result[i])
                    if (res == 0 && wanted[i]) wanted[i] = false, --w;
            if (!refs.names.empty())
                std::cerr << "cohsim: " << w << " of " << n << " draws match the published figures; the cases run for those\n";
            return wanted;
        };
    const case_members all =
        run_case_members(cases, cases_dir, n, replicates, jobs, dur, fs::absolute(out_dir), false, seed, screen, true);
    // Where each check's case stands in the file (the order the cases ran in).
    auto case_index = [&](const std::string& id) {
        std::size_t c = 0;
        while (c < cases.size() && cases[c].id != id) ++c;
        return c;
    };
    // A draw passes a check when every replicate does.
    auto passes = [&](std::size_t i, std::size_t row) {
        for (std::size_t k = i * replicates; k < (i + 1) * replicates; ++k)
            if (all.rows[k][row].counts_as_failure()) return false;
        return true;
    };
    case_members m = all;  // per draw: its first replicate's values
    m.draws.clear();
    for (std::size_t i = 0; i < n; ++i) m.draws.push_back(all.draws[i * replicates]);
    std::vector<std::size_t> kept;
    json members = json::array();
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t ran = all.cases_run[i * replicates];
        bool ok = ran == cases.size();
        json runs = json::array();
        for (std::size_t k = i * replicates; k < (i + 1) * replicates && ran; ++k) {
            json checks = json::array();
            for (const check_row& r : all.rows[k]) {
                if (case_index(r.case_id) >= ran) continue;
                ok = ok && !r.counts_as_failure();
                checks.push_back({{"case", r.case_id}, {"check", r.check}, {"simulated", r.simulated}, {"result", r.verdict()}});
            }
            runs.push_back({{"run", k}, {"checks", checks}});
        }
        json published = json::array();
        for (std::size_t row = 0; row < refs.names.size(); ++row) {
            const int res = refs.result[i][row];
            ok = ok && res != 0;
            published.push_back({{"check", refs.names[row]}, {"result", res == 1 ? "PASS" : res == 0 ? "FAIL" : "known miss"}});
        }
        json draws = json::object();
        for (std::size_t j = 0; j < m.params.size(); ++j) draws[m.params[j].path] = m.params[j].format(m.draws[i][j]);
        members.push_back({{"member", i}, {"kept", ok}, {"draws", draws}, {"references", published}, {"cases_run", ran}, {"runs", runs}});
        if (ok) kept.push_back(i);
    }
    // Per check, how many draws passed it: which measurement did the narrowing
    // (the published figures of every draw; each case's checks of the draws
    // that ran it, which are those that passed everything before it).
    text_table ct(2);
    ct.header({"case", "check", "draws passing"});
    for (std::size_t row = 0; row < refs.names.size(); ++row) {
        std::size_t pass = 0;
        for (std::size_t i = 0; i < n; ++i) pass += refs.result[i][row] == 1;
        ct.row({row ? "" : "references.yaml", refs.names[row],
                refs.result[0][row] < 0 ? "known miss, not counted" : std::to_string(pass) + " of " + std::to_string(n)});
    }
    for (std::size_t row = 0; row < all.rows[0].size(); ++row) {
        const std::size_t c = case_index(all.rows[0][row].case_id);
        std::size_t pass = 0, ran = 0, named = 0;
        bool skipped = true;
        for (std::size_t i = 0; i < n; ++i)
            if (all.cases_run[i * replicates] > c) ++ran, pass += passes(i, row);
        for (std::size_t k = all.rows.size(); k-- > 0;)
            if (all.cases_run[k] > c) {
                skipped = skipped && all.rows[k][row].outcome == check_row::result::skipped;
                named = k;  // a run of the case names the check as its results do
            }
        ct.row({all.rows[named][row].case_id, all.rows[named][row].check,
                ran == 0 ? "not run" : skipped ? "skipped" : std::to_string(pass) + " of " + std::to_string(ran)});
    }
    std::cout << ct.str() << "\n" << kept.size() << " of " << n << " draws pass every check\n\n";

    // The narrowed ranges: the kept draws' extent; the nominal, the kept draw
    // nearest the kept draws' medians (each value scaled by its prior width).
    // Every drawn value is narrowed: the platform's, and those of the cases'
    // other files (the harness's work, the activity profile's handler), which
    // belong to the measurement runs. Each file gets the block of its own
    // values; draw i of every file is one joint draw (one id ties them).
    std::vector<std::size_t> own(m.params.size());
    for (std::size_t j = 0; j < own.size(); ++j) own[j] = j;
    std::size_t centre = kept.empty() ? 0 : kept[0];
    if (!kept.empty()) {
        std::vector<double> med(m.params.size());
        for (std::size_t j : own) {
            std::vector<double> xs;
            for (std::size_t i : kept) xs.push_back(static_cast<double>(m.draws[i][j]));
            med[j] = quantile(xs, 0.5);
        }
        double best = INFINITY;
        for (std::size_t i : kept) {
            double dist = 0;
            for (std::size_t j : own) {
                const double w = std::max(1.0, static_cast<double>(m.params[j].hi - m.params[j].lo));
                dist += std::pow((static_cast<double>(m.draws[i][j]) - med[j]) / w, 2);
            }
            if (dist < best) best = dist, centre = i;
        }
    }
    text_table t;
    t.header({"parameter", "file", "before", "calibrated", "width kept", "by chance"});
    json narrowed = json::array();
    std::vector<std::string> post(m.params.size());
    for (std::size_t j : own) {
        const cfg::uncertain_param& up = m.params[j];
        const std::string prior = up.text(), file = fs::path(m.param_files[j]).filename().string();
        if (kept.empty()) {
            t.row({up.path, file, prior, "-", "-", "-"});
            continue;
        }
        std::uint64_t lo = ~0ULL, hi = 0;
        for (std::size_t i : kept) lo = std::min(lo, m.draws[i][j]), hi = std::max(hi, m.draws[i][j]);
        const double frac = up.hi > up.lo ? static_cast<double>(hi - lo) / static_cast<double>(up.hi - up.lo) : 1.0;
        post[j] = up.format(m.draws[centre][j]) + " ~ " + up.format(lo) + ".." + up.format(hi);
        const double chance = narrowing_by_chance(kept.size(), frac);
        char w[16], c[16];
        std::snprintf(w, sizeof w, "%.0f%%", 100 * frac);
        std::snprintf(c, sizeof c, chance < 0.001 ? "<0.1%%" : "%.1f%%", 100 * chance);
        t.row({up.path, file, prior, post[j], w, c});
        narrowed.push_back({{"path", up.path}, {"file", m.param_files[j]}, {"prior", prior}, {"calibrated", post[j]},
                            {"width_kept", frac}, {"by_chance", chance}});
    }
    std::cout << t.str();
    if (!kept.empty()) {
        char mean[16];
        std::snprintf(mean, sizeof mean, "%.0f%%", 100.0 * (static_cast<double>(kept.size()) - 1) / (static_cast<double>(kept.size()) + 1));
        std::cout << "(by chance: how often " << kept.size() << " draws the cases did not constrain at all would span no more "
                  << "of the prior; they keep " << mean << " of its width on average. Above 5%, the narrowing is no evidence "
                  << "that the cases pin the value; what they pin may be a combination, which the kept draws carry.)\n";
        if (kept.size() < 20)
            std::cout << "note: only " << kept.size() << " draws kept: ensembles of this platform reuse these " << kept.size()
                      << " hypothetical chips, and each range is the extent of " << kept.size()
                      << " points; more draws (-n) keep more.\n";
    }
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H%MZ", std::gmtime(&now));
    const std::string id = fs::path(platform).stem().string() + "@" + stamp;
    json report = {{"platform", platform}, {"id", id}, {"cases", ids}, {"cases_file", cases_file}, {"draws", n},
                   {"kept", kept.size()}, {"max_duration", dur}, {"host_seconds", m.host_seconds},
                   {"narrowed", narrowed}, {"members", members}};
    fs::create_directories(out_dir);
    write_file_atomic((fs::path(out_dir) / "calibration.json").string(), report.dump(2) + "\n");
    std::cout << "\n" << (fs::path(out_dir) / "calibration.json").string() << "; runs took " << static_cast<long>(m.host_seconds)
              << " s of host time\n";
    if (kept.empty()) {
        std::cout << "no draw reproduced every measured figure: " << q.platform_arg << " left as it was\n";
        return 1;
    }
    // The files to write: the platform, every file a drawn value is written
    // in, and --also files (self-contained configs repeating them).
    std::vector<std::string> files = {platform};
    for (const auto& f : m.param_files)
        if (!f.empty() && std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
    for (const auto& a : also) {
        const std::string f = same_file(a);
        if (!fs::exists(f)) throw usage_error("--also " + a + ": no such file");
        if (std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
    }
    std::vector<std::pair<std::string, std::string>> writes;  // file, new text
    for (const auto& f : files) {
        // Each value's path as written in this file alone (an included file
        // sits below where it is included: the harness's params.INSIDE).
        const cfg::node alone = cfg::load_file(f);
        std::vector<std::pair<std::size_t, std::string>> here;
        for (std::size_t j : own) {
            const std::string& path = m.params[j].path;
            for (std::size_t cut = 0; cut != std::string::npos; cut = path.find('.', cut + 1)) {
                const std::string rel = cut == 0 ? path : path.substr(cut + 1);
                const cfg::node* v = cfg::find_path(const_cast<cfg::node&>(alone), rel);
                if (v && v->k == cfg::node::kind::scalar && v->text.find('~') != std::string::npos &&
                    (cut == 0 || f != platform)) {
                    here.emplace_back(j, rel);
                    break;
                }
            }
        }
        if (here.empty()) continue;
        std::ostringstream block;
        block << begin_marker << "\n# " << stamp << ", conditioned on the cases of " << fs::path(cases_file).filename().string()
              << ": " << ids << (refs.names.empty() ? "" : ";\n# and on the platform's core-to-core rows of references.yaml")
              << ".\n# " << kept.size() << " of " << n << " Latin-hypercube draws (" << replicates
              << " runs each, each of at most " << dur << ") passed every check in every run.\n# Range: the kept draws' extent; nominal: the kept draw nearest their medians.\n"
              << "# The prior ranges stay on the values above (calibrate draws from those).\ncalibrated:\n";
        for (const auto& [j, rel] : here) block << "  " << rel << ": " << post[j] << "\n";
        block << "# The kept draws themselves, one hypothetical chip and measurement each; draw i of every file\n"
                 "# of this calibration (same id) is one joint draw, which ensembles take their members from in turn.\n"
                 "calibrated_draws:\n  id: "
              << id << "\n  draws:\n";
        for (std::size_t q = 0; q < kept.size(); ++q) {
            const std::size_t i = kept[q];
            block << "    " << q << ": {";
            for (std::size_t k = 0; k < here.size(); ++k)
                block << (k ? ", " : "") << here[k].second << ": " << m.params[here[k].first].format(m.draws[i][here[k].first]);
            block << "}\n";
        }
        block << end_marker << "\n";
        if (dry) {
            std::cout << "\n--dry-run: " << f << " not changed; its block would read:\n\n" << block.str();
            continue;
        }
        try {
            writes.emplace_back(f, replace_calibrated_block(read_file(f), block.str()));
        } catch (const std::runtime_error& e) {
            throw usage_error(f + ": " + e.what());
        }
    }
    // Every file is checked before any is written: all or none.
    for (const auto& [f, text] : writes) {
        write_file_atomic(f, text);
        std::cout << "wrote the calibrated ranges into " << f << "\n";
    }
    // The written files must load.
    for (const auto& c : cases) load_platform((cases_dir / c.config).string(), {}, true);
    return 0;
}

}  // namespace cohsim

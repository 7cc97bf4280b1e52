#include "app/predict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/ensemble.h"
#include "app/data.h"
#include "app/options.h"
#include "app/platform.h"
#include "app/spawn.h"
#include "app/sweep.h"
#include "app/text_table.h"
#include "sim/files.h"
#include "workloads/contention.h"

namespace cohsim {

namespace fs = std::filesystem;

namespace {

struct core_sample {
    double rate = 0, share = 0, wait_ns = 0;
    std::string verdict;
};

std::string num_text(double v) {
    if (!std::isfinite(v)) return "-";
    char buf[32];
    const double a = std::fabs(v);
    if (a >= 1e9) std::snprintf(buf, sizeof buf, "%.3gG", v / 1e9);
    else if (a >= 1e6) std::snprintf(buf, sizeof buf, "%.3gM", v / 1e6);
    else if (a >= 1e3) std::snprintf(buf, sizeof buf, "%.3gk", v / 1e3);
    else std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

json band(const std::vector<double>& xs) {
    return {{"p5", quantile(xs, 0.05)}, {"p50", quantile(xs, 0.5)}, {"p95", quantile(xs, 0.95)}};
}

std::string band_text(const json& b, std::string (*fmt)(double)) {
    return fmt(b["p5"].get<double>()) + " .. " + fmt(b["p95"].get<double>());
}

std::string wait_fmt(double ns) { return time_text(ns); }

// ---- the margin: where along one axis the verdict flips -----------------------

// One deterministic run (the base seed, every other uncertain value at its
// nominal) at each value of `path`; the focus core's verdict in each.
std::vector<std::string> verdicts_at(const sweep_def& def, const std::string& path, const std::vector<std::string>& values,
                                     const std::string& focus, const fs::path& dir, unsigned jobs) {
    sweep_def along = def;  // one axis, `path`: each value a point, run as the sweep runs its points
    along.axes = {{path, {}}};
    std::vector<child_job> runs;
    for (const auto& v : values) {
        child_job j;
        const fs::path out = dir / ("at-" + v);
        fs::create_directories(out);
        j.args = along.run_args({v}, out.string());
        j.log = (out / "run.log").string();
        runs.push_back(j);
    }
    run_children(runs, jobs, [](std::size_t) {});
    std::vector<std::string> out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const fs::path r = dir / ("at-" + values[i]) / "result.json";
        if (runs[i].status != 0 || !fs::exists(r))
            throw std::runtime_error("the margin run at " + path + "=" + values[i] + " failed (see " + runs[i].log + ")");
        std::string v = "?";
        const json res = json::parse(read_file(r.string()));
        for (const auto& c : res["cores"])
            if (c["id"] == focus && c.contains("lock")) v = c["lock"]["verdict"].get<std::string>();
        out.push_back(v);
    }
    return out;
}

// From the nominal value toward `end`: scan 8 even steps, then bisect between
// the last step that kept the nominal verdict and the first that did not,
// down to 1/512 of the way (or one quantum). Null when nothing flips.
json search_side(const sweep_def& def, const cfg::uncertain_param& axis, std::uint64_t end, const std::string& nominal_verdict,
                 const std::string& focus, const fs::path& dir, unsigned jobs) {
    const auto nom = static_cast<double>(axis.nominal), span = static_cast<double>(end) - nom;
    auto value_at = [&](double f) {
        const double x = nom + f * span;
        const std::uint64_t q = axis.quantum ? axis.quantum : 1;
        return static_cast<std::uint64_t>(std::llround(x / static_cast<double>(q))) * q;
    };
    if (end == axis.nominal) return nullptr;
    constexpr int steps = 8;
    std::vector<std::string> texts;
    for (int k = 1; k <= steps; ++k) texts.push_back(axis.format(value_at(static_cast<double>(k) / steps)));
    const auto v = verdicts_at(def, axis.path, texts, focus, dir, jobs);
    int first = -1;
    for (int k = 0; k < steps; ++k)
        if (v[k] != nominal_verdict) {
            first = k;
            break;
        }
    if (first < 0) return nullptr;
    double lo = static_cast<double>(first) / steps, hi = static_cast<double>(first + 1) / steps;
    std::string beyond = v[first];
    auto apart = [&] {  // more than one quantum between the bracket's ends
        const std::uint64_t a = value_at(lo), b = value_at(hi);
        return (a > b ? a - b : b - a) > axis.quantum;
    };
    while (hi - lo > 1.0 / 512 && apart()) {
        const double mid = (lo + hi) / 2;
        const std::string m = verdicts_at(def, axis.path, {axis.format(value_at(mid))}, focus, dir, 1)[0];
        if (m == nominal_verdict) lo = mid;
        else hi = mid, beyond = m;
    }
    const std::uint64_t flip = value_at(hi);
    return {{"flips_at", axis.format(flip)},
            {"last_kept", axis.format(value_at(lo))},
            {"verdict_beyond", beyond},
            {"change_percent", 100.0 * (static_cast<double>(flip) - nom) / nom}};
}

}  // namespace

json margin_search(const sweep_def& def, const cfg::uncertain_param& axis, const std::string& focus, std::uint64_t seed,
                   const fs::path& dir, unsigned jobs) {
    sweep_def base = def;  // the nominal run: the base seed, no draws
    base.axes.clear();
    const fs::path mdir = dir / "margin";
    std::cerr << "cohsim predict: margin along " << axis.path << " for " << focus << "\n";
    json m = {{"path", axis.path},           {"focus_core", focus},
              {"seed", seed},                {"nominal", axis.format(axis.nominal)},
              {"down_end", axis.format(axis.lo)}, {"up_end", axis.format(axis.hi)}};
    m["nominal_verdict"] = verdicts_at(base, axis.path, {axis.format(axis.nominal)}, focus, mdir, 1)[0];
    m["down"] = search_side(base, axis, axis.lo, m["nominal_verdict"], focus, mdir, jobs);
    m["up"] = search_side(base, axis, axis.hi, m["nominal_verdict"], focus, mdir, jobs);
    write_file_atomic((dir / "margin.json").string(), m.dump(2) + "\n");
    return m;
}

json prediction_report(const std::string& dir_text) {
    const fs::path dir(dir_text);
    if (!fs::exists(dir / "ensemble.json"))
        throw usage_error(dir_text + ": no ensemble.json there (expected the --out directory of cohsim predict)");
    const json ens = json::parse(read_file((dir / "ensemble.json").string()));
    const auto& params = ens.at("uncertain");
    const auto& draws = ens.at("draws");  // [member][param], base units
    const std::size_t n = ens.at("members").get<std::size_t>();

    // Per member: each contending core's figures.
    std::vector<std::size_t> done;
    std::vector<std::map<std::string, core_sample>> members(n);
    std::vector<std::string> core_order;
    double member_ns = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const fs::path r = dir / "points" / point_name(i) / "result.json";
        if (!fs::exists(r)) continue;
        const json j = json::parse(read_file(r.string()));
        const double sim_s = j.at("simulated_ns").get<double>() * 1e-9;
        member_ns = j.at("simulated_ns").get<double>();
        for (const auto& c : j.at("cores")) {
            if (!c.contains("lock") || !c["lock"].contains("verdict")) continue;
            const std::string id = c["id"].get<std::string>();
            if (std::find(core_order.begin(), core_order.end(), id) == core_order.end()) core_order.push_back(id);
            core_sample s;
            s.rate = sim_s > 0 ? c["lock"]["acquisitions"].get<double>() / sim_s : 0;
            s.share = c["lock"]["share"].get<double>();
            s.wait_ns = c["lock"]["longest_wait_ns"].get<double>();
            s.verdict = c["lock"]["verdict"].get<std::string>();
            members[i][id] = s;
        }
        done.push_back(i);
    }

    json out;
    out["config"] = ens.at("config");
    out["members"] = {{"requested", n}, {"done", done.size()}, {"member_duration_ns", member_ns}};
    out["uncertain"] = params;
    json cores = json::array();
    std::string focus;
    double focus_share = 2;
    std::map<std::string, std::vector<double>> rates;
    for (const auto& id : core_order) {
        std::vector<double> rate, share, wait;
        std::map<std::string, int> verdicts;
        for (std::size_t i : done) {
            const auto it = members[i].find(id);
            if (it == members[i].end()) continue;
            rate.push_back(it->second.rate), share.push_back(it->second.share), wait.push_back(it->second.wait_ns);
            ++verdicts[it->second.verdict];
        }
        json c;
        c["id"] = id;
        c["acquisitions_per_s"] = band(rate);
        c["share"] = band(share);
        c["longest_wait_ns"] = band(wait);
        json v = json::object();
        // The verdicts most often given first.
        std::vector<std::pair<std::string, int>> vs(verdicts.begin(), verdicts.end());
        std::stable_sort(vs.begin(), vs.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        for (const auto& [name, count] : vs) v[name] = count;
        c["verdicts"] = v;
        cores.push_back(c);
        rates[id] = rate;
        const double med = quantile(share, 0.5);
        if (med < focus_share) focus_share = med, focus = id;
    }
    out["cores"] = cores;
    // Sensitivity of the least successful core's rate to each drawn parameter.
    // |rho| below about 2/sqrt(N) is what N members of a parameter with no
    // effect give by chance (rho's sd is 1/sqrt(N-1) under no association).
    // Members that share their draws count once: N is the number of distinct
    // draws of the value. A platform's calibrated values come from its kept
    // draws in turn, so for them N is the number of distinct calibrated draws
    // used; the values drawn per member count every distinct member.
    std::vector<bool> from_calibrated(params.size());
    for (std::size_t p = 0; p < params.size(); ++p) from_calibrated[p] = params[p].value("calibrated", false);
    auto distinct_rows = [&](bool calibrated_only) {
        std::set<std::string> rows;
        for (std::size_t i : done) {
            json row = json::array();
            for (std::size_t p = 0; p < params.size(); ++p)
                if (!calibrated_only || from_calibrated[p]) row.push_back(draws.at(i).at(p));
            rows.insert(row.dump());
        }
        return rows.size();
    };
    const std::size_t n_all = distinct_rows(false);
    const bool any_calibrated = std::find(from_calibrated.begin(), from_calibrated.end(), true) != from_calibrated.end();
    const std::size_t n_cal = any_calibrated ? distinct_rows(true) : n_all;
    auto chance = [](std::size_t k) { return k == 0 ? 1.0 : 2 / std::sqrt(static_cast<double>(k)); };
    json sens = json::array();
    if (!focus.empty()) {
        out["focus_core"] = focus;
        std::vector<std::pair<double, std::size_t>> rho;
        for (std::size_t p = 0; p < params.size(); ++p) {
            std::vector<double> x;
            for (std::size_t i : done)
                if (members[i].count(focus)) x.push_back(draws.at(i).at(p).get<double>());
            rho.push_back({spearman(x, rates[focus]), p});
        }
        std::stable_sort(rho.begin(), rho.end(), [](const auto& a, const auto& b) { return std::fabs(a.first) > std::fabs(b.first); });
        for (const auto& [r, p] : rho) {
            const std::size_t k = from_calibrated[p] ? n_cal : n_all;
            sens.push_back({{"path", params[p]["path"]}, {"range", params[p]["range"]}, {"spearman", r},
                            {"distinct_draws", k}, {"chance_level", chance(k)}});
        }
    }
    out["sensitivity"] = sens;
    if (fs::exists(dir / "margin.json")) out["margin"] = json::parse(read_file((dir / "margin.json").string()));
    // The most cautious level over the parameters (each row has its own).
    if (any_calibrated) out["calibrated_draws"] = n_cal;
    out["distinct_draws"] = std::min(n_all, n_cal);
    out["chance_level"] = chance(std::min(n_all, n_cal));
    out["caveats"] = prediction_caveats(out);
    return out;
}

json prediction_caveats(const json& r) {
    json out = json::array();
    const int done = r["members"]["done"].get<int>();
    // The 5% quantile (type 7) lies at order statistic 1 + 0.05 (N - 1):
    // below the second member for N < 21.
    if (done > 0 && done < 21)
        out.push_back("with " + std::to_string(done) +
                      " members the 5-95% band's ends lie between the two lowest and between the two highest members: "
                      "it is close to the members' whole range, not a 90% interval; give -n 21 or more (41 for ends "
                      "that rest on the third member from each side)");
    // The platform's calibrated values come from its kept draws in turn: more
    // members than draws see the same few chips again.
    if (r.contains("calibrated_draws")) {
        const auto k = r["calibrated_draws"].get<int>();
        if (k < done)
            out.push_back("the " + std::to_string(done) + " members reuse " + std::to_string(k) +
                          " joint draws of the calibration (`cohsim calibrate`'s kept draws, in turn): the calibrated values "
                          "take only " + std::to_string(k) + " combinations, so the band describes " + std::to_string(k) +
                          " hypothetical chips, each under other seeds and per-member draws; how far chips differ rests on " +
                          std::to_string(k) + " points. Calibrating with more draws (-n) keeps more");
    }
    if (!r.contains("margin") || !r.contains("focus_core")) return out;
    const json& m = r["margin"];
    const std::string focus = r["focus_core"].get<std::string>(), nominal = m["nominal_verdict"].get<std::string>();
    int agreeing = 0;
    for (const auto& c : r["cores"])
        if (c["id"] == focus && c["verdicts"].contains(nominal)) agreeing = c["verdicts"][nominal].get<int>();
    if (agreeing != done || done == 0) return out;
    for (const char* side : {"down", "up"}) {
        const json& e = m[side];
        if (e.is_null()) continue;
        out.push_back("every member gave " + focus + " " + nominal + ", yet the margin run (one seed, every other value "
                      "nominal) turns it " + e["verdict_beyond"].get<std::string>() + " at " + m["path"].get<std::string>() +
                      " = " + e["flips_at"].get<std::string>() + ", inside the range: the members sit on one side of a cliff "
                      "the ranges reach, so " + std::to_string(done) + "/" + std::to_string(done) +
                      " is not a certainty; more members, or `cohsim sweep --vary " + m["path"].get<std::string>() +
                      "=... --members N` across it, show how likely each side is");
    }
    return out;
}

namespace {
// The 95% Wilson score interval of a proportion k/n, in percent: honest at
// the edges, where k/n = 0 or 1 is not certainty (4/4 gives 51..100%).
std::string wilson_text(int k, int n) {
    if (n <= 0) return "-";
    const double z = 1.959964, p = static_cast<double>(k) / n, z2n = z * z / n;
    const double centre = (p + z2n / 2) / (1 + z2n);
    const double half = z * std::sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
    char b[48];
    std::snprintf(b, sizeof b, "%.0f-%.0f%%", std::max(0.0, centre - half) * 100, std::min(1.0, centre + half) * 100);
    return b;
}
// Whether every member gave the core the same figure.
bool no_spread(const json& band) { return band["p5"].get<double>() == band["p95"].get<double>(); }
}  // namespace

std::string prediction_text(const json& r) {
    std::ostringstream os;
    const auto& m = r["members"];
    os << "prediction: " << m["done"] << " of " << m["requested"] << " members of " << r["config"].get<std::string>() << ", "
       << time_text(m["member_duration_ns"].get<double>()) << " each, " << r["uncertain"].size()
       << " uncertain parameters drawn\n\n";
    text_table t;
    t.header({"core", "acq/s median", "acq/s 5-95%", "share median", "share 5-95%", "longest wait median",
              "longest wait 5-95%", "verdicts (members)"});
    const auto done = m["done"].get<int>();
    for (const auto& c : r["cores"]) {
        std::string v;
        for (const auto& [name, count] : c["verdicts"].items())
            v += (v.empty() ? "" : ", ") + name + " " + std::to_string(count.get<int>()) + "/" + std::to_string(done) + " (95%: " +
                 wilson_text(count.get<int>(), done) + ")";
        auto share_fmt = [](double x) {
            char b[32];
            std::snprintf(b, sizeof b, "%.3g", x);
            return std::string(b);
        };
        t.row({c["id"].get<std::string>(), num_text(c["acquisitions_per_s"]["p50"].get<double>()),
               band_text(c["acquisitions_per_s"], num_text), share_fmt(c["share"]["p50"].get<double>()),
               share_fmt(c["share"]["p5"].get<double>()) + " .. " + share_fmt(c["share"]["p95"].get<double>()),
               time_text(c["longest_wait_ns"]["p50"].get<double>()), band_text(c["longest_wait_ns"], wait_fmt), v});
    }
    os << t.str();
    os << "(verdicts: members with each, and the 95% interval of its probability given so few members)\n";
    const bool identical = std::all_of(r["cores"].begin(), r["cores"].end(), [](const json& c) {
        return no_spread(c["acquisitions_per_s"]) && no_spread(c["share"]) && no_spread(c["longest_wait_ns"]);
    });
    if (identical && done > 1)
        os << "\nwarning: the " << done << " members gave identical results: nothing they draw changes this run ("
           << (r["uncertain"].empty() ? "the config has no uncertain values (NOMINAL ~ LO..HI)"
                                      : "its uncertain values do not reach these figures")
           << ", and the seeds' noise does not either); the bands have no width and the verdict counts measure no "
              "uncertainty. Give the values you are unsure of ranges, or keep run.noise on with its sources set.\n";
    const bool focus_flat = r.contains("focus_core") && [&] {
        for (const auto& c : r["cores"])
            if (c["id"] == r["focus_core"]) return no_spread(c["acquisitions_per_s"]);
        return false;
    }();
    if (focus_flat && !r["sensitivity"].empty())
        os << "\nwhat " << r["focus_core"].get<std::string>() << "'s rate depends on: nothing measurable, its rate is "
           << "the same in every member (no spread to correlate)\n";
    else if (r.contains("focus_core") && !r["sensitivity"].empty()) {
        os << "\nwhat " << r["focus_core"].get<std::string>()
           << "'s rate depends on most (Spearman's rank correlation over the members: +1 more of it, more "
              "acquisitions; -1 fewer; near 0 no monotone effect)\n";
        // One chance level for all rows, or (calibrated values shared by
        // members beside values drawn per member) a column of them.
        std::set<std::size_t> ks;
        for (const auto& e : r["sensitivity"]) ks.insert(e.value("distinct_draws", r["distinct_draws"].get<std::size_t>()));
        auto fmt = [](const char* f, double x) {
            char b[32];
            std::snprintf(b, sizeof b, f, x);
            return std::string(b);
        };
        text_table s;
        if (ks.size() > 1)
            s.header({"parameter", "range", "rho", "chance"});
        else
            s.header({"parameter", "range", "rho"});
        for (const auto& e : r["sensitivity"]) {
            std::vector<std::string> row = {e["path"].get<std::string>(), e["range"].get<std::string>(),
                                            fmt("%+.2f", e["spearman"].get<double>())};
            if (ks.size() > 1) row.push_back(fmt("%.2f", e["chance_level"].get<double>()));
            s.row(row);
        }
        os << s.str();
        if (ks.size() > 1) {
            os << "(|rho| below its row's chance level, 2/sqrt(N distinct draws of the value: " << *ks.begin()
               << " for the calibrated values, shared by the members in turn, " << *ks.rbegin()
               << " for those drawn per member), is within what chance alone gives)\n";
        } else {
            os << "(|rho| below " << fmt("%.2f", r["chance_level"].get<double>()) << ", 2/sqrt("
               << r["distinct_draws"].get<std::size_t>() << " distinct draws), is within what chance alone gives)\n";
        }
    }
    if (r.contains("caveats") && !r["caveats"].empty()) {
        os << "\ncaveats:\n";
        for (const auto& c : r["caveats"]) os << "  - " << c.get<std::string>() << "\n";
    }
    if (r.contains("margin")) {
        const json& m = r["margin"];
        os << "\nmargin along " << m["path"].get<std::string>() << " (one run per value: seed " << m["seed"]
           << ", every other value nominal): at " << m["nominal"].get<std::string>() << " " << m["focus_core"].get<std::string>()
           << " is " << m["nominal_verdict"].get<std::string>() << "\n";
        for (const char* side : {"down", "up"}) {
            const json& e = m[side];
            os << "  " << side << " to " << m[std::string(side) + "_end"].get<std::string>() << ": ";
            if (e.is_null()) {
                os << "no flip\n";
                continue;
            }
            char pct[32];
            std::snprintf(pct, sizeof pct, "%+.2f%%", e["change_percent"].get<double>());
            os << e["verdict_beyond"].get<std::string>() << " from " << e["flips_at"].get<std::string>() << " (" << pct
               << "; still " << m["nominal_verdict"].get<std::string>() << " at " << e["last_kept"].get<std::string>() << ")\n";
        }
    }
    return os.str();
}

json write_prediction(const std::string& dir_text) {
    const fs::path dir(dir_text);
    const json rep = prediction_report(dir_text);
    const sweep_def def = sweep_def::from_json(json::parse(read_file((dir / "sweep.json").string())));
    // members.csv: a member per row, its seed, its draws and each core's rate.
    std::ostringstream csv;
    csv << "member";
    for (const auto& a : def.axes) csv << "," << a.path;
    std::vector<std::string> ids;
    for (const auto& c : rep["cores"]) ids.push_back(c["id"].get<std::string>()), csv << "," << ids.back() << ".acquisitions_per_s";
    csv << "\n";
    const std::size_t n = def.axes.empty() ? 0 : def.axes[0].values.size();
    for (std::size_t i = 0; i < n; ++i) {
        const fs::path r = dir / "points" / point_name(i) / "result.json";
        if (!fs::exists(r)) continue;
        const json j = json::parse(read_file(r.string()));
        csv << i;
        for (const auto& a : def.axes) csv << "," << a.values[i];
        std::map<std::string, double> rate;
        const double sim_s = j["simulated_ns"].get<double>() * 1e-9;
        for (const auto& c : j["cores"])
            if (c.contains("lock")) rate[c["id"].get<std::string>()] = sim_s > 0 ? c["lock"]["acquisitions"].get<double>() / sim_s : 0;
        for (const auto& id : ids) {
            char b[32];
            std::snprintf(b, sizeof b, "%.6g", rate[id]);
            csv << "," << b;
        }
        csv << "\n";
    }
    write_file_atomic((dir / "members.csv").string(), csv.str());
    write_file_atomic((dir / "prediction.json").string(), rep.dump(2) + "\n");
    return rep;
}

}  // namespace cohsim

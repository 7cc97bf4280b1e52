#include "app/validate.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <yaml-cpp/yaml.h>

#include "app/yaml_reader.h"

#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/case_members.h"
#include "app/data.h"
#include "app/options.h"
#include "sim/config_tree.h"
#include "app/results.h"
#include "app/spawn.h"
#include "app/text_table.h"
#include "sim/units.h"

extern char** environ;

namespace cohsim {


namespace fs = std::filesystem;

namespace {

// ---- cases.yaml -------------------------------------------------------------

const std::set<std::string> check_kinds = {"log10_ratio",  "little_max_wait", "little_share",    "big_rate",
                                           "lifts_little", "cas_per_success", "throughput_gain"};

}  // namespace

std::vector<calibration_case> load_cases(const std::string& file) {
    yaml_reader r{file};
    const YAML::Node root = load_yaml_file(file, "a readable cases.yaml");
    r.need_map(root, "(top)");
    r.only(root, "(top)", {"cases"});
    const YAML::Node list = root["cases"];
    if (!list || !list.IsSequence()) r.fail(root, "cases", "missing or not a list", "cases: a list of cases");
    std::vector<calibration_case> out;
    std::set<std::string> ids;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node n = list[i];
        const std::string at = "cases." + std::to_string(i);
        r.need_map(n, at);
        r.only(n, at, {"id", "config", "better", "quick", "little", "big", "runs", "checks"});
        calibration_case c;
        for (const char* k : {"id", "config", "quick", "checks"})
            if (!n[k]) r.fail(n, at + "." + k, "missing", "every case has id, config, quick and checks");
        c.id = r.text(n["id"], at + ".id");
        if (!ids.insert(c.id).second) r.fail(n["id"], at + ".id", "'" + c.id + "' is used twice", "a unique id");
        c.config = r.text(n["config"], at + ".config");
        if (n["better"]) c.better = r.text(n["better"], at + ".better");
        c.quick = r.text(n["quick"], at + ".quick");
        r.time_ns(n["quick"], at + ".quick");
        if (n["little"]) c.little = r.text(n["little"], at + ".little");
        if (n["big"]) c.big = r.text(n["big"], at + ".big");
        if (n["runs"]) {
            const YAML::Node runs = n["runs"];
            if (!runs.IsSequence()) r.fail(runs, at + ".runs", "is not a list", "[little count, big count, little max wait us] per run");
            for (std::size_t k = 0; k < runs.size(); ++k) {
                const std::string rp = at + ".runs." + std::to_string(k);
                if (!runs[k].IsSequence() || runs[k].size() != 3)
                    r.fail(runs[k], rp, "is not a list of three numbers", "[little count, big count, little max wait us]");
                pair_run p{r.number(runs[k][0], rp + ".0"), r.number(runs[k][1], rp + ".1"), r.number(runs[k][2], rp + ".2")};
                if (p.little <= 0 || p.big <= 0) r.fail(runs[k], rp, "counts must be positive", "counts > 0");
                c.runs.push_back(p);
            }
        }
        const YAML::Node checks = n["checks"];
        if (!checks.IsSequence()) r.fail(checks, at + ".checks", "is not a list", "a list of {kind: ..., ...}");
        for (std::size_t k = 0; k < checks.size(); ++k) {
            const YAML::Node q = checks[k];
            const std::string cp = at + ".checks." + std::to_string(k);
            r.need_map(q, cp);
            r.only(q, cp, {"kind", "within", "factor", "min", "max", "than", "known_miss"});
            if (!q["kind"]) r.fail(q, cp + ".kind", "missing", "kind: one of the check kinds listed in cases.yaml");
            calibration_check ch;
            ch.kind = r.text(q["kind"], cp + ".kind");
            if (!check_kinds.count(ch.kind)) {
                std::string list;
                for (const auto& a : check_kinds) list += (list.empty() ? "" : ", ") + a;
                r.fail(q["kind"], cp + ".kind", "unknown check '" + ch.kind + "'", "one of " + list);
            }
            const bool time = ch.kind == "little_max_wait";
            if (q["within"]) ch.within = r.number(q["within"], cp + ".within");
            if (q["factor"]) ch.factor = r.number(q["factor"], cp + ".factor");
            if (q["min"]) ch.has_min = true, ch.min = time ? r.time_ns(q["min"], cp + ".min") : r.number(q["min"], cp + ".min");
            if (q["max"]) ch.has_max = true, ch.max = time ? r.time_ns(q["max"], cp + ".max") : r.number(q["max"], cp + ".max");
            if (q["than"]) ch.than = r.text(q["than"], cp + ".than");
            if (q["known_miss"]) {
                ch.known_miss = r.text(q["known_miss"], cp + ".known_miss");
                if (ch.known_miss.empty()) r.fail(q["known_miss"], cp + ".known_miss", "is empty", "known_miss: \"why the model misses it\"");
            }
            const bool pair = ch.kind != "cas_per_success" && ch.kind != "throughput_gain";
            if (pair && (c.little.empty() || c.big.empty()))
                r.fail(q, cp, "a " + ch.kind + " check needs the case's little and big cores", "little: CORE and big: CORE");
            if ((ch.kind == "log10_ratio" || ch.kind == "big_rate") && c.runs.empty())
                r.fail(q, cp, "a " + ch.kind + " check needs the measured runs", "runs: [[little, big, max wait us], ...]");
            if (ch.kind == "log10_ratio" && ch.within <= 0) r.fail(q, cp + ".within", "missing or not positive", "within: 1");
            if (ch.kind == "big_rate" && ch.factor < 1) r.fail(q, cp + ".factor", "missing or below 1", "factor: 1.5");
            if ((ch.kind == "little_max_wait" || ch.kind == "little_share" || ch.kind == "cas_per_success") && !ch.has_min &&
                !ch.has_max)
                r.fail(q, cp, "needs min, max or both", "min: and/or max:");
            if (ch.kind == "throughput_gain" && (!ch.has_min || c.better.empty()))
                r.fail(q, cp, "needs min and the case's `better` config", "min: 1.5 and better: FILE");
            if (ch.kind == "lifts_little" && ch.than.empty()) r.fail(q, cp + ".than", "missing", "than: CASE_ID");
            c.checks.push_back(ch);
        }
        out.push_back(std::move(c));
    }
    for (const auto& c : out)
        for (const auto& ch : c.checks)
            if (ch.kind == "lifts_little" && !ids.count(ch.than))
                throw cfg::config_error({file, 0, 0}, "cases." + c.id, "lifts_little names an unknown case '" + ch.than + "'",
                                        "the id of another case");
    return out;
}

// ---- checks -----------------------------------------------------------------

std::string check_row::verdict() const {
    return outcome == result::skipped ? "skip" : check_verdict(outcome == result::pass, !known_miss.empty());
}

namespace {

std::string num(double v, int digits = 3) {
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    std::ostringstream os;
    os.precision(digits);
    os << v;
    return os.str();
}

const json* core_of(const json& result, const std::string& id) {
    if (!result.contains("cores")) return nullptr;
    for (const auto& c : result["cores"])
        if (c.value("id", "") == id) return &c;
    return nullptr;
}

struct pair_figures {
    bool ok = false;
    std::string why;
    double little = 0, big = 0, seconds = 0, little_max_wait_ns = 0;
};

pair_figures pair_of(const json* result, const calibration_case& c) {
    pair_figures f;
    if (!result) return f.why = "no result", f;
    const json* l = core_of(*result, c.little);
    const json* b = core_of(*result, c.big);
    if (!l || !b || !l->contains("lock") || !b->contains("lock"))
        return f.why = "the result has no lock figures for " + c.little + " and " + c.big, f;
    f.little = (*l)["lock"].value("acquisitions", 0.0);
    f.big = (*b)["lock"].value("acquisitions", 0.0);
    f.little_max_wait_ns = (*l)["lock"].value("longest_wait_ns", 0.0);
    f.seconds = result->value("simulated_ns", 0.0) / 1e9;
    f.ok = f.seconds > 0;
    if (!f.ok) f.why = "the run simulated no time";
    return f;
}

// Operations per second: CAS successes plus fallbacks when the program counts
// them (lockref), else lock acquisitions.
double ops_per_second(const json& result) {
    double ops = 0;
    for (const auto& c : result.value("cores", json::array())) {
        if (c.contains("program") && c["program"].contains("cas_successes"))
            ops += c["program"].value("cas_successes", 0.0) + c["program"].value("fallbacks", 0.0);
        else if (c.contains("lock"))
            ops += c["lock"].value("acquisitions", 0.0);
    }
    const double s = result.value("simulated_ns", 0.0) / 1e9;
    return s > 0 ? ops / s : 0;
}

}  // namespace

std::vector<check_row> evaluate(const std::vector<calibration_case>& cases, const json& results, bool quick) {
    using R = check_row::result;
    std::vector<check_row> rows;
    auto result_of = [&](const std::string& id, const char* which) -> const json* {
        if (!results.contains(id) || !results[id].contains(which)) return nullptr;
        return &results[id][which];
    };
    for (const auto& c : cases) {
        const json* res = result_of(c.id, "config");
        const pair_figures sim = c.little.empty() ? pair_figures{} : pair_of(res, c);
        // Measured means over the published runs (each 20 s).
        double m_log = 0, m_little = 0, m_big = 0, m_wait_lo = 0, m_wait_hi = 0;
        for (std::size_t i = 0; i < c.runs.size(); ++i) {
            const auto& r = c.runs[i];
            m_log += std::log10(r.little / r.big) / static_cast<double>(c.runs.size());
            m_little += r.little / static_cast<double>(c.runs.size());
            m_big += r.big / static_cast<double>(c.runs.size());
            m_wait_lo = i ? std::min(m_wait_lo, r.little_max_wait_us) : r.little_max_wait_us;
            m_wait_hi = std::max(m_wait_hi, r.little_max_wait_us);
        }
        const double measured_seconds = 20;
        std::vector<double> m_waits;
        for (const auto& r : c.runs) m_waits.push_back(r.little_max_wait_us * 1e3);
        std::sort(m_waits.begin(), m_waits.end());
        for (std::size_t ci = 0; ci < c.checks.size(); ++ci) {
            const calibration_check& ch = c.checks[ci];
            check_row row;
            row.case_id = c.id;
            row.check = ch.kind;
            row.check_index = ci;
            row.known_miss = ch.known_miss;
            auto range_text = [&](auto fmt) {
                if (ch.has_min && ch.has_max) return fmt(ch.min) + " .. " + fmt(ch.max);
                return ch.has_min ? ">= " + fmt(ch.min) : "<= " + fmt(ch.max);
            };
            auto in_range = [&](double v) { return (!ch.has_min || v >= ch.min) && (!ch.has_max || v <= ch.max); };
            const bool pair = ch.kind != "cas_per_success" && ch.kind != "throughput_gain";
            if (pair && !sim.ok) {
                row.outcome = R::fail;
                row.note = sim.why.empty() ? "no result" : sim.why;
                rows.push_back(row);
                continue;
            }
            if (ch.kind == "log10_ratio") {
                const double v = sim.little > 0 ? std::log10(sim.little / sim.big) : -INFINITY;
                row.value = v, row.reference = m_log;
                row.check = "log10(little/big)";
                row.measured = num(m_log, 3) + " (" + num(m_little, 3) + " vs " + num(m_big, 3) + ")";
                row.simulated = num(v, 3) + " (" + num(sim.little, 3) + " vs " + num(sim.big, 3) + ")";
                if (quick) {
                    // Direction: both more than 10x apart, or both not.
                    row.tolerance = m_log < -1 ? "< -1 (direction)" : ">= -1 (direction)";
                    row.outcome = (v < -1) == (m_log < -1) ? R::pass : R::fail;
                } else {
                    row.tolerance = "+-" + num(ch.within);
                    row.outcome = std::fabs(v - m_log) <= ch.within ? R::pass : R::fail;
                    if (sim.little == 0) row.note = "the little core never took the lock";
                }
            } else if (ch.kind == "little_max_wait") {
                row.check = "little max wait";
                row.measured = c.runs.empty() ? "-" : time_text(m_wait_lo * 1e3) + " .. " + time_text(m_wait_hi * 1e3);
                row.simulated = time_text(sim.little_max_wait_ns);
                row.tolerance = range_text([](double ns) { return time_text(ns); });
                row.value = sim.little_max_wait_ns;
                if (!m_waits.empty()) row.reference = m_waits[m_waits.size() / 2];
                if (quick) {
                    row.outcome = R::skipped;
                    row.note = "needs the full run";
                } else if (sim.seconds < measured_seconds * 0.999) {
                    row.outcome = R::skipped;
                    row.note = "needs runs as long as the measured 20 s";
                } else {
                    row.outcome = in_range(sim.little_max_wait_ns) ? R::pass : R::fail;
                }
            } else if (ch.kind == "little_share") {
                const double share = sim.little + sim.big > 0 ? sim.little / (sim.little + sim.big) : 0;
                row.check = "little share of the pair";
                row.value = share;
                if (!c.runs.empty()) row.reference = m_little / (m_little + m_big);
                row.measured = c.runs.empty() ? "-" : num(m_little / (m_little + m_big));
                row.simulated = num(share);
                row.tolerance = range_text([](double v) { return num(v); });
                row.outcome = in_range(share) ? R::pass : R::fail;
            } else if (ch.kind == "big_rate") {
                const double m_rate = m_big / measured_seconds, s_rate = sim.big / sim.seconds;
                row.check = "big acquisitions/s";
                row.value = s_rate, row.reference = m_rate;
                row.measured = num(m_rate);
                row.simulated = num(s_rate);
                row.tolerance = "x/ " + num(ch.factor);
                row.outcome = s_rate >= m_rate / ch.factor && s_rate <= m_rate * ch.factor ? R::pass : R::fail;
            } else if (ch.kind == "lifts_little") {
                const calibration_case* other = nullptr;
                for (const auto& o : cases)
                    if (o.id == ch.than) other = &o;
                const pair_figures base = pair_of(result_of(ch.than, "config"), *other);
                row.check = "lifts little vs " + ch.than;
                row.measured = "yes";
                if (!base.ok) {
                    row.outcome = R::fail;
                    row.note = "no result for " + ch.than;
                } else {
                    const double mine = sim.little / sim.seconds, theirs = base.little / base.seconds;
                    row.value = mine - theirs;
                    row.simulated = num(mine) + "/s vs " + num(theirs) + "/s";
                    row.tolerance = "more";
                    row.outcome = mine > theirs ? R::pass : R::fail;
                }
            } else if (ch.kind == "cas_per_success") {
                double attempts = 0, successes = 0;
                if (res)
                    for (const auto& core : res->value("cores", json::array()))
                        if (core.contains("program")) {
                            attempts += core["program"].value("cas_attempts", 0.0);
                            successes += core["program"].value("cas_successes", 0.0);
                        }
                const double v = successes > 0 ? attempts / successes : INFINITY;
                row.check = "CAS attempts per success";
                row.measured = "~25";
                row.simulated = res ? num(v) : "-";
                if (res) row.value = v;
                row.reference = 25;
                if (quick) {
                    row.tolerance = "> 1 (direction)";
                    row.outcome = res && v > 1 ? R::pass : R::fail;
                } else {
                    row.tolerance = range_text([](double x) { return num(x); });
                    row.outcome = res && in_range(v) ? R::pass : R::fail;
                }
                if (!res) row.note = "no result";
            } else if (ch.kind == "throughput_gain") {
                const json* better = result_of(c.id, "better");
                row.check = "throughput of " + fs::path(c.better).stem().string() + " / " + fs::path(c.config).stem().string();
                row.measured = "~2";
                row.reference = 2;
                if (!res || !better) {
                    row.outcome = R::fail;
                    row.note = "no result";
                } else {
                    const double base = ops_per_second(*res), v = base > 0 ? ops_per_second(*better) / base : INFINITY;
                    row.simulated = num(v);
                    row.value = v;
                    row.tolerance = quick ? "> 1 (direction)" : ">= " + num(ch.min);
                    row.outcome = v >= (quick ? 1.0 : ch.min) && (!quick || v > 1) ? R::pass : R::fail;
                }
            }
            rows.push_back(row);
        }
    }
    return rows;
}

namespace {

// The q-quantile of sorted xs (R's type 7); -inf stays -inf (a member whose
// little core never won has no finite log ratio).
double band_quantile(const std::vector<double>& xs, double q) {
    if (xs.empty()) return NAN;
    const double h = (static_cast<double>(xs.size()) - 1) * q;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, xs.size() - 1);
    const double f = h - static_cast<double>(lo);
    if (std::isinf(xs[lo]) || std::isinf(xs[hi])) return f > 0.5 ? xs[hi] : xs[lo];
    return xs[lo] + f * (xs[hi] - xs[lo]);
}

}  // namespace

std::vector<check_row> evaluate_bands(const std::vector<calibration_case>& cases,
                                      const std::vector<std::vector<check_row>>& members) {
    using R = check_row::result;
    std::vector<check_row> out;
    if (members.empty()) return out;
    for (std::size_t k = 0; k < members[0].size(); ++k) {
        check_row row = members[0][k];
        const calibration_case* cc = nullptr;
        for (const auto& c : cases)
            if (c.id == row.case_id) cc = &c;
        const calibration_check& ch = cc->checks.at(row.check_index);
        std::vector<double> xs;
        std::size_t skipped = 0, missing = 0;
        for (const auto& m : members) {
            const check_row& r = m.at(k);
            if (r.outcome == R::skipped) ++skipped;
            else if (std::isnan(r.value)) ++missing;
            else xs.push_back(r.value);
        }
        std::sort(xs.begin(), xs.end());
        row.note.clear();
        if (skipped == members.size()) {
            row.outcome = R::skipped;
            row.note = members[0][k].note;
            row.simulated = "-";
            out.push_back(row);
            continue;
        }
        const double q05 = band_quantile(xs, 0.05), q50 = band_quantile(xs, 0.5), q95 = band_quantile(xs, 0.95);
        row.value = q50;
        auto fmt = [&](double v) { return ch.kind == "little_max_wait" ? time_text(v) : num(v, 3); };
        row.simulated = fmt(q50) + " (" + fmt(q05) + " .. " + fmt(q95) + ")";
        const bool inside = (!ch.has_min || q05 >= ch.min) && (!ch.has_max || q95 <= ch.max);
        auto tol_text = [&](auto f) {
            if (ch.has_min && ch.has_max) return "band in " + f(ch.min) + " .. " + f(ch.max);
            return ch.has_min ? "band >= " + f(ch.min) : "band <= " + f(ch.max);
        };
        if (ch.kind == "log10_ratio") {
            row.tolerance = "in band, band <= 2 decades";
            const bool in = q05 <= row.reference && row.reference <= q95, useful = q95 - q05 <= 2;
            row.outcome = in && useful ? R::pass : R::fail;
            if (!in) row.note = "the measured figure is outside the band";
            else if (!useful) row.note = "the band is wider than 2 decades";
        } else if (ch.kind == "big_rate") {
            row.tolerance = "in band, band within x/ 1.5 of its median";
            const bool in = q05 <= row.reference && row.reference <= q95, useful = q95 <= 1.5 * q50 && q05 >= q50 / 1.5;
            row.outcome = in && useful ? R::pass : R::fail;
            if (!in) row.note = "the measured figure is outside the band";
            else if (!useful) row.note = "the band is wider than x/ 1.5";
        } else if (ch.kind == "throughput_gain") {
            row.tolerance = "band >= " + num(ch.min);
            row.outcome = q05 >= ch.min ? R::pass : R::fail;
        } else if (ch.kind == "lifts_little") {
            row.tolerance = "more in 95% of members";
            row.simulated = "difference " + num(q50, 3) + "/s (" + num(q05, 3) + " .. " + num(q95, 3) + ")";
            row.outcome = q05 > 0 ? R::pass : R::fail;
        } else {
            row.tolerance = ch.kind == "little_max_wait" ? tol_text([](double v) { return time_text(v); })
                                                          : tol_text([](double v) { return num(v); });
            row.outcome = inside ? R::pass : R::fail;
        }
        if (missing) {
            row.outcome = R::fail;
            row.note = std::to_string(missing) + " of " + std::to_string(members.size()) + " members have no result";
        } else if (skipped) {
            row.note += (row.note.empty() ? "" : "; ") + std::to_string(skipped) + " members skipped";
        }
        out.push_back(row);
    }
    return out;
}

// ---- running the cases ------------------------------------------------------

namespace {

// Prints the rows as a table with a summary line and writes validate.json
// (`head` plus the rows); the exit status: 1 when a check failed that is
// not marked known_miss.
int report_rows(const std::vector<check_row>& rows, json head, const std::string& remark,
                std::chrono::steady_clock::time_point t0, const std::string& out_dir) {
    text_table t(2);  // case and check read as text
    t.header({"case", "check", "measured", "simulated", "tolerance", "result"});
    json jrows = json::array();
    int failed = 0, passed = 0, known = 0;
    std::string reasons;
    for (const auto& r : rows) {
        const std::string res = r.verdict();
        failed += r.counts_as_failure();
        passed += r.outcome == check_row::result::pass;
        if (r.outcome == check_row::result::fail && !r.known_miss.empty()) {
            ++known;
            reasons += "  known miss (" + r.case_id + ", " + r.check + "): " + r.known_miss + "\n";
        }
        t.row({r.case_id, r.check, r.measured, r.simulated, r.tolerance, res + (r.note.empty() ? "" : ": " + r.note)});
        json row = {{"case", r.case_id}, {"check", r.check}, {"measured", r.measured}, {"simulated", r.simulated},
                    {"tolerance", r.tolerance}, {"result", res}, {"note", r.note}};
        if (!r.known_miss.empty()) row["known_miss"] = r.known_miss;
        if (!std::isnan(r.value) && !std::isinf(r.value)) row["value"] = r.value;
        if (!std::isnan(r.reference)) row["reference"] = r.reference;
        jrows.push_back(row);
    }
    std::cout << t.str() << reasons;
    std::cout << "\n" << passed << " passed, " << failed << " failed, "
              << (known ? std::to_string(known) + (known == 1 ? " known miss (not counted), " : " known misses (not counted), ") : "")
              << rows.size() - passed - failed - known << " skipped" << remark << "; "
              << num(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 3) << " s host\n";
    fs::create_directories(out_dir);
    head["checks"] = jrows;
    write_file_atomic((fs::path(out_dir) / "validate.json").string(), head.dump(2) + "\n");
    return failed ? 1 : 0;
}

}  // namespace

int validate_bands(const std::vector<calibration_case>& cases, const std::string& cases_file, std::size_t n, unsigned jobs,
                   const std::string& dur, const std::string& out_dir) {
    const fs::path dir = fs::path(cases_file).parent_path();
    const auto t0 = std::chrono::steady_clock::now();
    std::cerr << "cohsim validate --bands: " << n << " members per case, " << jobs << " at a time, results in " << out_dir << "\n";
    const case_members m = run_case_members(cases, dir, n, 1, jobs, dur, fs::absolute(out_dir), true, 1);
    const auto rows = evaluate_bands(cases, m.rows);
    json params = json::array();
    for (const auto& u : m.params)
        params.push_back({{"path", u.path}, {"range", u.format(u.lo) + ".." + u.format(u.hi)}, {"calibrated", !u.prior.empty()}});
    json per_member = json::array();
    for (const auto& mr : m.rows) {
        json vals = json::array();
        for (const auto& r : mr) vals.push_back(std::isfinite(r.value) ? json(r.value) : json(nullptr));
        per_member.push_back(vals);
    }
    return report_rows(rows,
                       json{{"bands", true}, {"members", n}, {"max_duration", dur}, {"cases_file", cases_file},
                            {"uncertain", params}, {"member_values", per_member}},
                       " (bands: 5-95% of " + std::to_string(n) + " members; measured figures are 20 s runs)", t0, out_dir);
}

std::vector<calibration_case> select_cases(const std::vector<calibration_case>& cases, const std::string& ids,
                                          const std::string& cases_file) {
    std::stringstream ss(ids);
    std::set<std::string> wanted;
    for (std::string id; std::getline(ss, id, ',');) wanted.insert(id);
    std::vector<calibration_case> kept;
    for (const auto& c : cases)
        if (wanted.erase(c.id)) kept.push_back(c);
    if (!wanted.empty()) {
        std::string known;
        for (const auto& c : cases) known += (known.empty() ? "" : ", ") + c.id;
        throw usage_error("--cases: no case '" + *wanted.begin() + "' in " + cases_file + " (cases: " + known + ")");
    }
    // A lifts_little check needs its other case too.
    for (const auto& c : kept)
        for (const auto& ch : c.checks)
            if (ch.kind == "lifts_little" &&
                std::none_of(kept.begin(), kept.end(), [&](const auto& k) { return k.id == ch.than; }))
                for (const auto& o : cases)
                    if (o.id == ch.than) kept.push_back(o);
    return kept;
}

int validate_runs(const std::vector<calibration_case>& cases, const std::string& cases_file, bool quick, unsigned jobs,
                  const std::string& out_dir) {
    const fs::path dir = fs::path(cases_file).parent_path();
    struct job {
        std::string case_id, which, config, out_dir;
        int status = -1;
        double host_seconds = 0;
    };
    std::vector<job> todo;
    std::map<std::string, std::string> quick_of;
    for (const auto& c : cases) {
        todo.push_back({c.id, "config", (dir / c.config).string(), (fs::path(out_dir) / c.id / fs::path(c.config).stem()).string()});
        if (!c.better.empty())
            todo.push_back({c.id, "better", (dir / c.better).string(), (fs::path(out_dir) / c.id / fs::path(c.better).stem()).string()});
        quick_of[c.id] = c.quick;
    }
    for (const auto& j : todo)
        if (!fs::exists(j.config))
            throw cfg::config_error({cases_file, 0, 0}, "cases." + j.case_id, "config '" + j.config + "' does not exist",
                                    "a config file beside cases.yaml");
    std::cerr << "cohsim validate: " << todo.size() << " runs" << (quick ? " (quick)" : " (full length)") << ", " << jobs
              << " at a time, results in " << out_dir << "\n";
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<child_job> children;
    for (const auto& j : todo) {
        fs::create_directories(j.out_dir);
        child_job c;
        c.args = {"run", j.config, "-q", "--out", j.out_dir};
        if (quick) c.args.insert(c.args.end(), {"--duration", quick_of[j.case_id]});
        c.log = (fs::path(j.out_dir) / "run.log").string();
        children.push_back(c);
    }
    std::size_t done = 0;
    run_children(children, jobs, [&](std::size_t i) {
        job& j = todo[i];
        j.status = children[i].status;
        j.host_seconds = children[i].host_seconds;
        std::cerr << "[" << ++done << "/" << todo.size() << "] " << j.case_id << "/" << fs::path(j.config).stem().string()
                  << (j.status == 0 ? " done" : " FAILED (exit " + std::to_string(j.status) + ", see " + j.out_dir + "/run.log)")
                  << " in " << num(j.host_seconds, 3) << " s\n";
    });
    json results = json::object();
    json runs = json::array();
    for (const auto& j : todo) {
        const std::string file = (fs::path(j.out_dir) / "result.json").string();
        json r;
        if (j.status == 0 && fs::exists(file)) {
            try {
                r = json::parse(read_file(file));
                results[j.case_id][j.which] = r;
            } catch (const json::exception& e) {
                std::cerr << "cohsim validate: " << file << ": unreadable result (" << e.what() << ")\n";
            }
        }
        runs.push_back({{"case", j.case_id}, {"config", j.config}, {"exit_status", j.status}, {"host_seconds", j.host_seconds},
                        {"simulated_ns", r.value("simulated_ns", 0.0)}});
    }
    const auto rows = evaluate(cases, results, quick);
    return report_rows(rows, json{{"quick", quick}, {"cases_file", cases_file}, {"runs", runs}},
                       quick ? " (quick: short runs, directions only; measured figures are 20 s runs)" : "", t0, out_dir);
}

}  // namespace cohsim

#include "app/microbench.h"

#include <algorithm>
#include <functional>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/board_files.h"
#include "app/data.h"
#include "app/options.h"
#include "app/platform.h"
#include "app/spawn.h"
#include "app/sweep.h"
#include "app/text_table.h"
#include "app/yaml_reader.h"
#include "sim/files.h"

namespace cohsim {
namespace fs = std::filesystem;
namespace {

struct core_place {
    std::string id, cluster, dsu;
    unsigned socket = 0;
    bool lse = false;
};

// What a hand-off between two cores crosses.
std::string kind_of(const core_place& a, const core_place& b) {
    if (a.cluster == b.cluster) return "same cluster";
    if (!a.dsu.empty() && a.dsu == b.dsu) return "same DSU";
    if (a.socket == b.socket) return "across the interconnect";
    return "across sockets";
}

std::string ns_text(double ns) {
    char b[32];
    std::snprintf(b, sizeof b, ns < 100 ? "%.1f" : "%.0f", ns);
    return b;
}

std::vector<core_place> places(const platform_config& cfg) {
    std::vector<core_place> out;
    for (const auto& [name, cl] : cfg.clusters)
        for (unsigned i = 0; i < cl.cores; ++i)
            out.push_back({name + "." + std::to_string(i), name, cl.dsu, cl.socket, has_lse(cl.core)});
    return out;
}

// --cores: cluster names and core ids, comma-separated.
std::vector<core_place> select(const std::vector<core_place>& all, const std::string& list) {
    if (list.empty()) return all;
    std::vector<core_place> out;
    std::stringstream ss(list);
    std::string w;
    while (std::getline(ss, w, ',')) {
        if (w.empty()) continue;
        bool found = false;
        for (const auto& c : all) {
            if (c.id != w && c.cluster != w) continue;
            found = true;
            if (std::none_of(out.begin(), out.end(), [&](const core_place& o) { return o.id == c.id; })) out.push_back(c);
        }
        if (!found) {
            std::string names;
            for (const auto& c : all)
                if (names.find(c.cluster + ",") == std::string::npos) names += c.cluster + ", ";
            throw usage_error("--cores: '" + w + "' is not a cluster or core of this platform (expected cluster names (" +
                              names.substr(0, names.size() - 2) + ") or core ids such as " + all.front().id + ")");
        }
    }
    if (out.size() < 2) throw usage_error("--cores: needs at least two cores, got " + std::to_string(out.size()));
    return out;
}

// The platform's rows of references.yaml under `section` (c2c: keyed by
// `pairs`; latmem: by `core` and `size`). None: the platform is not listed.
json load_references(const std::string& file, const std::string& platform, const std::string& section) {
    yaml_reader r{file};
    const YAML::Node root = load_yaml_file(file, "a readable references.yaml");
    r.need_map(root, "(top)");
    json out = json::array();
    const YAML::Node p = root[platform];
    if (!p) return out;
    r.need_map(p, platform);
    r.only(p, platform, {"c2c", "latmem", "clocks"});
    const YAML::Node rows = p[section];
    if (!rows) return out;
    const bool c2c = section == "c2c";
    const std::set<std::string> keys = c2c ? std::set<std::string>{"pairs", "measured", "tolerance", "source", "known_miss", "instruction"}
                                           : std::set<std::string>{"core", "size", "measured", "tolerance", "source", "known_miss"};
    std::string list;
    for (const auto& k : keys) list += (list.empty() ? "{" : ", ") + k;
    if (!rows.IsSequence()) r.fail(rows, platform + "." + section, "is not a list", "a list of " + list + "}");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::string at = platform + "." + section + "." + std::to_string(i);
        r.need_map(rows[i], at);
        r.only(rows[i], at, keys);
        const std::string measured = r.text(rows[i]["measured"], at + ".measured");
        const auto dots = measured.find("..");
        if (dots == std::string::npos) r.fail(rows[i]["measured"], at + ".measured", "'" + measured + "' is not a range", "LO..HI, e.g. 58ns..64ns");
        double lo = 0, hi = 0;
        try {
            lo = parse_duration(measured.substr(0, dots)).ns(), hi = parse_duration(measured.substr(dots + 2)).ns();
        } catch (const std::exception& e) {
            r.fail(rows[i]["measured"], at + ".measured", e.what(), "LO..HI with units, e.g. 58ns..64ns");
        }
        if (hi < lo) r.fail(rows[i]["measured"], at + ".measured", "the range ends below its start", "LO <= HI");
        const std::string tol = r.text(rows[i]["tolerance"], at + ".tolerance");
        double t = -1;
        try {
            std::size_t used = 0;
            t = std::stod(tol, &used) / 100;
            if (tol.substr(used) != "%") t = -1;
        } catch (const std::exception&) {
        }
        if (!(t >= 0 && t < 10)) r.fail(rows[i]["tolerance"], at + ".tolerance", "'" + tol + "' is not a percentage", "e.g. 25%");
        json row = {{"measured_lo_ns", lo}, {"measured_hi_ns", hi}, {"tolerance", t},
                    {"source", r.text(rows[i]["source"], at + ".source")}};
        // A miss the model is known to make, with the reason: reported, not
        // counted against the exit status (until the model is fixed).
        if (rows[i]["known_miss"]) row["known_miss"] = r.text(rows[i]["known_miss"], at + ".known_miss");
        // The instruction the measured program used (c2c): auto (what the
        // cores have), cas or llsc.
        if (c2c && rows[i]["instruction"]) {
            const std::string insn = r.text(rows[i]["instruction"], at + ".instruction");
            if (insn != "auto" && insn != "cas" && insn != "llsc")
                r.fail(rows[i]["instruction"], at + ".instruction", "'" + insn + "' is not an instruction choice", "auto, cas or llsc");
            row["instruction"] = insn;
        }
        if (c2c) {
            row["pairs"] = r.text(rows[i]["pairs"], at + ".pairs");
        } else {
            row["core"] = r.text(rows[i]["core"], at + ".core");
            const std::string size = r.text(rows[i]["size"], at + ".size");
            try {
                row["size_bytes"] = parse_byte_size(size).bytes;
            } catch (const std::exception& e) {
                r.fail(rows[i]["size"], at + ".size", e.what(), "a size, e.g. 96KiB");
            }
        }
        out.push_back(row);
    }
    return out;
}

// A reference row's allowed band: its measured range widened by its
// tolerance. Not passed until judged against what was simulated.
void unmeasured(json& ref) {
    ref["allowed_lo_ns"] = ref["measured_lo_ns"].get<double>() * (1 - ref["tolerance"].get<double>());
    ref["allowed_hi_ns"] = ref["measured_hi_ns"].get<double>() * (1 + ref["tolerance"].get<double>());
    ref["pass"] = false;
}

// The row's verdict for a simulated range [lo, hi].
void judge(json& ref, double lo, double hi) {
    unmeasured(ref);
    ref["simulated_min_ns"] = lo, ref["simulated_max_ns"] = hi;
    ref["pass"] = lo >= ref["allowed_lo_ns"].get<double>() && hi <= ref["allowed_hi_ns"].get<double>();
}

// The clocks the reference boards ran at (`clocks:` of the platform in
// references.yaml), as --set overrides of each cluster's freq: --check
// compares at the measured machine's clocks, as a user compares a board.
std::vector<std::string> reference_clocks(const std::string& file, const std::string& platform) {
    yaml_reader r{file};
    const YAML::Node p = load_yaml_file(file, "a readable references.yaml")[platform];
    std::vector<std::string> out;
    if (!p || !p["clocks"]) return out;
    const YAML::Node c = p["clocks"];
    r.need_map(c, platform + ".clocks");
    for (const auto& kv : c) {
        const std::string cluster = kv.first.as<std::string>();
        const std::string f = r.text(kv.second, platform + ".clocks." + cluster);
        try {
            parse_frequency(f);
        } catch (const std::exception& e) {
            r.fail(kv.second, platform + ".clocks." + cluster, e.what(), "a frequency, e.g. 2.016GHz");
        }
        out.push_back("clusters." + cluster + ".freq=" + f);
    }
    return out;
}

// A row's result: PASS, FAIL, or for a row marked known_miss KNOWN MISS (or
// PASS with a note that the mark can go).
std::string verdict(const json& e) { return check_verdict(e["pass"].get<bool>(), e.contains("known_miss")); }

// Whether the rows count as missed: a row fails that is not a known miss.
bool missed_any(const json& checks) {
    for (const auto& e : checks)
        if (!e["pass"].get<bool>() && !e.contains("known_miss")) return true;
    return false;
}

// The known misses' reasons, one line each, under the table.
std::string known_miss_text(const json& checks) {
    std::string out;
    for (const auto& e : checks)
        if (e.contains("known_miss") && !e["pass"].get<bool>())
            out += "  known miss (" + (e.contains("pairs") ? e["pairs"].get<std::string>()
                                                            : e["core"].get<std::string>() + " " + e["size"].get<std::string>()) +
                   "): " + e["known_miss"].get<std::string>() + "\n";
    return out;
}

// The checks as a table: KEY columns, then measured, tolerance, allowed, simulated, result, source.
std::string checks_text(const json& checks, const std::vector<std::pair<std::string, std::string>>& keys) {
    text_table c(keys.size());
    std::vector<std::string> h;
    for (const auto& k : keys) h.push_back(k.second);
    for (const char* x : {"measured", "tolerance", "allowed", "simulated", "result", "source"}) h.push_back(x);
    c.header(h);
    for (const auto& e : checks) {
        std::vector<std::string> row;
        for (const auto& k : keys) row.push_back(e[k.first].is_string() ? e[k.first].get<std::string>() : e[k.first].dump());
        const bool seen = e.contains("simulated_min_ns");
        char tol[16];
        std::snprintf(tol, sizeof tol, "%.0f%%", e["tolerance"].get<double>() * 100);
        row.insert(row.end(),
                   {ns_text(e["measured_lo_ns"].get<double>()) + ".." + ns_text(e["measured_hi_ns"].get<double>()), tol,
                    ns_text(e["allowed_lo_ns"].get<double>()) + ".." + ns_text(e["allowed_hi_ns"].get<double>()),
                    seen ? ns_text(e["simulated_min_ns"].get<double>()) + ".." + ns_text(e["simulated_max_ns"].get<double>())
                         : "(not measured)",
                    verdict(e), e["source"].get<std::string>()});
        c.row(row);
    }
    return c.str();
}

// Each reference row against the simulated groups; sets "pass" on each.
json check_references(json refs, const json& groups) {
    for (auto& ref : refs) {
        unmeasured(ref);  // not passed unless its pairs were measured
        for (const auto& g : groups)
            if (g["clusters"] == ref["pairs"]) judge(ref, g["min_ns"].get<double>(), g["max_ns"].get<double>());
    }
    return refs;
}

}  // namespace

platform_config load_sweep_config(const sweep_def& def) {
    platform_config c = load_platform(def.config, numbered(def.sets));
    // Hand-offs and load-to-use times hinge on the cache latencies: say when they are generic.
    for (const auto& g : c.cache_warnings) std::cerr << "cohsim: warning: " << def.config << ": " << g << "\n";
    return c;
}

sweep_def microbench_sweep(const std::vector<std::string>& positional, const std::string& cmd,
                          const std::vector<std::string>& sets, bool check) {
    if (positional.size() != 1)
        throw usage_error(cmd + " takes one PLATFORM (a config file or a shipped platform's name), got " +
                          std::to_string(positional.size()));
    sweep_def def;
    def.config = fs::absolute(find_config(positional[0])).string();
    if (!fs::exists(def.config)) throw usage_error(positional[0] + ": no such config file");
    def.sets = sets;
    if (!check) return def;
    // At the reference board's clocks, and say so.
    const auto clocks = reference_clocks(find_config("references.yaml"), fs::path(def.config).stem().string());
    if (clocks.empty()) return def;
    std::string list;
    for (const auto& c : clocks) list += (list.empty() ? "" : ", ") + c.substr(std::string("clusters.").size());
    std::cerr << "cohsim " << cmd << " --check: at the clocks the reference boards ran at (configs/references.yaml): " << list << "\n";
    def.sets.insert(def.sets.end(), clocks.begin(), clocks.end());
    return def;
}

json c2c_report(const std::string& dir_text) {
    const fs::path dir(dir_text);
    if (!fs::exists(dir / "c2c.json"))
        throw usage_error(dir_text + ": no c2c.json there (expected the --out directory of cohsim c2c)");
    return json::parse(read_file((dir / "c2c.json").string()));
}

// "+12%": how far the model lies from the board.
std::string diff_text(double model, double board) {
    char b[32];
    std::snprintf(b, sizeof b, "%+.0f%%", 100 * (model - board) / board);
    return b;
}

// Model against board, pair by pair and by kind of pair (c2c.json's "measured").
json compare_c2c(const json& out, const board_matrix& board, const std::string& file) {
    json m = {{"file", file}, {"format", board.format}, {"cpus", board.cpus()}};
    json pairs = json::array();
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> by_group;  // clusters -> model, board
    std::map<std::string, std::string> kind_of_group;
    const auto& ids = out["cores"];
    for (const auto& e : out["pairs"]) {
        const auto i = static_cast<std::size_t>(std::find(ids.begin(), ids.end(), e["b"]) - ids.begin());
        const auto j = static_cast<std::size_t>(std::find(ids.begin(), ids.end(), e["a"]) - ids.begin());
        if (i >= board.cpus() || j >= board.cpus() || e["one_way_ns"].is_null() || board.ns[i][j] < 0) continue;
        const double model = e["one_way_ns"].get<double>(), b = board.ns[i][j];
        pairs.push_back({{"a", e["a"]}, {"b", e["b"]}, {"cpus", std::to_string(j) + "-" + std::to_string(i)}, {"kind", e["kind"]},
                         {"model_ns", model}, {"board_ns", b}, {"diff_ns", model - b}, {"diff_percent", 100 * (model - b) / b}});
        const std::string key = e["clusters"].get<std::string>();
        by_group[key].first.push_back(model), by_group[key].second.push_back(b);
        kind_of_group[key] = e["kind"].get<std::string>();
    }
    m["pairs"] = pairs;
    json groups = json::array();
    for (const auto& [key, v] : by_group) {
        double a = 0, b = 0;
        for (double x : v.first) a += x;
        for (double x : v.second) b += x;
        a /= static_cast<double>(v.first.size()), b /= static_cast<double>(v.second.size());
        groups.push_back({{"clusters", key}, {"kind", kind_of_group[key]}, {"pairs", v.first.size()}, {"model_mean_ns", a},
                          {"board_mean_ns", b}, {"diff_percent", 100 * (a - b) / b}});
    }
    m["groups"] = groups;
    return m;
}

std::string c2c_text(const json& r) {
    std::ostringstream os;
    os << "core-to-core latency, one way (ns per hand-off): " << r["platform"].get<std::string>() << ", "
       << r["pairs"].size() << " pairs, " << r["duration"].get<std::string>() << " each\n\n";
    const auto& ids = r["cores"];
    text_table t;
    std::vector<std::string> h = {""};
    for (std::size_t j = 0; j + 1 < ids.size(); ++j) h.push_back(ids[j].get<std::string>());
    t.header(h);
    for (std::size_t i = 1; i < ids.size(); ++i) {
        std::vector<std::string> row = {ids[i].get<std::string>()};
        for (std::size_t j = 0; j + 1 < ids.size(); ++j) {
            const json& v = r["matrix"][i][j];
            row.push_back(j < i ? (v.is_null() ? "-" : ns_text(v.get<double>())) : "");
        }
        t.row(row);
    }
    os << t.str() << "\n";
    text_table g(2);
    g.header({"pairs", "kind", "n", "min", "mean", "max", "instruction"});
    for (const auto& e : r["groups"])
        g.row({e["clusters"].get<std::string>(), e["kind"].get<std::string>(), std::to_string(e["pairs"].get<int>()),
               ns_text(e["min_ns"].get<double>()), ns_text(e["mean_ns"].get<double>()), ns_text(e["max_ns"].get<double>()),
               e["instruction"].get<std::string>()});
    os << g.str();
    if (r.contains("checks"))
        os << "\nagainst the published figures (configs/references.yaml):\n" << checks_text(r["checks"], {{"pairs", "pairs"}})
           << known_miss_text(r["checks"]);
    if (r.contains("measured")) {
        const json& m = r["measured"];
        os << "\nagainst the board (" << m["file"].get<std::string>() << ", " << m["format"].get<std::string>() << ", "
           << m["cpus"].get<int>() << " CPUs; CPU k is core k above):\n";
        text_table g(2);
        g.header({"pairs", "kind", "n", "model mean", "board mean", "model - board"});
        for (const auto& e : m["groups"])
            g.row({e["clusters"].get<std::string>(), e["kind"].get<std::string>(), std::to_string(e["pairs"].get<int>()),
                   ns_text(e["model_mean_ns"].get<double>()), ns_text(e["board_mean_ns"].get<double>()),
                   diff_text(e["model_mean_ns"].get<double>(), e["board_mean_ns"].get<double>())});
        os << g.str();
        // Every pair on a small machine; the ten furthest from the board on a big one.
        std::vector<json> ps(m["pairs"].begin(), m["pairs"].end());
        const bool all = ps.size() <= 28;
        if (!all)
            std::stable_sort(ps.begin(), ps.end(), [](const json& a, const json& b) {
                return std::fabs(a["diff_percent"].get<double>()) > std::fabs(b["diff_percent"].get<double>());
            });
        text_table t(2);
        t.header({"pair", "CPUs", "model", "board", "model - board"});
        for (std::size_t k = 0; k < ps.size() && (all || k < 10); ++k)
            t.row({ps[k]["a"].get<std::string>() + " - " + ps[k]["b"].get<std::string>(), ps[k]["cpus"].get<std::string>(),
                   ns_text(ps[k]["model_ns"].get<double>()), ns_text(ps[k]["board_ns"].get<double>()),
                   diff_text(ps[k]["model_ns"].get<double>(), ps[k]["board_ns"].get<double>())});
        os << "\n" << (all ? "each pair:\n" : "the ten pairs furthest from the board:\n") << t.str();
    }
    return os.str();
}

int measure_c2c(c2c_request q) {
    sweep_def& def = q.def;
    const std::string &dur = q.duration, &cores_text = q.cores, &measured = q.measured, &out_dir = q.out_dir;
    std::string& insn_text = q.instruction;
    const unsigned jobs = q.jobs;
    // The measurement's own workload and a quiet machine; the platform's silicon as it is.
    def.sets.push_back("workload={program: programs/c2c_cas.s}");
    def.sets.push_back("activity={}");
    def.sets.push_back("run.duration=" + dur);
    const platform_config cfg = load_sweep_config(def);
    auto cores = select(places(cfg), cores_text);
    const std::string platform = fs::path(def.config).stem().string();
    board_matrix board;
    if (!measured.empty()) {
        board = read_board_matrix(measured);
        if (board.cpus() > cores.size())
            throw usage_error("--measured " + measured + ": the board has " + std::to_string(board.cpus()) + " CPUs, the " +
                              (cores_text.empty() ? "platform " + std::to_string(cores.size()) + " cores"
                                                  : "cores of --cores " + std::to_string(cores.size())) +
                              " (expected --cores naming " + std::to_string(board.cpus()) + " cores, in the board's CPU order)");
        if (board.cpus() < cores.size()) {
            std::cerr << "cohsim c2c: the board has " << board.cpus() << " CPUs: comparing the first " << board.cpus()
                      << " cores (" << cores.front().id << " to " << cores[board.cpus() - 1].id << ")\n";
            cores.resize(board.cpus());
        }
    }
    json refs = json::array();
    if (q.check) {
        refs = load_references(find_config("references.yaml"), platform, "c2c");
        // The references' instruction, unless the user chose one.
        std::string measured_with;
        for (const auto& ref : refs) {
            const std::string i = ref.value("instruction", "auto");
            if (!measured_with.empty() && i != measured_with)
                throw usage_error("configs/references.yaml: " + platform + "'s c2c rows name different instructions (" +
                                  measured_with + ", " + i + "); one run measures one");
            measured_with = i;
        }
        if (insn_text.empty() && !measured_with.empty() && measured_with != "auto") {
            insn_text = measured_with;
            std::cerr << "cohsim c2c --check: with " << insn_text << " on every pair, as the reference was measured\n";
        } else if (!insn_text.empty() && !measured_with.empty() && insn_text != measured_with)
            throw usage_error("--instruction " + insn_text + ": " + platform + "'s references were measured with " + measured_with +
                              " (drop --instruction, or --check compares unlike with unlike)");
    }
    if (insn_text.empty()) insn_text = "auto";
    if (insn_text != "auto" && insn_text != "cas" && insn_text != "llsc")
        throw usage_error("--instruction " + insn_text + ": not an instruction choice (expected auto, cas or llsc)");
    if (insn_text == "cas")
        for (const auto& c : cores)
            if (!c.lse)
                throw usage_error("--instruction cas: core " + c.id + " (" +
                                  preset_of(cfg.clusters.find(c.cluster)->core).name +
                                  ") has no LSE (Armv8.0): it would fault on CAS (expected auto or llsc)");
    // Whether pair (i, j) uses CAS.
    auto uses_cas = [&](const core_place& a, const core_place& b) {
        return insn_text == "cas" || (insn_text == "auto" && a.lse && b.lse);
    };

    sweep_axis threads{"workload.threads", {}};
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t i = 0; i < cores.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) {
            const int lse = uses_cas(cores[i], cores[j]) ? 1 : 0;
            threads.values.push_back("[{core: " + cores[j].id + ", params: {ME: 0, LSE: " + std::to_string(lse) +
                                     "}}, {core: " + cores[i].id + ", params: {ME: 1, LSE: " + std::to_string(lse) + "}}]");
            pairs.emplace_back(i, j);
        }
    def.axes.push_back(threads);
    def.zip = true;
    const fs::path dir = fs::absolute(out_dir);
    fs::create_directories(dir / "points");
    check_same_sweep(def, dir, out_dir);
    const int failed = run_sweep(def, dir, jobs, out_dir);

    json out;
    out["platform"] = platform;
    out["config"] = def.config;
    out["duration"] = dur;
    out["instruction"] = insn_text;
    json ids = json::array();
    for (const auto& c : cores) ids.push_back(c.id);
    out["cores"] = ids;
    json matrix = json::array();
    for (std::size_t i = 0; i < cores.size(); ++i) matrix.push_back(json(std::vector<std::nullptr_t>(cores.size(), nullptr)));
    json list = json::array();
    struct group {
        std::string clusters, kind, instruction;
        std::vector<double> ns;
    };
    std::vector<group> groups;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const auto [i, j] = pairs[k];
        const fs::path f = dir / "points" / point_name(k) / "result.json";
        if (!fs::exists(f)) continue;
        const json res = json::parse(read_file(f.string()));
        std::uint64_t handoffs = 0;
        for (const auto& c : res.at("cores"))
            if (c.contains("lock")) handoffs += c["lock"]["acquisitions"].get<std::uint64_t>();
        const double sim_ns = res.at("simulated_ns").get<double>();
        const std::string kind = kind_of(cores[i], cores[j]);
        const std::string insn = uses_cas(cores[i], cores[j]) ? "cas" : "ldxr/stxr";
        std::string ca = cores[j].cluster, cb = cores[i].cluster;
        if (cb < ca) std::swap(ca, cb);
        const std::string key = ca == cb ? ca : ca + "-" + cb;  // the pair's group, as references.yaml names it
        json e = {{"a", cores[j].id}, {"b", cores[i].id}, {"clusters", key}, {"kind", kind}, {"instruction", insn},
                  {"handoffs", handoffs}};
        if (handoffs > 0) {
            const double ns = sim_ns / static_cast<double>(handoffs);
            e["one_way_ns"] = ns;
            matrix[i][j] = ns, matrix[j][i] = ns;
            auto g = std::find_if(groups.begin(), groups.end(), [&](const group& x) { return x.clusters == key; });
            if (g == groups.end()) groups.push_back({key, kind, insn, {}}), g = groups.end() - 1;
            g->ns.push_back(ns);
        } else {
            e["one_way_ns"] = nullptr;
        }
        list.push_back(e);
    }
    out["matrix"] = matrix;
    out["pairs"] = list;
    json gs = json::array();
    for (const auto& g : groups) {
        double sum = 0;
        for (double x : g.ns) sum += x;
        gs.push_back({{"clusters", g.clusters}, {"kind", g.kind}, {"instruction", g.instruction}, {"pairs", g.ns.size()},
                      {"min_ns", *std::min_element(g.ns.begin(), g.ns.end())},
                      {"mean_ns", sum / static_cast<double>(g.ns.size())},
                      {"max_ns", *std::max_element(g.ns.begin(), g.ns.end())}});
    }
    out["groups"] = gs;
    bool missed = false;
    if (q.check) {
        if (refs.empty())
            std::cerr << "cohsim c2c: configs/references.yaml has no core-to-core figures for " << out["platform"].get<std::string>()
                      << ": nothing to check\n";
        else
            out["checks"] = check_references(refs, gs);
        missed = missed_any(out.value("checks", json::array()));
    }
    if (!measured.empty()) out["measured"] = compare_c2c(out, board, measured);
    write_file_atomic((dir / "c2c.json").string(), out.dump(1) + "\n");
    std::cout << c2c_text(out) << "\n" << (dir / "c2c.json").string() << "\n";
    for (const auto& e : list)
        if (e["one_way_ns"].is_null())
            std::cerr << "cohsim c2c: " << e["a"].get<std::string>() << " and " << e["b"].get<std::string>()
                      << " made no hand-off in " << dur << " (give a longer --duration)\n";
    return failed > 0 || missed ? 1 : 0;
}


// ---- latmem --------------------------------------------------------------------

namespace {

std::string size_text(std::uint64_t b) {
    if (b % (1024 * 1024) == 0) return std::to_string(b / (1024 * 1024)) + "MiB";
    if (b % 1024 == 0) return std::to_string(b / 1024) + "KiB";
    return std::to_string(b) + "B";
}

}  // namespace

json latmem_report(const std::string& dir_text) {
    const fs::path dir(dir_text);
    if (!fs::exists(dir / "latmem.json"))
        throw usage_error(dir_text + ": no latmem.json there (expected the --out directory of cohsim latmem)");
    return json::parse(read_file((dir / "latmem.json").string()));
}

std::string latmem_text(const json& r) {
    std::ostringstream os;
    os << "load-to-use latency, dependent loads (lat_mem_rd): " << r["platform"].get<std::string>() << ", core "
       << r["core"].get<std::string>() << " at " << r["freq"].get<std::string>() << "\n\n";
    text_table t;
    t.header({"working set", "ns per load", "core cycles"});
    for (const auto& pt : r["points"]) {
        char cyc[32];
        std::snprintf(cyc, sizeof cyc, "%.1f", pt["cycles"].get<double>());
        t.row({pt["size"].get<std::string>(), ns_text(pt["ns"].get<double>()), cyc});
    }
    os << t.str();
    if (r.contains("checks"))
        os << "\nagainst the published figures (configs/references.yaml):\n"
           << checks_text(r["checks"], {{"core", "core"}, {"size", "working set"}}) << known_miss_text(r["checks"]);
    if (r.contains("measured")) {
        const json& m = r["measured"];
        os << "\nagainst the board (" << m["file"].get<std::string>() << ", " << m["format"].get<std::string>()
           << "; between the sizes it measured, linear in log size):\n";
        text_table b;
        b.header({"working set", "model", "board", "model - board"});
        for (const auto& pt : m["points"])
            b.row({pt["size"].get<std::string>(), ns_text(pt["model_ns"].get<double>()),
                   pt["board_ns"].is_null() ? "-" : ns_text(pt["board_ns"].get<double>()),
                   pt["board_ns"].is_null() ? "-" : diff_text(pt["model_ns"].get<double>(), pt["board_ns"].get<double>())});
        os << b.str();
    }
    return os.str();
}

int measure_latmem(latmem_request q) {
    sweep_def& def = q.def;
    const std::string &dur = q.duration, &sizes_text = q.sizes, &measured = q.measured, &out_dir = q.out_dir;
    std::string& core_id = q.core;
    const unsigned jobs = q.jobs;
    const std::uint64_t loads = q.loads;
    const platform_config cfg = load_sweep_config(def);
    const auto all = places(cfg);
    if (core_id.empty()) core_id = all.front().id;
    const auto here = std::find_if(all.begin(), all.end(), [&](const core_place& c) { return c.id == core_id; });
    if (here == all.end())
        throw usage_error("--core " + core_id + ": not a core of this platform (expected a core id such as " + all.front().id + ")");
    const frequency freq = cfg.clusters.find(here->cluster)->freq;
    const std::string platform = fs::path(def.config).stem().string();

    std::vector<std::uint64_t> sizes;
    board_curve board;
    if (!measured.empty()) board = read_board_curve(measured);
    if (sizes_text.empty() && !measured.empty()) {
        for (const auto& [b, ns] : board.points)
            if (b >= 4096 && b <= 16u * 1024 * 1024) sizes.push_back((b + 32) / 64 * 64);
        if (sizes.empty())
            throw usage_error("--measured " + measured + ": no size between 4KiB and 16MiB (expected the board's curve over "
                              "its caches; or give --sizes)");
    } else if (sizes_text.empty()) {
        for (std::uint64_t b = 4096; b <= 16u * 1024 * 1024; b *= 2) {
            sizes.push_back(b);
            if (b < 16u * 1024 * 1024) sizes.push_back(b + b / 2);
        }
    } else {
        std::stringstream ss(sizes_text);
        std::string w;
        while (std::getline(ss, w, ',')) {
            std::uint64_t b = 0;
            try {
                b = parse_byte_size(w).bytes;
            } catch (const std::exception& e) {
                throw usage_error("--sizes: '" + w + "': " + e.what() + " (expected sizes such as 16KiB,1MiB)");
            }
            if (b < 128 || b > 128u * 1024 * 1024 || b % 64)
                throw usage_error("--sizes: '" + w + "' is not a working set of 128B to 128MiB in whole 64-byte lines");
            sizes.push_back(b);
        }
    }
    json refs = json::array();
    if (q.check) {
        for (auto& ref : load_references(find_config("references.yaml"), platform, "latmem"))
            if (ref["core"] == here->cluster) refs.push_back(ref);
        if (refs.empty())
            std::cerr << "cohsim latmem: configs/references.yaml has no latencies for " << platform << "'s " << here->cluster
                      << " cores: nothing to check\n";
        for (const auto& ref : refs) sizes.push_back(ref["size_bytes"].get<std::uint64_t>());
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());

    def.sets.push_back("workload={program: programs/latmem.s, params: {LOADS: " + std::to_string(loads) +
                       "}, threads: [{core: " + core_id + "}]}");
    def.sets.push_back("activity={}");
    def.sets.push_back("run.duration=" + dur);
    sweep_axis axis{"workload.params.SIZE", {}};
    for (auto b : sizes) axis.values.push_back(std::to_string(b));
    def.axes.push_back(axis);
    const fs::path dir = fs::absolute(out_dir);
    fs::create_directories(dir / "points");
    check_same_sweep(def, dir, out_dir);
    const int failed = run_sweep(def, dir, jobs, out_dir);

    json out;
    out["platform"] = platform;
    out["config"] = def.config;
    out["core"] = core_id;
    out["freq"] = to_string(freq);
    out["loads"] = loads;
    json points = json::array();
    bool unfinished = false;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        const fs::path f = dir / "points" / point_name(k) / "result.json";
        if (!fs::exists(f)) continue;
        const json res = json::parse(read_file(f.string()));
        const json* regions = nullptr;
        for (const auto& c : res.at("cores"))
            if (c["id"] == core_id && c.contains("regions") && c["regions"].is_object() && c["regions"].contains("chase"))
                regions = &c["regions"];
        if (!regions) {
            std::cerr << "cohsim latmem: " << size_text(sizes[k]) << " did not finish in " << dur << " (give a longer --duration)\n";
            unfinished = true;
            continue;
        }
        const double ns = (*regions)["chase"]["mean"].get<double>() / static_cast<double>(loads);
        points.push_back({{"size_bytes", sizes[k]}, {"size", size_text(sizes[k])}, {"ns", ns},
                          {"cycles", ns * static_cast<double>(freq.hz) * 1e-9}});
    }
    out["points"] = points;
    bool missed = false;
    if (!refs.empty()) {
        for (auto& ref : refs) {
            unmeasured(ref);
            ref["size"] = size_text(ref["size_bytes"].get<std::uint64_t>());
            for (const auto& pt : points)
                if (pt["size_bytes"] == ref["size_bytes"]) judge(ref, pt["ns"].get<double>(), pt["ns"].get<double>());
        }
        missed = missed_any(refs);
        out["checks"] = refs;
    }
    if (!measured.empty()) {
        json pts = json::array();
        for (const auto& pt : points) {
            const double model = pt["ns"].get<double>(), b = board.at(pt["size_bytes"].get<std::uint64_t>());
            json e = {{"size_bytes", pt["size_bytes"]}, {"size", pt["size"]}, {"model_ns", model}};
            if (b >= 0) e.update({{"board_ns", b}, {"diff_ns", model - b}, {"diff_percent", 100 * (model - b) / b}});
            else e["board_ns"] = nullptr;
            pts.push_back(e);
        }
        out["measured"] = {{"file", measured}, {"format", board.format}, {"points", pts}};
    }
    write_file_atomic((dir / "latmem.json").string(), out.dump(1) + "\n");
    std::cout << latmem_text(out) << "\n" << (dir / "latmem.json").string() << "\n";
    return failed > 0 || missed || unfinished ? 1 : 0;
}

}  // namespace cohsim

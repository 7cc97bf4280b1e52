#include "app/sweep.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>

#include "app/data.h"
#include "app/ensemble.h"
#include "app/options.h"
#include "app/platform.h"
#include "app/results.h"
#include "app/spawn.h"
#include "sim/units.h"
#include "workloads/contention.h"

namespace cohsim {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t max_values = 10000;  // per axis: a typo like 1Hz:2GHz:1Hz should not run for ever

[[noreturn]] void bad_spec(const std::string& arg, const std::string& what) {
    throw usage_error("--vary " + arg + ": " + what +
                      " (expected PATH=LIST like run.seed=1,2,3, PATH=START:STOP:STEP like "
                      "clusters.little.freq=300MHz:2GHz:100MHz, or PATH=START:STOP:xFACTOR like run.duration=1ms:100ms:x10)");
}

// A quantity family: parse to base units (exact), print back as config text.
struct family {
    const char* name;
    std::function<std::uint64_t(const std::string&)> parse;
    std::function<std::string(std::uint64_t)> format;
};

const std::vector<family>& families() {
    static const std::vector<family> f = {
        {"frequency", [](const std::string& t) { return parse_frequency(t).hz; },
         [](std::uint64_t v) { return to_string(frequency{v}); }},
        {"time", [](const std::string& t) { return parse_duration(t).fs; }, [](std::uint64_t v) { return to_string(duration{v}); }},
        {"size", [](const std::string& t) { return parse_byte_size(t).bytes; },
         [](std::uint64_t v) { return to_string(byte_size{v}); }},
        {"cycles", [](const std::string& t) { return parse_cycles(t).n; }, [](std::uint64_t v) { return to_string(cycles{v}); }},
    };
    return f;
}

bool plain_number(const std::string& t) { return std::regex_match(t, std::regex(R"(-?[0-9]+(\.[0-9]+)?)")); }

std::string number_text(long double v) {
    if (std::fabs(v - std::llround(v)) < 1e-9L) return std::to_string(std::llround(v));
    std::ostringstream os;
    os.precision(12);
    os << static_cast<double>(v);
    return os.str();
}

std::vector<std::string> expand_range(const std::string& arg, const std::string& a, const std::string& b,
                                      const std::string& step) {
    const bool mult = !step.empty() && step[0] == 'x';
    const std::string s = mult ? step.substr(1) : step;
    std::vector<std::string> out;
    auto push = [&](std::string v) {
        if (out.size() >= max_values) bad_spec(arg, "more than " + std::to_string(max_values) + " values");
        out.push_back(std::move(v));
    };
    if (mult) {
        if (!plain_number(s)) bad_spec(arg, "the factor '" + s + "' is not a number");
        const long double f = std::stold(s);
        if (f <= 1) bad_spec(arg, "the factor must be above 1");
    }
    if (plain_number(a) && plain_number(b)) {
        const long double lo = std::stold(a), hi = std::stold(b);
        if (lo > hi) bad_spec(arg, "the range starts above its end");
        if (mult) {
            if (lo <= 0) bad_spec(arg, "a multiplicative range must start above 0");
            for (long double v = lo; v <= hi * (1 + 1e-12L); v *= std::stold(s)) push(number_text(v));
        } else {
            if (!plain_number(s) || std::stold(s) <= 0) bad_spec(arg, "the step '" + s + "' is not a positive number");
            const long double st = std::stold(s);
            for (std::size_t k = 0;; ++k) {
                const long double v = lo + st * static_cast<long double>(k);
                if (v > hi * (1 + 1e-12L) + 1e-12L) break;
                push(number_text(v));
            }
        }
        return out;
    }
    for (const family& f : families()) {
        std::uint64_t lo = 0, hi = 0, st = 0;
        try {
            lo = f.parse(a);
        } catch (const std::exception&) {
            continue;  // not this family
        }
        try {
            hi = f.parse(b);
            if (!mult) st = f.parse(s);
        } catch (const std::exception& e) {
            bad_spec(arg, "the range starts with a " + std::string(f.name) + " but " + e.what());
        }
        if (lo > hi) bad_spec(arg, "the range starts above its end");
        if (mult) {
            if (lo == 0) bad_spec(arg, "a multiplicative range must start above 0");
            const long double factor = std::stold(s);
            for (long double v = static_cast<long double>(lo); v <= static_cast<long double>(hi) * (1 + 1e-12L); v *= factor)
                push(f.format(static_cast<std::uint64_t>(std::llround(v))));
        } else {
            if (st == 0) bad_spec(arg, "the step must be above 0");
            for (std::uint64_t v = lo; v <= hi; v += st) {
                push(f.format(v));
                if (hi - v < st) break;
            }
        }
        return out;
    }
    bad_spec(arg, "'" + a + "' is neither a number nor a quantity with a unit (MHz, us, KiB, cycles, ...)");
}

}  // namespace

sweep_axis parse_vary(const std::string& arg) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0) bad_spec(arg, "no PATH=SPEC");
    sweep_axis ax;
    ax.path = arg.substr(0, eq);
    const std::string spec = arg.substr(eq + 1);
    if (spec.empty()) bad_spec(arg, "no values after '='");
    if (spec.find(':') != std::string::npos && spec.find('{') == std::string::npos && spec.find('[') == std::string::npos) {
        std::vector<std::string> parts;
        std::stringstream ss(spec);
        for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
        if (parts.size() != 3 || parts[0].empty() || parts[1].empty() || parts[2].empty())
            bad_spec(arg, "a range has three parts, START:STOP:STEP");
        ax.values = expand_range(arg, parts[0], parts[1], parts[2]);
    } else {
        // Split at commas outside brackets and braces ([{core: a}, {core: b}] is one value).
        int depth = 0;
        std::string v;
        for (char c : spec + ",") {
            if (c == '[' || c == '{') ++depth;
            if (c == ']' || c == '}') --depth;
            if (c != ',' || depth > 0) {
                v += c;
                continue;
            }
            if (v.empty()) bad_spec(arg, "an empty value in the list");
            ax.values.push_back(v);
            v.clear();
        }
    }
    return ax;
}

std::vector<std::vector<std::string>> sweep_points(const std::vector<sweep_axis>& axes, bool zip) {
    std::vector<std::vector<std::string>> pts;
    if (axes.empty()) return pts;
    if (zip) {
        for (const auto& a : axes)
            if (a.values.size() != axes[0].values.size())
                throw usage_error("--zip pairs the values of every --vary, so they need as many values each: " + axes[0].path +
                                  " has " + std::to_string(axes[0].values.size()) + ", " + a.path + " has " +
                                  std::to_string(a.values.size()));
        for (std::size_t i = 0; i < axes[0].values.size(); ++i) {
            std::vector<std::string> p;
            for (const auto& a : axes) p.push_back(a.values[i]);
            pts.push_back(p);
        }
        return pts;
    }
    pts.push_back({});
    for (const auto& a : axes) {
        std::vector<std::vector<std::string>> next;
        for (const auto& p : pts)
            for (const auto& v : a.values) {
                auto q = p;
                q.push_back(v);
                next.push_back(q);
            }
        pts = std::move(next);
    }
    if (pts.size() > 100000) throw usage_error("the grid has " + std::to_string(pts.size()) + " points (at most 100000)");
    return pts;
}

// ---- the command ------------------------------------------------------------

namespace {

// What its runs are given, as its config file says now: the effective config
// of the sweep's first run and the bytes of the program files it names
// (FNV-1a, in hex; a program's .include files are not read). A sweep run again
// after its config or a file it includes changed is another sweep, and must
// not take the old file's points as its own. Every run shares the file with
// the first, apart from the values the sweep sets (the axes, --set), which
// sweep.json records; so an edit that reaches any run reaches the first
// (and one that only touches values the sweep sets reaches none: `cohsim
// calibrate` writing its ranges into a platform whose every drawn value its
// runs set). "" for the standard input (read once) and a config that does not
// load (its points cannot have run; check_points names the error).
std::string config_digest(const sweep_def& def) {
    if (def.config == "-") return "";
    const auto runs = def.runs();
    auto o = numbered(def.sets);
    const std::size_t n = def.axes.size() + def.members.size();
    for (std::size_t i = 0; i < n && !runs.empty(); ++i) {
        const std::string& path = i < def.axes.size() ? def.axes[i].path : def.members[i - def.axes.size()].path;
        o.emplace_back("--vary " + path, path + "=" + runs[0][i]);
    }
    std::string text;
    try {
        const platform_config pc = load_platform(def.config, o);
        text = cfg::to_yaml(effective_config(pc));
        // The files the workload names (its program, trace, threads' own
        // programs, resolved to absolute paths): their bytes, as the runs read them.
        std::vector<std::string> files = {pc.workload.program};
        if (pc.workload.trace) files.push_back(*pc.workload.trace);
        for (const auto& t : pc.workload.threads)
            if (t.program) files.push_back(*t.program);
        for (const auto& f : files)
            if (!f.empty() && fs::is_regular_file(f)) text += "\n# " + f + "\n" + read_file(f);
    } catch (const cfg::config_error&) {
        return "";
    }
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
    std::ostringstream out;
    out << std::hex << std::setw(16) << std::setfill('0') << h;
    return out.str();
}

}  // namespace

json sweep_def::to_json() const {
    json j;
    j["config"] = config;
    j["config_digest"] = "";
    j["sets"] = sets;
    j["zip"] = zip;
    auto list = [](const std::vector<sweep_axis>& v) {
        json ax = json::array();
        for (const auto& a : v) ax.push_back({{"path", a.path}, {"values", a.values}});
        return ax;
    };
    j["axes"] = list(axes);
    if (!members.empty()) j["members"] = list(members);
    if (j != digest_of) {
        digest = config_digest(*this);
        digest_of = j;
    }
    j["config_digest"] = digest;
    return j;
}

sweep_def sweep_def::from_json(const json& j) {
    sweep_def d;
    d.config = j.at("config").get<std::string>();
    d.sets = j.at("sets").get<std::vector<std::string>>();
    d.zip = j.at("zip").get<bool>();
    for (const auto& a : j.at("axes")) d.axes.push_back({a.at("path").get<std::string>(), a.at("values").get<std::vector<std::string>>()});
    if (j.contains("members"))
        for (const auto& a : j.at("members"))
            d.members.push_back({a.at("path").get<std::string>(), a.at("values").get<std::vector<std::string>>()});
    return d;
}

std::vector<std::vector<std::string>> sweep_def::runs() const {
    const auto pts = sweep_points(axes, zip);
    if (members.empty()) return pts;
    const auto ms = sweep_points(members, true);
    std::vector<std::vector<std::string>> out;
    out.reserve(pts.size() * ms.size());
    for (const auto& p : pts)
        for (const auto& m : ms) {
            out.push_back(p);
            out.back().insert(out.back().end(), m.begin(), m.end());
        }
    return out;
}

std::vector<std::string> sweep_def::run_args(const std::vector<std::string>& run, const std::string& out) const {
    std::vector<std::string> args = {"run"};
    if (!config.empty()) args.push_back(config);
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    for (std::size_t i = 0; i < axes.size(); ++i) args.insert(args.end(), {"--set", axes[i].path + "=" + run[i]});
    for (std::size_t i = 0; i < members.size(); ++i)
        args.insert(args.end(), {"--set", members[i].path + "=" + run[axes.size() + i]});
    args.insert(args.end(), {"-q", "--out", out});
    return args;
}

std::string write_array_script(const fs::path& dir, const std::string& name, std::size_t tasks,
                               const std::vector<std::string>& command) {
    auto quoted = [](const std::string& a) {
        std::string q = "'";
        for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return q + "'";
    };
    std::ostringstream sb;
    sb << "#!/bin/sh\n# A Slurm job array: one task per point of this cohsim " << name << ".\n"
       << "#SBATCH --job-name=cohsim-" << name << "\n#SBATCH --array=0-" << tasks - 1 << "\n#SBATCH --ntasks=1\n"
       << "#SBATCH --output=" << (dir / "points" / "slurm-%a.out").string() << "\n"
       << "exec " << quoted(self_binary());
    for (const auto& a : command) sb << " " << quoted(a);
    sb << " --point \"$SLURM_ARRAY_TASK_ID\"\n";
    const std::string path = (dir / (name + ".sbatch")).string();
    write_file_atomic(path, sb.str());
    return path;
}

void check_same_sweep(const sweep_def& def, const fs::path& dir, const std::string& out_dir) {
    if (!fs::exists(dir / "sweep.json")) return;
    json old = json::parse(read_file((dir / "sweep.json").string()));
    old.erase("points");
    old.erase("summary");
    old.erase("provenance");
    const json now = def.to_json();
    if (old == now) return;
    // Another sweep: refused while it holds a finished point; one with none
    // (every point failed, or none ran) is cleared and reused.
    json same_file = old;
    same_file["config_digest"] = now["config_digest"];
    const std::string why = same_file == now ? "its points ran with another version of " +
                                                   (def.config.empty() ? std::string("the built-in config") : def.config) +
                                                   ", whose config_digest differs"
                                             : "its sweep.json differs from this command";
    if (fs::exists(dir / "points"))
        for (const auto& e : fs::directory_iterator(dir / "points"))
            if (fs::exists(e.path() / "cores.csv"))
                throw usage_error(out_dir + " holds another sweep (" + why + ") with finished points; use another --out");
    fs::remove_all(dir / "points");
    fs::remove(dir / "sweep.json");
    fs::remove(dir / "results.csv");
    fs::create_directories(dir / "points");
}

void check_points(const sweep_def& def) {
    const auto pts = sweep_points(def.axes, def.zip);
    const auto base = numbered(def.sets);
    for (std::size_t k = 0; k < pts.size(); ++k) {
        auto o = base;
        for (std::size_t i = 0; i < def.axes.size(); ++i)
            o.emplace_back("--vary " + def.axes[i].path, def.axes[i].path + "=" + pts[k][i]);
        try {
            load_platform(def.config, o);
        } catch (const cfg::config_error& e) {
            std::string values;
            for (std::size_t i = 0; i < def.axes.size(); ++i)
                values += (values.empty() ? "" : ", ") + def.axes[i].path + "=" + pts[k][i];
            throw usage_error("point " + std::to_string(k) + " (" + values + ") is not a valid config, so no point ran: " +
                              e.what());
        }
    }
}

std::string point_name(std::size_t k) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04zu", k);
    return buf;
}


namespace {

std::string tail_of(const std::string& text, std::size_t lines) {
    std::size_t pos = text.size();
    for (std::size_t n = 0; n <= lines && pos > 0; ++n) {
        const auto p = text.rfind('\n', pos - 1);
        if (p == std::string::npos) return text;
        pos = p;
        if (n == lines) return text.substr(pos + 1);
    }
    return text;
}

}  // namespace

std::vector<std::string> csv_split(const std::string& line) {
    std::vector<std::string> f(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') f.back() += '"', ++i;
        else if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) f.emplace_back();
        else f.back() += c;
    }
    return f;
}

namespace {

std::string csv_field(const std::string& v) {
    if (v.find_first_of(",\"\n") == std::string::npos) return v;
    std::string q = "\"";
    for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string clock_text(double s) {
    const long t = std::lround(s);
    char buf[32];
    if (t >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t / 60) % 60);
    else
        std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    return buf;
}

enum class point_state { todo, done, failed };

point_state state_of(const fs::path& dir, std::size_t k) {
    const fs::path p = dir / "points" / point_name(k);
    if (fs::exists(p / "cores.csv")) return point_state::done;
    if (fs::exists(dir / "points" / (point_name(k) + ".error"))) return point_state::failed;
    return point_state::todo;
}

// A swept value with a unit as a number in one base unit, for analysis:
// the column's unit suffix and each value's number, or no suffix when the
// values are not all of one physical kind (plain numbers and names).
struct numeric_axis {
    std::string suffix;
    std::vector<std::string> numbers;  // by index of the axis's values
};

numeric_axis numeric_values(const std::vector<std::string>& values) {
    auto all = [&](const char* suffix, auto parse) {
        numeric_axis n{suffix, {}};
        for (const auto& v : values) try {
                char b[40];
                std::snprintf(b, sizeof b, "%.17g", parse(v));
                n.numbers.push_back(b);
            } catch (const std::exception&) {
                return numeric_axis{};
            }
        return n;
    };
    for (auto n : {all("_hz", [](const std::string& v) { return static_cast<double>(parse_frequency(v).hz); }),
                   all("_ns", [](const std::string& v) { return parse_duration(v).ns(); }),
                   all("_bytes", [](const std::string& v) { return static_cast<double>(parse_byte_size(v).bytes); }),
                   all("_cycles", [](const std::string& v) { return static_cast<double>(parse_cycles(v).n); })})
        if (!n.suffix.empty()) return n;
    return {};
}

// results.csv and sweep.json from the points on disk. Each swept path is a
// column as written in --vary, and, when its values have a unit, a numeric
// column PATH_hz / _ns / _bytes / _cycles beside it.
}  // namespace

std::string progress_text(std::size_t finished, std::size_t total, std::size_t failed, std::chrono::steady_clock::time_point t0) {
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double eta = finished ? el / static_cast<double>(finished) * static_cast<double>(total - finished) : 0;
    std::ostringstream line;
    line << "[" << finished << "/" << total << "] " << failed << " failed, elapsed " << clock_text(el) << ", ETA " << clock_text(eta);
    return line.str();
}

namespace {

std::string number_field(double v) {
    if (!std::isfinite(v)) return "";
    std::ostringstream o;
    o << std::setprecision(6) << v;
    return o.str();
}

// results.csv of a sweep with members: per point and core, each numeric
// column of cores.csv as the members' median (under its own name, so that
// plots of plain sweeps read it too) and 5-95% band (NAME_p5, NAME_p95),
// the rate (acq_per_s), the most frequent verdict and each verdict's share
// of the members (p_fair, p_DISADVANTAGED, ...). `prefix(p)`: the point's
// columns; `rows[p][core]`: each done member's cores.csv fields.
std::string band_csv(const std::vector<std::string>& header, const std::string& prefix_header,
                     const std::function<std::string(std::size_t)>& prefix,
                     const std::vector<std::vector<std::pair<std::string, std::vector<std::vector<std::string>>>>>& rows) {
    auto col = [&](const char* name) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    const std::size_t c_verdict = col("verdict"), c_acq = col("acquisitions"), c_ns = col("simulated_ns");
    std::vector<std::size_t> metrics;  // numeric columns, in cores.csv's order
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] != "core" && header[i] != "cluster" && header[i] != "type" && header[i] != "verdict" &&
            header[i] != "seed" && header[i] != "simulated_ns")
            metrics.push_back(i);
    std::ostringstream csv;
    csv << prefix_header << ",core,cluster,type,members";
    auto band_header = [&](const std::string& m) { csv << "," << m << "," << m << "_p5," << m << "_p95"; };
    for (std::size_t i : metrics) band_header(header[i]);
    band_header("acq_per_s");
    csv << ",verdict";
    for (verdict v : all_verdicts) {
        std::string n = std::string("p_") + name(v);
        std::replace(n.begin(), n.end(), ' ', '_');
        csv << "," << n;
    }
    csv << "\n";
    auto number = [](const std::string& t) { return t.empty() ? std::nan("") : std::strtod(t.c_str(), nullptr); };
    for (std::size_t p = 0; p < rows.size(); ++p)
        for (const auto& [core, ms] : rows[p]) {
            const auto& first = ms.front();
            csv << prefix(p) << "," << first[col("core")] << "," << first[col("cluster")] << "," << first[col("type")] << ","
                << ms.size();
            auto band = [&](std::vector<double> xs) {
                xs.erase(std::remove_if(xs.begin(), xs.end(), [](double x) { return std::isnan(x); }), xs.end());
                csv << "," << number_field(quantile(xs, 0.5)) << "," << number_field(quantile(xs, 0.05)) << ","
                    << number_field(quantile(xs, 0.95));
            };
            for (std::size_t i : metrics) {
                std::vector<double> xs;
                for (const auto& m : ms) xs.push_back(number(m[i]));
                band(xs);
            }
            std::vector<double> rate;
            for (const auto& m : ms) rate.push_back(number(m[c_acq]) / (number(m[c_ns]) * 1e-9));
            band(rate);
            std::map<std::string, std::size_t> count;
            for (const auto& m : ms) ++count[m[c_verdict]];
            std::string most;
            std::size_t most_n = 0;
            for (const auto& [v, n] : count)
                if (n > most_n) most = v, most_n = n;
            csv << "," << most;
            for (verdict v : all_verdicts) {
                const auto it = count.find(name(v));
                csv << "," << number_field(it == count.end() ? 0.0 : static_cast<double>(it->second) / static_cast<double>(ms.size()));
            }
            csv << "\n";
        }
    return csv.str();
}

int aggregate(const fs::path& dir, const sweep_def& def) {
    const auto pts = def.runs();
    const std::size_t n_members = def.member_count();
    std::vector<numeric_axis> numeric;
    for (const auto& a : def.axes) numeric.push_back(numeric_values(a.values));
    // A point's columns: each axis's value (and its number when it has a unit).
    std::string axes_header;
    for (std::size_t i = 0; i < def.axes.size(); ++i) {
        axes_header += "," + csv_field(def.axes[i].path);
        if (!numeric[i].suffix.empty()) axes_header += "," + csv_field(def.axes[i].path + numeric[i].suffix);
    }
    auto axes_fields = [&](const std::vector<std::string>& v) {
        std::string out;
        for (std::size_t i = 0; i < def.axes.size(); ++i) {
            out += "," + csv_field(v[i]);
            if (!numeric[i].suffix.empty()) {
                const auto& vals = def.axes[i].values;
                out += "," + numeric[i].numbers[static_cast<std::size_t>(std::find(vals.begin(), vals.end(), v[i]) - vals.begin())];
            }
        }
        return out;
    };
    std::string member_header;
    for (const auto& m : def.members) member_header += "," + csv_field(m.path);
    std::ostringstream csv;  // every run's rows: results.csv, or members.csv with members
    bool header = false;
    std::vector<std::string> fields;  // cores.csv's header
    const std::size_t n_points = n_members ? pts.size() / n_members : pts.size();
    std::vector<std::vector<std::pair<std::string, std::vector<std::vector<std::string>>>>> by_point(n_points);
    json points = json::array();
    int failed = 0, todo = 0;
    for (std::size_t k = 0; k < pts.size(); ++k) {
        const point_state st = state_of(dir, k);
        json jp = {{"point", k}, {"dir", "points/" + point_name(k)}};
        for (std::size_t i = 0; i < def.axes.size(); ++i) jp["values"][def.axes[i].path] = pts[k][i];
        for (std::size_t i = 0; i < def.members.size(); ++i) jp["values"][def.members[i].path] = pts[k][def.axes.size() + i];
        jp["state"] = st == point_state::done ? "done" : st == point_state::failed ? "failed" : "not run";
        if (st == point_state::failed) {
            ++failed;
            jp["error"] = read_file((dir / "points" / (point_name(k) + ".error")).string());
        }
        if (st == point_state::todo) ++todo;
        points.push_back(jp);
        if (st != point_state::done) continue;
        std::istringstream rows(read_file((dir / "points" / point_name(k) / "cores.csv").string()));
        std::string line;
        std::getline(rows, line);  // the point's header
        if (!header) {
            csv << (n_members ? "run,point,member" : "point") << axes_header << member_header << "," << line << "\n";
            fields = csv_split(line);
            header = true;
        }
        while (std::getline(rows, line)) {
            if (line.empty()) continue;
            csv << k;
            if (n_members) csv << "," << k / n_members << "," << k % n_members;
            csv << axes_fields(pts[k]);
            for (std::size_t i = 0; i < def.members.size(); ++i) csv << "," << csv_field(pts[k][def.axes.size() + i]);
            csv << "," << line << "\n";
            if (!n_members) continue;
            auto f = csv_split(line);
            auto& cores = by_point[k / n_members];
            auto it = std::find_if(cores.begin(), cores.end(), [&](const auto& c) { return c.first == f[0]; });
            if (it == cores.end()) cores.emplace_back(f[0], std::vector<std::vector<std::string>>{}), it = cores.end() - 1;
            it->second.push_back(std::move(f));
        }
    }
    json manifest = def.to_json();
    manifest["provenance"] = provenance();
    manifest["points"] = points;
    manifest["summary"] = {{"points", pts.size()}, {"done", pts.size() - failed - todo}, {"failed", failed}, {"not_run", todo}};
    if (n_members) {
        manifest["summary"]["grid_points"] = n_points;
        manifest["summary"]["members"] = n_members;
        write_file_atomic((dir / "members.csv").string(), csv.str());
        const auto grid = sweep_points(def.axes, def.zip);
        const std::string bands =
            header ? band_csv(fields, "point" + axes_header, [&](std::size_t p) { return std::to_string(p) + axes_fields(grid[p]); },
                              by_point)
                   : "";
        write_file_atomic((dir / "results.csv").string(), bands);
    } else {
        write_file_atomic((dir / "results.csv").string(), csv.str());
    }
    write_file_atomic((dir / "sweep.json").string(), manifest.dump(2) + "\n");
    return failed;
}

// Runs point k into points/k.tmp, then renames it into place (or records the error).
void finish_point(const fs::path& dir, std::size_t k, const child_job& job) {
    const fs::path tmp = dir / "points" / (point_name(k) + ".tmp");
    const fs::path final_dir = dir / "points" / point_name(k);
    if (job.status == 0 && fs::exists(tmp / "cores.csv")) {
        fs::rename(tmp, final_dir);
        return;
    }
    const std::string log = read_file(job.log);
    write_file_atomic((dir / "points" / (point_name(k) + ".error")).string(),
                      "exit status " + std::to_string(job.status) + "\n" + tail_of(log, 20));
    fs::remove_all(tmp);
}

child_job point_job(const fs::path& dir, const sweep_def& def, const std::vector<std::string>& point, std::size_t k) {
    const fs::path tmp = dir / "points" / (point_name(k) + ".tmp");
    fs::remove_all(tmp);
    fs::remove(dir / "points" / (point_name(k) + ".error"));
    fs::create_directories(tmp);
    child_job j;
    j.args = def.run_args(point, tmp.string());
    j.log = (tmp / "run.log").string();
    return j;
}

}  // namespace

int merge_sweep(const fs::path& dir, const sweep_def& def) { return aggregate(dir, def); }

int run_one_point(const sweep_def& def, const fs::path& dir, std::size_t k) {
    const auto pts = def.runs();
    if (k >= pts.size())
        throw usage_error("--point " + std::to_string(k) + ": the sweep has points 0 to " + std::to_string(pts.size() - 1));
    fs::create_directories(dir / "points");
    if (state_of(dir, k) == point_state::done) return 0;
    std::vector<child_job> one = {point_job(dir, def, pts[k], k)};
    run_children(one, 1, [](std::size_t) {});
    finish_point(dir, k, one[0]);
    aggregate(dir, def);
    return state_of(dir, k) == point_state::done ? 0 : 1;
}

int run_sweep(const sweep_def& def, const fs::path& dir, unsigned jobs, const std::string& out_dir,
              const std::vector<std::size_t>* only) {
    const auto pts = def.runs();
    check_points(def);
    fs::create_directories(dir / "points");
    check_same_sweep(def, dir, out_dir);
    // Stale partial points of an interrupted sweep go; finished ones stay.
    for (const auto& e : fs::directory_iterator(dir / "points"))
        if (e.path().extension() == ".tmp") fs::remove_all(e.path());
    std::vector<std::size_t> wanted, todo;
    for (std::size_t k = 0; k < pts.size(); ++k)
        if (!only || std::binary_search(only->begin(), only->end(), k)) wanted.push_back(k);
    for (std::size_t k : wanted)
        if (state_of(dir, k) != point_state::done) todo.push_back(k);
    aggregate(dir, def);
    const bool tty = isatty(STDERR_FILENO);
    std::cerr << "cohsim sweep: " << wanted.size() << " points" << (only ? " of " + std::to_string(pts.size()) : "") << ", "
              << wanted.size() - todo.size() << " already done, " << todo.size() << " to run, " << jobs << " at a time, in "
              << out_dir << "\n";
    std::vector<child_job> children;
    for (std::size_t k : todo) children.push_back(point_job(dir, def, pts[k], k));
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t finished = 0;
    int failed_now = 0;
    // The aggregate re-reads every finished point: brought up to date at most
    // every 2 s, and never taking more than a fifth of the time, so a sweep of
    // many short points stays linear. points/ is the record either way.
    auto last_aggregate = t0;
    double aggregate_cost = 0;
    auto refresh = [&] {
        const auto now = std::chrono::steady_clock::now();
        if (std::chrono::duration<double>(now - last_aggregate).count() < std::max(2.0, 4 * aggregate_cost)) return;
        aggregate(dir, def);
        last_aggregate = std::chrono::steady_clock::now();
        aggregate_cost = std::chrono::duration<double>(last_aggregate - now).count();
    };
    // Interrupted: the stopped points' partial folders go, the finished stay
    // (the same command again runs only what is missing).
    const auto on_done = [&](std::size_t i) {
        const std::size_t k = todo[i];
        finish_point(dir, k, children[i]);
        ++finished;
        const bool ok = state_of(dir, k) == point_state::done;
        failed_now += !ok;
        const std::string line = progress_text(finished, todo.size(), static_cast<std::size_t>(failed_now), t0);
        if (tty)
            std::cerr << "\r" << line << "   " << std::flush;
        else
            std::cerr << line << ": point " << k << (ok ? " done" : " FAILED (see points/" + point_name(k) + ".error)")
                      << "\n";
        refresh();  // results so far, in case the sweep is killed
    };
    try {
        run_children(children, jobs, on_done);
    } catch (const children_interrupted& e) {
        if (tty) std::cerr << "\n";
        for (const auto& e2 : fs::directory_iterator(dir / "points"))
            if (e2.path().extension() == ".tmp") fs::remove_all(e2.path());
        aggregate(dir, def);
        std::size_t done_now = 0;
        for (std::size_t k : wanted) done_now += state_of(dir, k) == point_state::done;
        throw children_interrupted(std::string(e.what()) + ": " + std::to_string(done_now) + " of " +
                                   std::to_string(wanted.size()) + " points done, in " + (dir / "results.csv").string());
    }
    if (tty && !todo.empty()) std::cerr << "\n";
    aggregate(dir, def);
    // Every wanted point has run: one not done failed.
    std::size_t failed = 0;
    for (std::size_t k : wanted) failed += state_of(dir, k) != point_state::done;
    std::cout << wanted.size() - failed << " of " << wanted.size() << " points done"
              << (failed ? ", " + std::to_string(failed) + " failed (see " + out_dir + "/points/*.error)" : "") << "; "
              << (dir / "results.csv").string() << "\n";
    return failed ? 1 : 0;
}

}  // namespace cohsim

#include "app/scaling.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "app/data.h"
#include "app/ensemble.h"
#include "app/microbench.h"
#include "app/options.h"
#include "app/platform.h"
#include "app/text_table.h"
#include "sim/files.h"
#include "workloads/elf.h"

namespace cohsim {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream ss(text);
    std::string w;
    while (std::getline(ss, w, ','))
        if (!w.empty()) out.push_back(w);
    return out;
}

std::string number_text(double v, const char* format) {
    char b[48];
    std::snprintf(b, sizeof b, format, v);
    return b;
}

// A figure over the members: its median and 5-95% band (one member: its value).
json band_of(const std::vector<double>& xs) {
    if (xs.empty()) return nullptr;
    return {{"p5", quantile(xs, 0.05)}, {"p50", quantile(xs, 0.5)}, {"p95", quantile(xs, 0.95)}};
}

// What one run of a point measured, from its result.json.
struct run_figures {
    double throughput = 0, fairness = 0, events_per_acquisition = 0;
};

run_figures figures_of(const json& res) {
    std::vector<double> acq;
    for (std::uint64_t n : lock_operations(res)) acq.push_back(static_cast<double>(n));
    double sum = 0, squares = 0;
    for (double a : acq) sum += a, squares += a * a;
    run_figures f;
    const double seconds = res.at("simulated_ns").get<double>() * 1e-9;
    f.throughput = seconds > 0 ? sum / seconds : 0;
    // Jain's index over the threads: 1 when every thread took as many.
    f.fairness = squares > 0 ? sum * sum / (static_cast<double>(acq.size()) * squares) : 0;
    f.events_per_acquisition = sum > 0 ? res.at("sim_events").get<double>() / sum : 0;
    return f;
}

}  // namespace

std::vector<std::string> placed_cores(const std::vector<std::string>& cores, const std::vector<unsigned>& sockets,
                                      const std::string& placement, std::size_t n) {
    std::vector<std::string> out;
    const std::size_t all = cores.size();
    if (placement == "compact") {
        out.assign(cores.begin(), cores.begin() + static_cast<std::ptrdiff_t>(n));
    } else if (placement == "spread") {
        for (std::size_t i = 0; i < n; ++i) out.push_back(cores[i * all / n]);
    } else {  // sockets: one core of each socket in turn, each socket's in order
        const unsigned count = *std::max_element(sockets.begin(), sockets.end()) + 1;
        std::vector<std::vector<std::string>> by(count);
        for (std::size_t i = 0; i < all; ++i) by[sockets[i]].push_back(cores[i]);
        for (std::size_t round = 0; out.size() < n; ++round)
            for (unsigned s = 0; s < count && out.size() < n; ++s)
                if (round < by[s].size()) out.push_back(by[s][round]);
    }
    return out;
}

int measure_scaling(scale_request q) {
    sweep_def& def = q.def;
    // A compiled C program runs a function of it; an assembly one its start.
    const bool elf = asmx::is_elf(q.program);
    if (elf && q.function.empty())
        throw usage_error("--program " + q.program + ": an ELF program, but no --function for the threads to run "
                          "(expected e.g. --function thread)");
    if (!elf && !q.function.empty())
        throw usage_error("--function " + q.function + ": only an ELF program has functions to choose from (" + q.program +
                          " is assembly: its threads run it from its start)");
    // Before the user's --set: `--set workload.params.OUTSIDE=200` applies to this program.
    def.sets.insert(def.sets.begin(),
                    {"workload={program: " + q.program + (q.function.empty() ? "" : ", function: " + q.function) + "}",
                     "run.duration=" + q.duration});
    const platform_config cfg = load_sweep_config(def);
    std::vector<std::string> cores;
    std::vector<unsigned> sockets;
    for (const auto& [name, cl] : cfg.clusters)
        for (unsigned i = 0; i < cl.cores; ++i) cores.push_back(name + "." + std::to_string(i)), sockets.push_back(cl.socket);
    const std::size_t all = cores.size();
    const unsigned n_sockets = *std::max_element(sockets.begin(), sockets.end()) + 1;

    std::vector<std::size_t> counts;
    if (q.threads.empty()) {
        for (std::size_t n = 1; n < all; n *= 2) counts.push_back(n);
        counts.push_back(all);
    } else {
        for (const auto& w : split_list(q.threads))
            counts.push_back(static_cast<std::size_t>(parse_count(w, "--threads", 1, all)));
        if (counts.empty()) throw usage_error("--threads: no count given (expected e.g. 1,2,4,8)");
    }
    const std::vector<std::string> placements = split_list(q.placement);
    if (placements.empty()) throw usage_error("--placement: no placement given (expected compact, spread or sockets)");
    for (const auto& p : placements) {
        if (p != "compact" && p != "spread" && p != "sockets")
            throw usage_error("--placement " + p + ": unknown (expected compact, spread or sockets, comma-separated)");
        if (p == "sockets" && n_sockets < 2)
            throw usage_error("--placement sockets: the platform has one socket (expected compact or spread)");
    }

    // One zipped axis: every (placement, count) point's threads.
    sweep_axis threads{"workload.threads", {}};
    json points = json::array();
    for (const auto& p : placements)
        for (std::size_t n : counts) {
            const auto on = placed_cores(cores, sockets, p, n);
            std::string list;
            for (const auto& c : on) list += (list.empty() ? "[" : ", ") + std::string("{core: ") + c + "}";
            threads.values.push_back(list + "]");
            points.push_back({{"placement", p}, {"threads", n}, {"cores", on}});
        }
    def.axes = {threads};
    def.zip = true;
    if (q.members > 1) def.members = member_axes(cfg, q.members, {"workload.threads"});
    const fs::path dir = fs::absolute(q.out_dir);
    fs::create_directories(dir / "points");
    check_same_sweep(def, dir, q.out_dir);
    const int failed = run_sweep(def, dir, q.jobs, q.out_dir);

    const std::size_t per_point = std::max<std::size_t>(1, def.member_count());
    for (std::size_t k = 0; k < points.size(); ++k) {
        std::vector<double> tp, fair, events;
        for (std::size_t m = 0; m < per_point; ++m) {
            const fs::path f = dir / "points" / point_name(k * per_point + m) / "result.json";
            if (!fs::exists(f)) continue;
            const run_figures r = figures_of(json::parse(read_file(f.string())));
            tp.push_back(r.throughput), fair.push_back(r.fairness), events.push_back(r.events_per_acquisition);
        }
        json& pt = points[k];
        pt["runs"] = tp.size();
        pt["throughput_per_s"] = band_of(tp);
        pt["fairness"] = band_of(fair);
        pt["events_per_acquisition"] = band_of(events);
    }
    json out = {{"platform", fs::path(def.config).stem().string()}, {"config", def.config}, {"program", q.program},
                {"duration", q.duration}, {"members", per_point}, {"cores", all}, {"points", points}};
    write_file_atomic((dir / "scale.json").string(), out.dump(1) + "\n");
    std::ostringstream csv;
    csv << "placement,threads,runs,throughput_per_s,throughput_per_s_p5,throughput_per_s_p95,fairness,fairness_p5,"
           "fairness_p95,events_per_acquisition,events_per_acquisition_p5,events_per_acquisition_p95\n";
    for (const auto& pt : points) {
        csv << pt["placement"].get<std::string>() << "," << pt["threads"].get<std::size_t>() << "," << pt["runs"].get<std::size_t>();
        for (const char* key : {"throughput_per_s", "fairness", "events_per_acquisition"}) {
            const json& b = pt[key];
            for (const char* q_ : {"p50", "p5", "p95"}) csv << "," << (b.is_null() ? "" : number_text(b[q_].get<double>(), "%.6g"));
        }
        csv << "\n";
    }
    write_file_atomic((dir / "scale.csv").string(), csv.str());
    std::cout << scale_text(out) << "\n" << (dir / "scale.json").string() << "\n";
    return failed ? 1 : 0;
}

json scale_report(const std::string& dir_text) {
    const fs::path dir(dir_text);
    if (!fs::exists(dir / "scale.json"))
        throw usage_error(dir_text + ": no scale.json there (expected the --out directory of cohsim scale)");
    return json::parse(read_file((dir / "scale.json").string()));
}

std::string scale_text(const json& r) {
    std::ostringstream os;
    const std::size_t members = r["members"].get<std::size_t>();
    os << "lock scaling: " << r["platform"].get<std::string>() << ", " << r["program"].get<std::string>() << ", "
       << r["duration"].get<std::string>() << " per run"
       << (members > 1 ? ", " + std::to_string(members) + " members per point: medians [5-95% band]" : std::string())
       << "\n\n";
    auto cell = [&](const json& b, const char* format) {
        if (b.is_null()) return std::string("-");
        std::string s = number_text(b["p50"].get<double>(), format);
        if (members > 1)
            s += " [" + number_text(b["p5"].get<double>(), format) + ".." + number_text(b["p95"].get<double>(), format) + "]";
        return s;
    };
    text_table t(1);
    t.header({"placement", "threads", "lock ops/s", "per thread/s", "fairness", "events/op"});
    for (const auto& pt : r["points"]) {
        const double n = static_cast<double>(pt["threads"].get<std::size_t>());
        json per = pt["throughput_per_s"];
        if (!per.is_null())
            for (auto& [k, v] : per.items()) v = v.get<double>() / n;
        t.row({pt["placement"].get<std::string>(), std::to_string(pt["threads"].get<std::size_t>()),
               cell(pt["throughput_per_s"], "%.4g"), cell(per, "%.4g"), cell(pt["fairness"], "%.3f"),
               cell(pt["events_per_acquisition"], "%.1f")});
    }
    os << t.str();
    return os.str();
}

}  // namespace cohsim

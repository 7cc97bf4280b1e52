#include "app/results.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "workloads/contention.h"
#include "sim/kernel.h"
#include "app/text_table.h"

namespace cohsim {

json to_json(const cfg::node& n) {
    switch (n.k) {
        case cfg::node::kind::null: return nullptr;
        case cfg::node::kind::scalar:
            if (n.s == cfg::node::style::boolean) return n.text == "true";
            if (n.s == cfg::node::style::number)
                return n.text[0] == '-' ? json(std::stoll(n.text)) : json(std::stoull(n.text));
            return n.text;
        case cfg::node::kind::seq: {
            json a = json::array();
            for (const auto& i : n.items) a.push_back(to_json(i));
            return a;
        }
        case cfg::node::kind::map: {
            json o = json::object();
            for (const auto& [k, v] : n.entries) o[k] = to_json(v);
            return o;
        }
    }
    return nullptr;
}

namespace {

struct json_stats : stat_visitor {
    json& out;
    explicit json_stats(json& o) : out(o) {}
    void counter(const std::string& name, const std::string&, std::uint64_t value) override { out[name] = value; }
    void distribution(const std::string& name, const std::string&, const summary& s) override {
        json h = json::array();
        for (const auto& b : s.histogram) h.push_back({b.lo, b.hi, b.count});
        // Of no samples, every statistic is undefined: null (NaN to pandas), not 0.
        auto v = [&](double x) { return s.count ? json(x) : json(nullptr); };
        out[name] = {{"count", s.count}, {"min", v(s.min)}, {"p25", v(s.p25)}, {"p50", v(s.p50)},
                     {"p75", v(s.p75)},  {"p90", v(s.p90)}, {"p99", v(s.p99)}, {"max", v(s.max)},
                     {"mean", v(s.mean)}, {"sd", v(s.sd)},  {"histogram", std::move(h)}};
    }
};

// Reads named counters and distributions of a group.
struct stat_reader : stat_visitor {
    std::map<std::string, std::uint64_t> counters;
    std::map<std::string, summary> dists;
    explicit stat_reader(const stat_group* g = nullptr) {
        if (g) g->accept(*this);
    }
    void counter(const std::string& name, const std::string&, std::uint64_t value) override { counters[name] = value; }
    void distribution(const std::string& name, const std::string&, const summary& s) override { dists[name] = s; }
    std::uint64_t get(const std::string& n) const {
        auto it = counters.find(n);
        return it == counters.end() ? 0 : it->second;
    }
    summary dist(const std::string& n) const {
        auto it = dists.find(n);
        return it == dists.end() ? summary{} : it->second;
    }
};

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string si(double v) {
    const char* suffix[] = {"", "k", "M", "G", "T"};
    int i = 0;
    while (v >= 1000 && i < 4) v /= 1000, ++i;
    if (i == 0 && v < 10) return fixed(v, v < 0.01 ? 4 : v < 1 ? 3 : 2);  // 0.072, not 0
    return fixed(v, v < 10 && i ? 2 : (v < 100 && i ? 1 : 0)) + suffix[i];
}

// A wait in ns as text with a fitting unit.
std::string wait_text(double ns) {
    if (ns >= 1e9) return fixed(ns / 1e9, 3) + " s";
    if (ns >= 1e6) return fixed(ns / 1e6, 3) + " ms";
    if (ns >= 1e3) return fixed(ns / 1e3, 3) + " us";
    return fixed(ns, 1) + " ns";
}

// Groups named "<core id>.<part>" (the core's L1, its lock thread).
std::map<std::string, std::map<std::string, const stat_group*>> per_core_groups(const system_model& sys) {
    std::map<std::string, std::map<std::string, const stat_group*>> out;
    auto add = [&](const stat_group* g) {
        const auto dot = g->name().rfind('.');
        if (dot == std::string::npos) return;
        const std::string owner = g->name().substr(0, dot);
        if (sys.find_core(owner)) out[owner][g->name().substr(dot + 1)] = g;
    };
    for (const stat_group* g : sys.memory().stat_groups()) add(g);
    for (const auto& t : sys.threads()) add(&t->metrics().stats()), add(&t->profile().stats());
    return out;
}

using core_parts = std::map<std::string, std::map<std::string, const stat_group*>>;

// A core's part ("l1", "lock"), or null when it has none.
const stat_group* part_of(const core_parts& parts, const std::string& core, const std::string& part) {
    auto it = parts.find(core);
    if (it == parts.end()) return nullptr;
    auto p = it->second.find(part);
    return p == it->second.end() ? nullptr : p->second;
}

contention judge_run(const system_model& sys, const run_outcome& run) {
    std::vector<contender> in;
    for (const auto& t : sys.threads())
        if (t->takes_locks())  // a program without lock marks contends for nothing
            in.push_back({t->core_id(), t->metrics().acquisitions(), t->metrics().longest_wait_ns(kernel::stopped() ? kernel::stop_time() : kernel::now())});
    return judge(in, run.simulated.ns());
}

const contender_result* verdict_of(const contention& c, const std::string& id) {
    for (const auto& r : c.cores)
        if (r.id == id) return &r;
    return nullptr;
}

// The program symbol a line belongs to: "lock", "nodes+0x40", or
// "stats@little.2" for a core's .private data; "" when none does.
std::string symbol_of(const system_model& sys, std::uint64_t line) {
    std::string best;
    std::uint64_t best_base = 0;
    auto consider = [&](const std::string& name, std::uint64_t base) {
        if (base <= line + 63 && base >= best_base && line - std::min(line, base) < 0x10000) {
            const std::uint64_t off = base > line ? 0 : line - base;
            std::ostringstream os;
            os << name;
            if (off) os << "+0x" << std::hex << off;
            best = os.str(), best_base = base;
        }
    };
    for (const auto& t : sys.threads()) {
        const core* c = sys.find_core(t->core_id());
        for (const auto& sym : t->program().symbols)
            if (sym.priv) consider(sym.name + "@" + t->core_id(), private_base + c->agent() * private_stride + sym.offset);
    }
    for (const auto& [name, addr] : shared_data(sys)) consider(name, addr);
    return best;
}

// The busiest lines (by requests served), at most `n`.
std::vector<memory_system::line_traffic> busiest_lines(const system_model& sys, std::size_t n) {
    auto all = sys.memory().traffic();
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.requests() > b.requests(); });
    while (!all.empty() && all.back().requests() == 0) all.pop_back();
    if (all.size() > n) all.resize(n);
    return all;
}

}  // namespace

namespace {
std::string& command_line_text() {
    static std::string text;
    return text;
}
}  // namespace

void set_command_line(int argc, const char* const* argv) {
    std::string t;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        const bool plain = !a.empty() && a.find_first_of(" \t'\"$`\\|&;<>(){}*?[]#~") == std::string::npos;
        std::string q = "'";
        for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        t += (i ? " " : "") + (plain ? a : q + "'");
    }
    command_line_text() = t;
}

json provenance() {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
    return {{"cohsim_version", version}, {"cohsim_commit", commit}, {"build_type", build_type},
            {"command_line", command_line_text()}, {"host", host}};
}

json make_result(const system_model& sys, const run_outcome& run, const std::string& config_source) {
    const auto& cfg = sys.config();
    json j;
    j["cohsim_version"] = version;
    j["cohsim_commit"] = commit;
    const json prov = provenance();
    for (const char* k : {"build_type", "command_line", "host"}) j[k] = prov[k];
    j["config_source"] = config_source;
    j["description"] = cfg.description;
    j["seed"] = cfg.run.seed;
    j["completed"] = run.completed;
    j["simulated_ns"] = run.simulated.ns();
    j["host_seconds"] = run.host_seconds;
    j["sim_events"] = run.events;
    j["config"] = to_json(effective_config(cfg));
    const auto parts = per_core_groups(sys);
    const contention judged = judge_run(sys, run);
    if (!judged.cores.empty())
        j["fairness"] = {{"jain", judged.jain},
                         {"contending_cores", judged.cores.size()},
                         {"turn_ns", judged.turn_ns},
                         {"enough_samples", judged.enough}};
    json cores = json::array();
    for (const auto& c : sys.cores()) {
        json o;
        o["id"] = c->id();
        o["cluster"] = c->cluster();
        o["index"] = c->index();
        o["type"] = cfg::value_traits<core_type>::format(c->type());
        o["freq_mhz"] = static_cast<double>(c->clock().freq().hz) / 1e6;
        o["asleep_fraction"] =
            run.simulated.fs ? static_cast<double>(c->time_asleep().fs) / static_cast<double>(run.simulated.fs) : 0.0;
        json_stats v(o);
        c->stats().accept(v);
        auto it = parts.find(c->id());
        if (it != parts.end())
            for (const auto& [part, g] : it->second) {
                json p;
                json_stats pv(p);
                g->accept(pv);
                if (part == "regions")  // ftrace's function-profiler columns beside each distribution
                    for (auto& [name, r] : p.items()) {
                        const double n = r["count"].get<double>();
                        const double mean = n ? r["mean"].get<double>() : 0, sd = n ? r["sd"].get<double>() : 0;
                        r["hit"] = r["count"];
                        r["time_ns"] = n * mean;
                        r["avg_ns"] = r["mean"];
                        r["s2_ns2"] = n ? json(sd * sd) : json(nullptr);
                    }
                o[part] = std::move(p);
            }
        for (const auto& t : sys.threads())
            if (t->core_id() == c->id())
                for (const auto& [name, ns] : t->profile().open_at(run.simulated))
                    o["regions_open_at_end"].push_back({{"region", name}, {"open_ns", ns}});
        // The program's own counters: its .private 64-bit words named stat_*.
        for (const auto& t : sys.threads())
            if (t->core_id() == c->id())
                for (const auto& sym : t->program().symbols)
                    if (sym.priv && sym.name.rfind("stat_", 0) == 0)
                        o["program"][sym.name.substr(5)] =
                            sys.memory().peek(private_base + c->agent() * private_stride + sym.offset, 8);
        if (const contender_result* v = verdict_of(judged, c->id())) {
            o["lock"]["longest_wait_ns"] = v->longest_wait_ns;
            o["lock"]["longest_wait_turns"] = v->longest_wait_turns;
            o["lock"]["share"] = v->share;
            o["lock"]["verdict"] = name(v->v);
            o["lock"]["reason"] = v->reason;
        }
        cores.push_back(std::move(o));
    }
    j["cores"] = std::move(cores);
    json lines = json::array();
    for (const auto& t : busiest_lines(sys, 16))
        lines.push_back({{"address", hex(t.line)},
                         {"symbol", symbol_of(sys, t.line)},
                         {"requests", t.requests()},
                         {"gets", t.gets},
                         {"getm", t.getm},
                         {"upgrades", t.upgrades},
                         {"puts", t.puts},
                         {"exclusive_fails", t.exclusive_fails},
                         {"snoops", t.snoops},
                         {"cross_cluster_transfers", t.cross_cluster},
                         {"cross_socket_requests", t.cross_socket}});
    j["lines"] = std::move(lines);
    // How often each protocol-table cell ran (cohsim protocol --counts reads it).
    const auto& tc = sys.memory().transitions();
    j["protocol_transitions"] = {{"cache", counts_json<protocol::cstate, protocol::cevent>(tc.cache)},
                                 {"home", counts_json<protocol::hstate, protocol::hevent>(tc.home)}};
    json comps;
    json timer;
    timer["event_stream_period_ns"] = sys.timer().event_time(1).ns();
    json_stats tv(timer);
    sys.timer().stats().accept(tv);
    comps[sys.timer().stats().name()] = std::move(timer);
    for (const stat_group* g : sys.memory().stat_groups()) {
        const auto dot = g->name().rfind('.');
        if (dot != std::string::npos && sys.find_core(g->name().substr(0, dot))) continue;  // under its core
        json p;
        json_stats pv(p);
        g->accept(pv);
        comps[g->name()] = std::move(p);
    }
    j["components"] = std::move(comps);
    return j;
}

namespace {

// What would change a starved core's lot, from this run's own figures: the
// fixes published for this race (arm-sync.md 2.2, 3.6; docs/guide/calibration.md),
// each offered only where the run shows its cause, with the override that
// tries it (a test applies each and checks that it helps). A queued lock is
// not offered: with the ticket grab's race gone, qspinlock's own fast path
// (one CAS on the lock word) races the same way and starves the little core
// as well in the default scenario. Empty when no core is starved or
// disadvantaged.
std::string starvation_advice(const system_model& sys, const contention& judged) {
    if (!judged.enough || judged.cores.size() < 2) return {};
    const contender_result* worst = nullptr;
    const contender_result* best = nullptr;
    for (const auto& v : judged.cores) {
        if ((v.v == verdict::starved || v.v == verdict::disadvantaged) && (!worst || v.share < worst->share)) worst = &v;
        if (!best || v.share > best->share) best = &v;
    }
    if (!worst || best == worst) return {};
    const core* loser = sys.find_core(worst->id);
    const core* winner = sys.find_core(best->id);
    if (!loser || !winner) return {};
    const auto parts = per_core_groups(sys);
    const stat_reader l1(part_of(parts, loser->id(), "l1"));
    const stat_reader wcore(&winner->stats());
    const auto& w = sys.config().workload;
    std::ostringstream os;
    os << "\nwhat would change it (from this run's figures):\n";
    if (const std::uint64_t fails = l1.get("stxr_fail"); fails > 0)
        os << "  - " << loser->id() << "'s exclusive store failed " << fails << " times against " << worst->acquisitions
           << " acquisitions: " << winner->id() << " takes the line back inside its LDAXR..STXR window\n";
    // Back-off in the winner: the 2017 arm64 patch (cpu_relax into WFE).
    for (std::size_t i = 0; i < w.threads.size(); ++i)
        if (w.threads[i].core == winner->id() && w.threads[i].cpu_relax == relax_kind::yield && !w.trace)
            os << "  - let " << winner->id() << " back off into WFE (" << wcore.get("wfe_sleeps")
               << " WFE sleeps in this run): --set workload.threads." << i << ".cpu_relax=wfe_backoff\n";
    const double fl = static_cast<double>(loser->clock().freq().hz), fw = static_cast<double>(winner->clock().freq().hz);
    if (fw > 1.05 * fl) {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.2f", fw / fl);
        os << "  - equal clocks: " << winner->id() << " runs at " << to_string(winner->clock().freq()) << ", " << ratio << "x "
           << loser->id() << "'s " << to_string(loser->clock().freq()) << ": --set clusters." << loser->cluster()
           << ".freq=" << to_string(winner->clock().freq()) << "\n";
    }
    return os.str();
}

}  // namespace

std::string format_table(const system_model& sys, const run_outcome& run) {
    const auto& cfg = sys.config();
    std::ostringstream os;
    os << "cohsim " << version;
    if (!cfg.description.empty()) os << ": " << cfg.description;
    os << "\n";
    const double speed = run.host_seconds > 0 ? run.simulated.seconds() / run.host_seconds : 0;
    os << "simulated " << time_text(run.simulated) << (run.completed ? "" : run.failed ? " (STOPPED by the failure reported below)" : " (INTERRUPTED before the end)") << " in "
       << fixed(run.host_seconds, 3) << " s host (" << si(speed) << " simulated s per host s), " << run.events
       << " events (" << si(run.host_seconds > 0 ? run.events / run.host_seconds : 0) << "/s)\n\n";

    const auto parts = per_core_groups(sys);
    const bool workload = !sys.threads().empty();
    const contention judged = judge_run(sys, run);
    text_table t;
    std::vector<std::string> header = {"core", "type", "freq"};
    if (workload) header.insert(header.end(), {"acquisitions", "share", "max wait", "p50 wait", "p99 wait", "stxr fail", "verdict"});
    header.insert(header.end(), {"L1 misses", "WFE sleeps", "asleep"});
    t.header(header);
    for (const auto& c : sys.cores()) {
        const stat_group* lock = part_of(parts, c->id(), "lock");
        const stat_group* l1 = part_of(parts, c->id(), "l1");
        if (workload && !lock) continue;  // show the cores that run something
        const stat_reader core_stats(&c->stats()), lock_stats(lock), l1_stats(l1);
        std::vector<std::string> row = {c->id(), cfg::value_traits<core_type>::format(c->type()),
                                        to_string(c->clock().freq())};
        if (workload) {
            const summary w = lock_stats.dist("wait_ns");
            const contender_result* v = verdict_of(judged, c->id());
            char share[32];
            std::snprintf(share, sizeof share, "%.3g", v ? v->share : 0.0);
            row.insert(row.end(), {std::to_string(lock_stats.get("acquisitions")), share,
                                   wait_text(v ? v->longest_wait_ns : 0), w.count ? wait_text(w.p50) : "-",
                                   w.count ? wait_text(w.p99) : "-", std::to_string(l1_stats.get("stxr_fail")),
                                   v ? name(v->v) : "-"});
        }
        row.insert(row.end(), {std::to_string(l1_stats.get("misses")), std::to_string(core_stats.get("wfe_sleeps")),
                               fixed(run.simulated.fs ? 100.0 * c->time_asleep().fs / run.simulated.fs : 0.0, 1) + "%"});
        t.row(row);
    }
    os << t.str();
    if (judged.cores.size() > 1) {
        char jain[32];
        std::snprintf(jain, sizeof jain, "%.4f", judged.jain);
        os << "\nfairness (Jain's index, 1 = even): " << jain << "\n";
        if (!judged.enough) os << judged.cores.front().reason.substr(judged.cores.front().id.size() + 2) << "\n";
        else
            for (const auto& v : judged.cores)
                if (v.v != verdict::fair) os << v.reason << "\n";
        os << starvation_advice(sys, judged);
    }
    // The lines that carried the most coherence traffic.
    const auto busy = busiest_lines(sys, 3);
    if (!busy.empty()) {
        text_table lt;
        lt.header({"line", "symbol", "requests", "GetS", "GetM", "Upg", "snoops", "cross-cluster", "excl fails"});
        for (const auto& t : busy)
            lt.row({hex(t.line), symbol_of(sys, t.line), std::to_string(t.requests()), std::to_string(t.gets),
                    std::to_string(t.getm), std::to_string(t.upgrades), std::to_string(t.snoops),
                    std::to_string(t.cross_cluster), std::to_string(t.exclusive_fails)});
        os << "\nbusiest lines (coherence requests served by the home)\n" << lt.str();
    }
    // The function profile, as ftrace prints it: Hit, Time, Avg, s^2.
    text_table prof;
    prof.header({"core", "region", "Hit", "Time", "Avg", "s^2 (ns^2)"});
    bool any = false;
    for (const auto& th : sys.threads()) {
        const stat_reader regions(&th->profile().stats());
        for (const auto& [name, d] : regions.dists) {
            char s2[32];
            std::snprintf(s2, sizeof s2, "%.4g", d.sd * d.sd);
            prof.row({th->core_id(), name, std::to_string(d.count), wait_text(d.count * d.mean), wait_text(d.mean), s2});
            any = true;
        }
        for (const auto& [name, ns] : th->profile().open_at(run.simulated)) {
            prof.row({th->core_id(), name + " (open at the end)", "-", wait_text(ns), "-", "-"});
            any = true;
        }
    }
    if (any) os << "\nfunction profile (time from `region NAME` to `endregion`)\n" << prof.str();
    const stat_reader ts(&sys.timer().stats());
    os << "\nevent stream every " << time_text(sys.timer().event_time(1).ns()) << ", " << ts.get("event_stream_ticks")
       << " ticks\n";
    return os.str();
}

std::string format_csv(const system_model& sys, const run_outcome& run) {
    const contention judged = judge_run(sys, run);
    const auto parts = per_core_groups(sys);
    std::ostringstream os;
    os << "core,cluster,type,freq_mhz,acquisitions,share,verdict,wait_ns_p50,wait_ns_p99,wait_ns_max,wait_ns_mean,"
          "hold_ns_mean,stxr_fail,l1_misses,wfe_sleeps,asleep_fraction,simulated_ns,seed\n";
    // An undefined figure (a percentile of no waits, the share of a core
    // that takes no lock) is an empty field: NaN to pandas, not a 0.
    auto g = [](double v, bool defined) {
        if (!defined) return std::string();
        char b[32];
        std::snprintf(b, sizeof b, "%.6g", v);
        return std::string(b);
    };
    char sim_ns[32];
    std::snprintf(sim_ns, sizeof sim_ns, "%.15g", run.simulated.ns());
    // A row per core that runs a thread: an idle core (no thread, asleep the
    // whole run) has nothing to analyse; result.json still lists every core.
    std::set<std::string> busy;
    std::uint64_t taken = 0;  // no acquisition at all: no core has a share (0/0), whatever the fair share is
    for (const auto& t : sys.threads()) busy.insert(t->core_id()), taken += t->metrics().acquisitions();
    for (const auto& c : sys.cores()) {
        if (!busy.count(c->id())) continue;
        const stat_reader ls(part_of(parts, c->id(), "lock")), l1s(part_of(parts, c->id(), "l1")), cs(&c->stats());
        const summary w = ls.dist("wait_ns"), h = ls.dist("hold_ns");
        const contender_result* v = verdict_of(judged, c->id());
        os << c->id() << "," << c->cluster() << "," << cfg::value_traits<core_type>::format(c->type()) << ","
           << g(c->clock().freq().hz / 1e6, true) << "," << ls.get("acquisitions") << "," << g(v ? v->share : 0, v && taken > 0) << ","
           << (v ? name(v->v) : "") << "," << g(w.p50, w.count > 0) << "," << g(w.p99, w.count > 0) << ","
           << g(v ? v->longest_wait_ns : 0, v) << "," << g(w.mean, w.count > 0) << "," << g(h.mean, h.count > 0) << ","
           << l1s.get("stxr_fail") << "," << l1s.get("misses") << "," << cs.get("wfe_sleeps") << ","
           << g(run.simulated.fs ? static_cast<double>(c->time_asleep().fs) / static_cast<double>(run.simulated.fs) : 0.0, true)
           << "," << sim_ns << "," << sys.config().run.seed << "\n";
    }
    return os.str();
}

std::vector<std::uint64_t> lock_operations(const json& result) {
    std::vector<std::uint64_t> out;
    for (const auto& c : result.at("cores")) {
        std::uint64_t ops = c.contains("lock") ? c["lock"]["acquisitions"].get<std::uint64_t>() : 0;
        bool counted = c.contains("lock");
        if (ops == 0 && c.contains("program") && c["program"].is_object())
            for (const auto& [k, v] : c["program"].items())
                if (k.size() >= 9 && k.compare(k.size() - 9, 9, "successes") == 0) ops += v.get<std::uint64_t>(), counted = true;
        if (counted) out.push_back(ops);
    }
    return out;
}

}  // namespace cohsim

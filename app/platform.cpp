#include "app/platform.h"

#include <algorithm>

namespace cohsim {

void run_params::describe(cfg::struct_schema<run_params>& s) {
    s.param("duration", &run_params::length, "simulated time to run (the published measurements ran 20s)")
        .def(duration{100'000'000'000'000ULL})
        .range(duration{1}, duration{3600 * fs_per_second});
    s.param("seed", &run_params::seed, "seed of every random choice; same config + seed = identical results")
        .def(1u);
    s.param("deadlock_after", &run_params::deadlock_after,
            "an access outstanding this long is a protocol deadlock: the run stops with a diagnostic "
            "(a starved core's accesses complete; it is reported, not stopped)")
        .def(duration{10'000'000'000'000ULL})
        .range(duration{1'000'000'000}, duration{3600 * fs_per_second});
    s.param("exact", &run_params::exact,
            "true: no acceleration (every time its own kernel activation, every core waits in the kernel): the "
            "reference timing, slower; results are byte-identical either way")
        .def(false);
    s.param("noise", &run_params::noise,
            "false: every source of physical timing noise off (interconnect.cdc_aperture, memory refresh), whatever "
            "their parameters say: for exact-cycle tests and to see a run without them")
        .def(true);
}

void cluster_params::describe(cfg::struct_schema<cluster_params>& s) {
    s.param("freq", &cluster_params::freq, "core clock of every core in the cluster")
        .range(frequency{1'000'000}, frequency{10'000'000'000ULL});
    s.param("cores", &cluster_params::cores, "number of cores, addressed CLUSTER.0 .. CLUSTER.(cores-1)")
        .def(1u)
        .range(1u, 256u);
    s.param("core", &cluster_params::core, "core micro-architecture of every core in the cluster");
    s.param("socket", &cluster_params::socket, "the socket the cluster sits on (several sockets: see interconnect.link_*)")
        .def(0u)
        .range(0u, 63u);
    s.param("dsu", &cluster_params::dsu,
            "the DynamIQ Shared Unit (a key of dsus) the cluster belongs to, or empty for none")
        .def("");
    s.sub("timing", &cluster_params::timing, "core timing (defaults: the core type's preset)");
    s.finish([](cluster_params& c) { c.timing.apply_preset(c.core); });
    s.sub("l1", &cluster_params::l1, "private L1 data cache of each core");
    s.sub("l2", &cluster_params::l2, "cluster-shared L2");
    s.sub("scu", &cluster_params::scu, "snoop control unit: message hops inside the cluster");
    s.sub("exclusive", &cluster_params::exclusive, "exclusive monitors (LDXR/STXR)");
}

void platform_config::describe(cfg::struct_schema<platform_config>& s) {
    s.param("description", &platform_config::description, "free text shown in the results").def("");
    s.sub("run", &platform_config::run, "run length and seed");
    s.named("clusters", &platform_config::clusters, "cluster", 1,
            "clusters of identical cores, each in its own clock domain, keyed by name");
    s.named("dsus", &platform_config::dsus, "dsu", 0,
            "DynamIQ Shared Units: clusters naming the same DSU share its L3 and snoop locally");
    s.sub("interconnect", &platform_config::interconnect, "the coherent interconnect between clusters");
    s.sub("memory", &platform_config::memory, "main memory");
    s.sub("timer", &platform_config::timer, "generic timer and its event stream");
    s.sub("workload", &platform_config::workload, "what the cores run: programs and their parameters");
    s.sub("activity", &platform_config::activity,
          "what else runs on the machine meanwhile (interrupts): the scenario's activity profile, apart from the silicon");
    s.rule([](const platform_config& c, const cfg::node* n, const std::string&) {
        std::uint64_t total = 0;
        for (const auto& [name, cl] : c.clusters) total += cl.cores;
        if (total > 1024) {
            const cfg::node* cn = n ? n->find("clusters") : nullptr;
            throw cfg::config_error(cn ? cn->loc : cfg::source_loc{}, "clusters",
                                    std::to_string(total) + " cores in all is too many", "at most 1024 cores");
        }
        // Every DSU a cluster names exists.
        const cfg::node* cls = n ? n->find("clusters") : nullptr;
        for (const auto& [name, cl] : c.clusters) {
            if (cl.dsu.empty() || c.dsus.find(cl.dsu)) continue;
            const cfg::node* cn2 = cls ? cls->find(name) : nullptr;
            const cfg::node* dn = cn2 ? cn2->find("dsu") : nullptr;
            std::string names;
            for (const auto& [dname, d] : c.dsus) names += (names.empty() ? "" : ", ") + dname;
            throw cfg::config_error(dn ? dn->loc : cfg::source_loc{}, "clusters." + name + ".dsu",
                                    "'" + cl.dsu + "' is not a key of dsus",
                                    names.empty() ? "a DSU declared under dsus:" : "one of " + names);
        }
        if (c.workload.trace && !c.workload.threads.empty()) {
            const cfg::node* wn2 = n ? n->find("workload") : nullptr;
            const cfg::node* tn2 = wn2 ? wn2->find("trace") : nullptr;
            throw cfg::config_error(tn2 ? tn2->loc : cfg::source_loc{}, "workload.trace",
                                    "a trace and threads at once", "either trace or threads");
        }
        // Every activity selector names clusters or cores of this platform.
        auto check_selector = [&](const std::string& sel, const std::string& path, bool all_ok) {
            std::string names;
            for (const auto& [name, cl] : c.clusters)
                names += (names.empty() ? "" : ", ") + name + ", " + name + ".0.." + name + "." + std::to_string(cl.cores - 1);
            const std::string expected = std::string(all_ok ? "all, or " : "") +
                                         "cluster names and core ids, comma-separated, of this platform: " + names;
            const cfg::node* v = n ? cfg::find_path(const_cast<cfg::node&>(*n), path) : nullptr;
            const cfg::source_loc loc = v ? v->loc : cfg::source_loc{};
            const auto words = selector_words(sel);
            if (words.empty() && !all_ok) throw cfg::config_error(loc, path, "'" + sel + "' selects every core", expected);
            for (const auto& w : words) {
                bool ok = c.clusters.find(w) != nullptr;
                for (const auto& [name, cl] : c.clusters)
                    for (unsigned i = 0; i < cl.cores && !ok; ++i) ok = w == name + "." + std::to_string(i);
                if (!ok) throw cfg::config_error(loc, path, "'" + w + "' is not a cluster or core of this platform", expected);
            }
        };
        check_selector(c.activity.tick.cores, "activity.tick.cores", true);
        check_selector(c.activity.random_interrupts.cores, "activity.random_interrupts.cores", true);
        for (std::size_t i = 0; i < c.activity.device_interrupts.size(); ++i)
            check_selector(c.activity.device_interrupts[i].cores, "activity.device_interrupts." + std::to_string(i) + ".cores", false);
        // Every thread names an existing core, each core at most once.
        const cfg::node* wn = n ? n->find("workload") : nullptr;
        const cfg::node* tn = wn ? wn->find("threads") : nullptr;
        std::vector<std::string> seen;
        for (std::size_t i = 0; i < c.workload.threads.size(); ++i) {
            const std::string& id = c.workload.threads[i].core;
            const cfg::node* item = tn && i < tn->items.size() ? &tn->items[i] : nullptr;
            const cfg::node* key = item ? item->find("core") : nullptr;
            const cfg::source_loc loc = key ? key->loc : (item ? item->loc : cfg::source_loc{});
            const std::string path = "workload.threads." + std::to_string(i) + ".core";
            std::string expected = "one of";
            for (const auto& [name, cl] : c.clusters) expected += " " + name + ".0.." + name + "." + std::to_string(cl.cores - 1);
            const auto dot = id.rfind('.');
            const cluster_params* cl = dot == std::string::npos ? nullptr : c.clusters.find(id.substr(0, dot));
            const std::string idx = dot == std::string::npos ? "" : id.substr(dot + 1);
            const bool ok = cl && !idx.empty() && idx.size() < 5 &&
                            std::all_of(idx.begin(), idx.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) &&
                            std::stoul(idx) < cl->cores;
            if (!ok) throw cfg::config_error(loc, path, "'" + id + "' is not a core of this platform", expected);
            if (std::find(seen.begin(), seen.end(), id) != seen.end())
                throw cfg::config_error(loc, path, "'" + id + "' runs two threads", "each core at most once");
            seen.push_back(id);
        }
    });
}

namespace {

std::vector<std::pair<std::string, std::string>> take_calibrated(cfg::node& root, bool apply) {
    std::vector<std::pair<std::string, std::string>> used;  // path, prior range text
    const auto it = std::find_if(root.entries.begin(), root.entries.end(), [](const auto& e) { return e.first == "calibrated"; });
    if (it == root.entries.end()) return used;
    const cfg::node cal = it->second;
    root.entries.erase(it);
    if (cal.k != cfg::node::kind::map)
        throw cfg::config_error(cal.loc, "calibrated", "is not a map",
                                "PATH: NOMINAL ~ LO..HI lines, as `cohsim calibrate` writes them");
    for (const auto& [path, v] : cal.entries) {
        const std::string where = "calibrated." + path;
        std::string nominal, lo, hi;
        bool ranged = false;
        try {
            ranged = v.k == cfg::node::kind::scalar && cfg::split_uncertain(v.text, nominal, lo, hi);
        } catch (...) {
        }
        if (!ranged)
            throw cfg::config_error(v.loc, where, "'" + v.text + "' is not a calibrated range", "NOMINAL ~ LO..HI, e.g. 26cycles ~ 22cycles..30cycles");
        cfg::node* target = cfg::find_path(root, path);
        if (!target || target->k != cfg::node::kind::scalar)
            throw cfg::config_error(v.loc, where, "'" + path + "' is not a value of this config",
                                    "the path of a value written NOMINAL ~ LO..HI in the platform");
        // A value the scenario fixed (no range left) keeps the scenario's value.
        std::string n2, l2, h2;
        bool prior_ranged = false;
        try {
            prior_ranged = cfg::split_uncertain(target->text, n2, l2, h2);
        } catch (...) {
        }
        if (!prior_ranged) continue;
        used.emplace_back(path, l2 + ".." + h2);
        if (apply) target->text = v.text;
    }
    return used;
}

// Removes `calibrated_draws:` from the tree and returns it (a null node when absent).
cfg::node take_draws(cfg::node& root) {
    const auto it = std::find_if(root.entries.begin(), root.entries.end(), [](const auto& e) { return e.first == "calibrated_draws"; });
    if (it == root.entries.end()) return {};
    cfg::node d = it->second;
    root.entries.erase(it);
    return d;
}

}  // namespace

platform_config load_platform(const std::string& file, const std::vector<std::pair<std::string, std::string>>& overrides,
                              bool calibrated) {
    cfg::node root = file.empty() ? cfg::load_text(default_config_yaml, default_config_name, ".") : cfg::load_file(file);
    const auto priors = take_calibrated(root, calibrated);
    const cfg::node draws = take_draws(root);
    for (const auto& [origin, assignment] : overrides) cfg::apply_override(root, assignment, origin);
    std::vector<cfg::uncertain_param> uncertain;
    platform_config c = cfg::load_config<platform_config>(root, &uncertain);
    c.uncertain = std::move(uncertain);
    if (!calibrated) return c;
    for (auto& u : c.uncertain)
        for (const auto& [path, prior] : priors)
            if (u.path == path) u.prior = prior;
    if (draws.k == cfg::node::kind::null) return c;
    if (draws.k != cfg::node::kind::seq)
        throw cfg::config_error(draws.loc, "calibrated_draws", "is not a list", "- {PATH: VALUE, ...} per kept draw, as `cohsim calibrate` writes it");
    for (std::size_t i = 0; i < draws.items.size(); ++i) {
        const cfg::node& d = draws.items[i];
        const std::string at = "calibrated_draws." + std::to_string(i);
        if (d.k != cfg::node::kind::map) throw cfg::config_error(d.loc, at, "is not a map", "{PATH: VALUE, ...}");
        std::map<std::size_t, std::uint64_t> row;
        for (const auto& [path, v] : d.entries) {
            const auto known = std::find_if(priors.begin(), priors.end(), [&](const auto& p) { return p.first == path; });
            std::size_t j = 0;
            while (j < c.uncertain.size() && c.uncertain[j].path != path) ++j;
            if (known == priors.end() || j == c.uncertain.size()) {
                // A value the scenario fixed is no longer drawn; anything else is a mistake.
                if (cfg::find_path(root, path)) continue;
                throw cfg::config_error(v.loc, at + "." + path, "'" + path + "' is not a calibrated value of this config",
                                        "a path listed under calibrated:");
            }
            const cfg::uncertain_param& u = c.uncertain[j];
            std::uint64_t x = 0;
            try {
                x = u.parse(v.text);
            } catch (const cfg::value_error& e) {
                throw cfg::config_error(v.loc, at + "." + path, e.problem, e.expected);
            }
            if (x < u.lo || x > u.hi)
                throw cfg::config_error(v.loc, at + "." + path, "'" + v.text + "' is outside the calibrated range " + u.format(u.lo) + ".." + u.format(u.hi),
                                        "a value inside it");
            row[j] = x;
        }
        c.calibrated_draws.push_back(row);
    }
    return c;
}

cfg::node effective_config(const platform_config& c) {
    cfg::node n = cfg::dump_config(c);
    for (const auto& u : c.uncertain)
        if (cfg::node* v = cfg::find_path(n, u.path)) v->text = u.text(), v->s = cfg::node::style::text;
    return n;
}

}  // namespace cohsim

#include "app/platform.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <iterator>

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
    // A working lock changes hands every few hundred ns to a few us here; an
    // interrupt handler in a critical section stretches one gap to a few us.
    // 1ms is far beyond both, and 1000x the longest gap seen keeps a workload
    // with long holds from being called stuck.
    s.param("lock_stuck_after", &run_params::lock_stuck_after,
            "a lock that a core waits for (mark lock_begin) and no core has taken for this long, or for 1000x the "
            "longest gap between two acquisitions seen so far if that is longer, is stuck: the run stops naming the "
            "core inside it, or the one whose release did not free it; 0 = never")
        .def(duration{1'000'000'000'000ULL})
        .range(duration{0}, duration{3600 * fs_per_second});
    s.param("exact", &run_params::exact,
            "true: no acceleration (every time its own kernel activation, every core waits in the kernel): the "
            "reference timing, slower; results are byte-identical either way")
        .def(false);
    s.param("noise", &run_params::noise,
            "false: every source of physical timing noise off (interconnect.cdc_aperture, memory refresh, "
            "spread_spectrum), whatever "
            "their parameters say: for exact-cycle tests and to see a run without them")
        .def(true);
}

void spread_spectrum_params::describe(cfg::struct_schema<spread_spectrum_params>& s) {
    s.param("down_spread_ppm", &spread_spectrum_params::down_spread_ppm,
            "depth of the PLLs' triangular down-spread, parts per million of the period at the peak (5000 = 0.5%, the "
            "most PCIe-class clocking allows); the mean frequency falls by half of it; 0 = exact clocks")
        .def(0u)
        .range(0u, 50'000u);
    s.param("rate", &spread_spectrum_params::rate, "modulation frequency of the triangle (30-33kHz is usual)")
        .def(frequency{31'500})
        .range(frequency{1'000}, frequency{10'000'000});
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
    s.sub("spread_spectrum", &platform_config::spread_spectrum,
          "spread-spectrum modulation of the cluster, DSU and interconnect PLLs (noise source)");
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
        // A mesh has a crosspoint place for every core of its domain.
        for (const auto& [dname, d] : c.dsus) {
            if (!d.mesh.enabled()) continue;
            std::uint64_t members = 0;
            for (const auto& [name, cl] : c.clusters)
                if (cl.dsu == dname) members += cl.cores;
            const std::uint64_t places = std::uint64_t{d.mesh.width} * d.mesh.height * d.mesh.cores_per_xp;
            if (members > places) {
                const cfg::node* dn = n ? n->find("dsus") : nullptr;
                const cfg::node* mn = dn && dn->find(dname) ? dn->find(dname)->find("mesh") : nullptr;
                throw cfg::config_error(mn ? mn->loc : cfg::source_loc{}, "dsus." + dname + ".mesh",
                                        std::to_string(members) + " cores on " + std::to_string(d.mesh.width) + " x " +
                                            std::to_string(d.mesh.height) + " crosspoints of " +
                                            std::to_string(d.mesh.cores_per_xp) + " cores",
                                        "at least " + std::to_string(members) + " places (width x height x cores_per_xp)");
            }
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
            const auto ids = core_ids(c);
            for (const auto& w : words) {
                const bool ok = c.clusters.find(w) != nullptr || std::find(ids.begin(), ids.end(), w) != ids.end();
                if (!ok) throw cfg::config_error(loc, path, "'" + w + "' is not a cluster or core of this platform", expected);
            }
        };
        check_selector(c.activity.tick.cores, "activity.tick.cores", true);
        if (const std::string& k = c.activity.tick.timekeeper; !k.empty()) {
            const auto ticked_ids = ticked_cores(c.activity, core_ids(c));
            std::string ticked;
            for (const auto& id : ticked_ids) ticked += (ticked.empty() ? "" : ", ") + id;
            if (std::find(ticked_ids.begin(), ticked_ids.end(), k) == ticked_ids.end()) {
                const cfg::node* v = n ? cfg::find_path(const_cast<cfg::node&>(*n), "activity.tick.timekeeper") : nullptr;
                throw cfg::config_error(v ? v->loc : cfg::source_loc{}, "activity.tick.timekeeper",
                                        "'" + k + "' is not a core that takes the tick",
                                        ticked.empty() ? "no timekeeper: no core takes the tick" : "one of " + ticked);
            }
        }
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

std::string joined(const std::string& prefix, const std::string& key) { return prefix.empty() ? key : prefix + "." + key; }

// The `calibrated:` and `calibrated_draws:` blocks `cohsim calibrate` writes,
// taken out of the tree wherever they sit (an included file's block lands
// where the file is included; its paths are relative to that place).
struct calibration_blocks {
    std::vector<std::pair<std::string, cfg::node>> ranges, draws;  // prefix, block
};

void take_blocks(cfg::node& n, const std::string& prefix, calibration_blocks& out) {
    if (n.k == cfg::node::kind::map) {
        for (auto it = n.entries.begin(); it != n.entries.end();) {
            if (it->first == "calibrated") {
                out.ranges.emplace_back(prefix, it->second);
                it = n.entries.erase(it);
            } else if (it->first == "calibrated_draws") {
                out.draws.emplace_back(prefix, it->second);
                it = n.entries.erase(it);
            } else {
                take_blocks(it->second, joined(prefix, it->first), out);
                ++it;
            }
        }
    } else if (n.k == cfg::node::kind::seq) {
        for (std::size_t i = 0; i < n.items.size(); ++i) take_blocks(n.items[i], joined(prefix, std::to_string(i)), out);
    }
}

// Applies the calibrated ranges (when `apply`); returns each calibrated
// value's path with its prior range text.
std::vector<std::pair<std::string, std::string>> apply_ranges(cfg::node& root, const calibration_blocks& b, bool apply) {
    std::vector<std::pair<std::string, std::string>> used;  // path, prior range text
    for (const auto& [prefix, cal] : b.ranges) {
        if (cal.k != cfg::node::kind::map)
            throw cfg::config_error(cal.loc, joined(prefix, "calibrated"), "is not a map",
                                    "PATH: NOMINAL ~ LO..HI lines, as `cohsim calibrate` writes them");
        for (const auto& [rel, v] : cal.entries) {
            const std::string path = joined(prefix, rel), where = joined(prefix, "calibrated." + rel);
            std::string nominal, lo, hi;
            bool ranged = false;
            try {
                ranged = v.k == cfg::node::kind::scalar && cfg::split_uncertain(v.text, nominal, lo, hi);
            } catch (...) {
            }
            if (!ranged)
                throw cfg::config_error(v.loc, where, "'" + v.text + "' is not a calibrated range", "NOMINAL ~ LO..HI, e.g. 26cycles ~ 22cycles..30cycles");
            cfg::node* target = cfg::find_path(root, path);
            // A map the scenario cleared (`params: {}`) drops its calibrated values with it.
            const cfg::node* parent = path.find('.') == std::string::npos ? nullptr : cfg::find_path(root, path.substr(0, path.rfind('.')));
            if (!target && parent && parent->k == cfg::node::kind::map && parent->entries.empty()) continue;
            if (!target || target->k != cfg::node::kind::scalar)
                throw cfg::config_error(v.loc, where, "'" + path + "' is not a value of this config",
                                        "the path of a value written NOMINAL ~ LO..HI in this file");
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
    }
    return used;
}

// The joint draws: every block of one calibrate run (one id), draw i of each
// block together. Values are checked against the calibrated ranges.
void read_draws(platform_config& c, const calibration_blocks& b,
                const std::vector<std::pair<std::string, std::string>>& priors) {
    std::string id, id_file;
    std::size_t count = 0;
    std::vector<std::string> calibrated_paths;  // every path of a calibrated: block
    for (const auto& [prefix, cal] : b.ranges)
        for (const auto& e : cal.entries) calibrated_paths.push_back(joined(prefix, e.first));
    for (const auto& [prefix, blk] : b.draws) {
        const std::string at = joined(prefix, "calibrated_draws");
        const cfg::node* idn = blk.k == cfg::node::kind::map ? blk.find("id") : nullptr;
        const cfg::node* list = blk.k == cfg::node::kind::map ? blk.find("draws") : nullptr;
        if (!idn || !list || list->k != cfg::node::kind::map || idn->k != cfg::node::kind::scalar)
            throw cfg::config_error(blk.loc, at, "is not a block of draws",
                                    "id: CALIBRATION and draws: {0: {PATH: VALUE, ...}, 1: ...}, as `cohsim calibrate` writes it");
        // Draws are keyed by number, so that the blocks of two files included at
        // the same level merge draw by draw; every number 0..K-1 once.
        std::vector<const cfg::node*> items(list->entries.size(), nullptr);
        for (const auto& [key, d] : list->entries) {
            std::size_t k = 0;
            bool ok = !key.empty() && key.size() < 7 && std::all_of(key.begin(), key.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
            if (ok) k = std::stoul(key), ok = k < items.size() && !items[k];
            if (!ok)
                throw cfg::config_error(d.key_loc.line ? d.key_loc : d.loc, joined(at, "draws." + key), "'" + key + "' is not a draw number",
                                        "the numbers 0.." + std::to_string(items.size() - 1) + ", each once");
            items[k] = &d;
        }
        if (id.empty()) {
            id = idn->text, id_file = idn->loc.file, count = items.size();
            c.calibrated_draws.assign(count, {});
        } else if (idn->text != id) {
            throw cfg::config_error(idn->loc, joined(at, "id"), "'" + idn->text + "' is another calibration than '" + id + "' of " + id_file,
                                    "the files of one `cohsim calibrate` run (calibrate again)");
        } else if (items.size() != count) {
            throw cfg::config_error(list->loc, joined(at, "draws"), std::to_string(items.size()) + " draws where " + id_file + " has " + std::to_string(count),
                                    "the files of one `cohsim calibrate` run (calibrate again)");
        }
        for (std::size_t i = 0; i < items.size(); ++i) {
            const cfg::node& d = *items[i];
            const std::string di = joined(at, "draws." + std::to_string(i));
            if (d.k != cfg::node::kind::map) throw cfg::config_error(d.loc, di, "is not a map", "{PATH: VALUE, ...}");
            for (const auto& [rel, v] : d.entries) {
                const std::string path = joined(prefix, rel);
                const bool known = std::any_of(priors.begin(), priors.end(), [&](const auto& p) { return p.first == path; });
                std::size_t j = 0;
                while (j < c.uncertain.size() && c.uncertain[j].path != path) ++j;
                if (!known || j == c.uncertain.size()) {
                    // A value the scenario fixed (or replaced with its section) is no
                    // longer drawn; a path no calibrated: block lists is a mistake.
                    if (std::find(calibrated_paths.begin(), calibrated_paths.end(), path) != calibrated_paths.end()) continue;
                    throw cfg::config_error(v.loc, joined(di, rel), "'" + path + "' is not a calibrated value of this config",
                                            "a path listed under calibrated:");
                }
                const cfg::uncertain_param& u = c.uncertain[j];
                std::uint64_t x = 0;
                try {
                    x = u.parse(v.text);
                } catch (const cfg::value_error& e) {
                    throw cfg::config_error(v.loc, joined(di, rel), e.problem, e.expected);
                }
                if (x < u.lo || x > u.hi)
                    throw cfg::config_error(v.loc, joined(di, rel), "'" + v.text + "' is outside the calibrated range " + u.format(u.lo) + ".." + u.format(u.hi),
                                            "a value inside it");
                c.calibrated_draws[i][j] = x;
            }
        }
    }
}

}  // namespace

namespace {

// Standard input, read once: a command may load its config more than once.
const std::string& standard_input() {
    static const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    return text;
}

// A program or trace file that an override (`--set workload.program=X`)
// names is the user's, typed from the current directory: when it is there,
// it becomes absolute (a file of the config's own stays relative to the config).
void files_from_overrides_from_here(cfg::node& root) {
    auto fix = [](cfg::node* n) {
        if (!n || n->k != cfg::node::kind::scalar || n->loc.file.rfind("--", 0) != 0) return;
        std::error_code ec;
        const std::filesystem::path p(n->text);
        if (!n->text.empty() && p.is_relative() && std::filesystem::is_regular_file(p, ec))
            n->text = std::filesystem::absolute(p).lexically_normal().string();
    };
    fix(cfg::find_path(root, "workload.program"));
    fix(cfg::find_path(root, "workload.trace"));
    if (cfg::node* threads = cfg::find_path(root, "workload.threads"); threads && threads->k == cfg::node::kind::seq)
        for (auto& t : threads->items)
            if (t.k == cfg::node::kind::map) fix(t.find("program"));
}

// A cluster that names its core type (`core: cortex-a76`) gets that type's
// caches for every cache key it leaves unset (core.cpp's preset table), put
// into the tree as if written, so every rule checks them. Private L2s are
// modelled as one cluster L2 of their sum: the sets grow by the power-of-two
// factor of the core count and the ways by its odd factor (4 x 512KB 8-way:
// 2MB, 8 ways; 3 x 512KB: 1.5MB, 24 ways), as the model's sets must be a power
// of two. Returns the warnings: estimated presets, and private L2s that need
// more than 64 ways (those keep the generic L2, named in the warning).
std::vector<std::string> fill_cache_presets(cfg::node& root) {
    std::vector<std::string> warnings;
    cfg::node* clusters = cfg::find_path(root, "clusters");
    if (!clusters || clusters->k != cfg::node::kind::map) return warnings;
    for (auto& [name, cl] : clusters->entries) {
        const cfg::node* core = cl.k == cfg::node::kind::map ? cl.find("core") : nullptr;
        if (!core || core->k != cfg::node::kind::scalar) continue;
        const core_preset* preset = nullptr;
        for (const auto& [type, text] : cfg::enum_names<core_type>::list())
            if (core->text == text) preset = &preset_of(type);
        if (!preset) continue;  // the loader names the unknown type
        std::uint64_t cores = 1;
        if (const cfg::node* n = cl.find("cores")) {
            if (n->k != cfg::node::kind::scalar || n->text.empty() || n->text.size() > 6 ||
                n->text.find_first_not_of("0123456789") != std::string::npos || n->text == "0")
                continue;  // the loader reports it
            cores = std::stoull(n->text);
        }
        const core_preset::caches& c = preset->cache;
        std::uint64_t l2_bytes = c.l2_bytes;
        std::uint64_t l2_ways = c.l2_ways;
        bool l2_fits = true;
        if (c.l2_private) {
            l2_bytes *= cores;
            std::uint64_t odd = cores;
            while (odd % 2 == 0) odd /= 2;
            l2_ways *= odd;
            l2_fits = l2_ways <= 64;
        }
        const std::string origin = "the " + std::string(preset->name) + " preset";
        const std::string at = "clusters." + name + ".";
        bool filled = false, l2_filled = false;
        auto fill = [&](const std::string& key, const std::string& value) {
            if (cfg::find_path(root, at + key)) return;
            cfg::apply_override(root, at + key + "=" + value, origin);
            filled = true;
        };
        fill("l1.size", to_string(byte_size{c.l1_bytes}));
        fill("l1.ways", std::to_string(c.l1_ways));
        fill("l1.hit_latency", to_string(c.l1_hit));
        if (l2_fits) {
            l2_filled = !cfg::find_path(root, at + "l2.size");
            fill("l2.size", to_string(byte_size{l2_bytes}));
            fill("l2.ways", std::to_string(l2_ways));
        } else {
            const l2_params generic;
            warnings.push_back("clusters." + name + ": " + std::to_string(cores) + " private " +
                               to_string(byte_size{c.l2_bytes}) + " L2s need " + std::to_string(l2_ways) +
                               " ways as one cluster L2 (at most 64), so cohsim's generic L2 (" +
                               to_string(generic.size) + ", " + std::to_string(generic.ways) +
                               " ways), the same for every core type, is in use: set l2.size and l2.ways");
        }
        fill("l2.latency", to_string(c.l2_latency));
        fill("scu.request_latency", to_string(c.scu_request));
        fill("scu.snoop_latency", to_string(c.scu_snoop));
        const cfg::node* dsu = cl.find("dsu");
        if (l2_filled && c.l2_private && cores > 1 && (!dsu || dsu->text.empty()))
            warnings.push_back("clusters." + name + ": " + preset->name + " cores each have a private L2 and hand " +
                               "lines to each other through the next level (a DSU's L3 or the mesh); this cluster " +
                               "has no dsu, so its cores share one L2 and hand lines over faster than the chip " +
                               "does: give it a dsu (platforms/rk3588_4xa55_4xa76.yaml shows one)");
        if (filled && c.estimate)
            warnings.push_back("clusters." + name + " (" + preset->name + ") takes cache values from its preset that are " +
                               "estimates: " + c.source + "; set them from a measurement of your chip");
    }
    return warnings;
}

}  // namespace

platform_config load_platform(const std::string& file, const std::vector<std::pair<std::string, std::string>>& overrides,
                              bool calibrated) {
    return load_platform_tree(file.empty()  ? cfg::load_text(default_config_yaml, default_config_name, ".")
                              : file == "-" ? cfg::load_text(standard_input(), "<stdin>", ".")
                                            : cfg::load_file(file),
                              overrides, calibrated);
}

platform_config load_platform_tree(cfg::node root, const std::vector<std::pair<std::string, std::string>>& overrides,
                                   bool calibrated) {
    calibration_blocks blocks;
    take_blocks(root, "", blocks);
    auto priors = apply_ranges(root, blocks, calibrated);
    std::vector<std::string> applied;  // the calibrated texts, to see what an override replaced
    for (const auto& [path, prior] : priors) {
        const cfg::node* v = cfg::find_path(root, path);
        applied.push_back(v ? v->text : std::string());
    }
    for (const auto& [origin, assignment] : overrides) cfg::apply_override(root, assignment, origin);
    files_from_overrides_from_here(root);
    std::vector<std::string> preset_warnings = fill_cache_presets(root);
    // A value an override set anew (a plain value, or a range of its own) is no longer the calibration's.
    for (std::size_t i = priors.size(); i-- > 0;) {
        const cfg::node* v = cfg::find_path(root, priors[i].first);
        if (!v || v->text != applied[i]) priors.erase(priors.begin() + static_cast<std::ptrdiff_t>(i));
    }
    std::vector<cfg::uncertain_param> uncertain;
    platform_config c = cfg::load_config<platform_config>(root, &uncertain);
    c.uncertain = std::move(uncertain);
    c.cache_warnings = std::move(preset_warnings);
    if (!calibrated) return c;
    for (auto& u : c.uncertain)
        for (const auto& [path, prior] : priors)
            if (u.path == path) u.prior = prior;
    read_draws(c, blocks, priors);
    return c;
}

std::vector<std::string> core_ids(const platform_config& c) {
    std::vector<std::string> ids;
    for (const auto& [name, cl] : c.clusters)
        for (std::uint32_t i = 0; i < cl.cores; ++i) ids.push_back(name + "." + std::to_string(i));
    return ids;
}

cfg::node effective_config(const platform_config& c) {
    cfg::node n = cfg::dump_config(c);
    for (const auto& u : c.uncertain)
        if (cfg::node* v = cfg::find_path(n, u.path)) v->text = u.text(), v->s = cfg::node::style::text;
    return n;
}

}  // namespace cohsim

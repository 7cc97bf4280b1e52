#include "workloads/activity.h"

#include "sim/random.h"

namespace cohsim {

namespace {
// More than one interrupt a microsecond is not a machine anyone runs, and
// would only make the run crawl.
constexpr duration min_gap{fs_per_second / 1'000'000};

void check_period(const cfg::node* n, const std::string& path, const char* key, duration period, duration handler,
                  const char* handler_key, bool mean) {
    auto fail = [&](const char* k, const std::string& what, const std::string& expected) {
        const cfg::node* v = n ? n->find(k) : nullptr;
        throw cfg::config_error(v ? v->loc : n ? n->loc : cfg::source_loc{}, cfg::join_path(path, k), what, expected);
    };
    if (period.fs == 0) return;
    if (period < min_gap) fail(key, "'" + to_string(period) + "' is shorter than 1us", "0s (none) or at least 1us");
    if (mean && handler.fs > period.fs / 2)
        fail(handler_key, "'" + to_string(handler) + "' is more than half of " + key + " (" + to_string(period) +
                              "): interrupts would pile up",
             std::string("at most half of ") + key);
    if (!mean && !(handler < period))
        fail(handler_key, "'" + to_string(handler) + "' is not shorter than " + key + " (" + to_string(period) +
                              "): the core would only run its handler",
             std::string("a handler shorter than ") + key);
}
}  // namespace

void tick_activity::describe(cfg::struct_schema<tick_activity>& s) {
    s.param("period", &tick_activity::period,
            "period of the scheduler-tick interrupt, 0s for none (Linux HZ=250: 4ms; arm-sync.md section 7.5)")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second});
    s.param("handler", &tick_activity::handler, "time each tick keeps the core away from its program")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second / 10});
    // kernel/time/tick-sched.c: without the skew_tick=1 boot option every
    // CPU's tick timer expires at the same instant.
    s.param("skew", &tick_activity::skew,
            "false: every core's ticks at the same instants (Linux's default); true: each core's at its own phase "
            "(Linux booted with skew_tick=1)")
        .def(false);
    s.param("cores", &tick_activity::cores, "the cores that take the tick: all, or cluster names and core ids, comma-separated")
        .def("all");
    s.rule([](const tick_activity& t, const cfg::node* n, const std::string& path) {
        check_period(n, path, "period", t.period, t.handler, "handler", false);
    });
}

void random_irq_activity::describe(cfg::struct_schema<random_irq_activity>& s) {
    s.param("interval", &random_irq_activity::interval,
            "mean gap between random interrupts (a Poisson process: device, firmware or secure-world interrupts at no "
            "fixed rhythm), 0s for none")
        .def(duration{0})
        .range(duration{0}, duration{10 * fs_per_second});
    s.param("handler", &random_irq_activity::handler, "time each random interrupt keeps the core away from its program")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second / 10});
    s.param("cores", &random_irq_activity::cores,
            "the cores that take them, each its own stream: all, or cluster names and core ids, comma-separated")
        .def("all");
    s.rule([](const random_irq_activity& r, const cfg::node* n, const std::string& path) {
        check_period(n, path, "interval", r.interval, r.handler, "handler", true);
    });
}

void device_irq_activity::describe(cfg::struct_schema<device_irq_activity>& s) {
    s.param("name", &device_irq_activity::name, "what raises it (vsync, audio, ...), shown in traces");
    s.param("cores", &device_irq_activity::cores, "the core (or cores) it is routed to: core ids or cluster names");
    s.param("period", &device_irq_activity::period, "time between two of its interrupts")
        .range(duration{min_gap}, duration{10 * fs_per_second});
    s.param("handler", &device_irq_activity::handler, "time each keeps the core away from its program")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second / 10});
    s.param("phase", &device_irq_activity::phase, "time of its first interrupt (default: drawn from the run's seed)")
        .def(std::nullopt);
    s.rule([](const device_irq_activity& d, const cfg::node* n, const std::string& path) {
        check_period(n, path, "period", d.period, d.handler, "handler", false);
        if (d.phase && !(*d.phase < d.period)) {
            const cfg::node* v = n ? n->find("phase") : nullptr;
            throw cfg::config_error(v ? v->loc : n ? n->loc : cfg::source_loc{}, cfg::join_path(path, "phase"),
                                    "'" + to_string(*d.phase) + "' is not within the first period (" + to_string(d.period) + ")",
                                    "a phase shorter than period");
        }
    });
}

void bus_traffic_activity::describe(cfg::struct_schema<bus_traffic_activity>& s) {
    s.param("load_percent", &bus_traffic_activity::load_percent,
            "share of each interconnect channel's cycles other agents (GPU, DMA, display) take, each cycle drawn "
            "independently from the seed; 0: none")
        .def(0u)
        .range(0u, 90u);
}

void activity_params::describe(cfg::struct_schema<activity_params>& s) {
    s.param("description", &activity_params::description, "what the profile stands for, and its sources").def("");
    s.sub("tick", &activity_params::tick, "the scheduler tick");
    s.sub("random_interrupts", &activity_params::random_interrupts, "interrupts at no fixed rhythm");
    s.sequence("device_interrupts", &activity_params::device_interrupts, 0, "periodic interrupts of devices");
    s.sub("bus_traffic", &activity_params::bus_traffic, "other agents' traffic on the interconnect");
}

std::vector<std::string> selector_words(const std::string& selector) {
    std::vector<std::string> out;
    std::string cur;
    auto flush = [&] {
        const auto a = cur.find_first_not_of(" \t"), b = cur.find_last_not_of(" \t");
        if (a != std::string::npos) out.push_back(cur.substr(a, b - a + 1));
        cur.clear();
    };
    for (char c : selector) {
        if (c == ',') flush();
        else cur += c;
    }
    flush();
    if (out.size() == 1 && out[0] == "all") out.clear();
    return out;
}

bool selects(const std::string& selector, const std::string& cluster, const std::string& id) {
    const auto words = selector_words(selector);
    if (words.empty()) return true;
    for (const auto& w : words)
        if (w == cluster || w == id) return true;
    return false;
}

void apply_activity(const activity_params& a, const std::string& cluster, const std::string& id, std::uint64_t seed,
                    core_params& p) {
    if (selects(a.tick.cores, cluster, id)) {
        p.tick_period = a.tick.period;
        p.tick_handler = a.tick.handler;
        p.tick_skew = a.tick.skew;
    }
    if (selects(a.random_interrupts.cores, cluster, id)) {
        p.irq_interval = a.random_interrupts.interval;
        p.irq_handler = a.random_interrupts.handler;
    }
    for (std::size_t i = 0; i < a.device_interrupts.size(); ++i) {
        const auto& d = a.device_interrupts[i];
        if (!selects(d.cores, cluster, id)) continue;
        const duration first = d.phase ? *d.phase : duration{splitmix64(seed * 1024 + 2048 + i) % d.period.fs};
        p.devices.push_back({d.name, d.period, d.handler, first});
    }
}

}  // namespace cohsim

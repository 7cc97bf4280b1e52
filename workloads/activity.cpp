#include "workloads/activity.h"

#include "sim/random.h"

namespace cohsim {

namespace {
// More than one interrupt a microsecond is not a machine anyone runs, and
// would only make the run crawl.
constexpr duration min_gap{fs_per_second / 1'000'000};

constexpr const char* spread_text =
    "how much the handler's time varies between invocations, in percent: 100 x the standard deviation of its "
    "logarithm (lognormal around handler, its median; about the coefficient of variation when small; draws clipped "
    "at 4 standard deviations); 0: every invocation takes handler";

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
    s.param("handler", &tick_activity::handler,
            "time each tick keeps the core away from its program (the median invocation's, with handler_spread)")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second / 10});
    s.param("handler_spread", &tick_activity::handler_spread, spread_text)
        .def(0u)
        .range(0u, 150u);
    s.param("jitter", &tick_activity::jitter,
            "each core's tick arrives after the tick's instant by a draw uniform in [0, jitter), per core and tick "
            "(the per-CPU timers of an aligned tick do not fire in the same nanosecond); 0s: exactly on it")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second / 10});
    s.param("timekeeping", &tick_activity::timekeeping,
            "more time each tick on the core that keeps time for the system (Linux's tick_do_timer_cpu: jiffies and "
            "timekeeping), median, with handler_spread")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second / 10});
    s.param("timekeeper", &tick_activity::timekeeper,
            "the core that keeps time (a core id); empty: the first core the tick selects (Linux: the boot CPU)")
        .def("");
    s.param("softirq_every", &tick_activity::softirq_every,
            "every Nth tick of a core also runs softirq work (timers, RCU, the scheduler's load balancing), at tick "
            "numbers drawn per core from the seed; 0: none")
        .def(0u)
        .range(0u, 1000u);
    s.param("softirq", &tick_activity::softirq, "time of that softirq work, median, with handler_spread")
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
    s.param("handler", &random_irq_activity::handler,
            "time each random interrupt keeps the core away from its program (median, with handler_spread)")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second / 10});
    s.param("handler_spread", &random_irq_activity::handler_spread, spread_text).def(0u).range(0u, 150u);
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
    s.param("handler", &device_irq_activity::handler,
            "time each keeps the core away from its program (median, with handler_spread)")
        .def(duration{0})
        .range(duration{0}, duration{fs_per_second / 10});
    s.param("handler_spread", &device_irq_activity::handler_spread, spread_text).def(0u).range(0u, 150u);
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
                    bool timekeeper, core_params& p) {
    if (selects(a.tick.cores, cluster, id)) {
        p.tick_period = a.tick.period;
        p.tick_handler = a.tick.handler;
        p.tick_skew = a.tick.skew;
        p.tick_spread = a.tick.handler_spread / 100.0;
        p.tick_jitter = a.tick.jitter;
        if (timekeeper) p.tick_timekeeping = a.tick.timekeeping;
        p.softirq_every = a.tick.softirq_every;
        p.softirq_time = a.tick.softirq;
        if (a.tick.softirq_every > 0) {
            std::uint64_t h = splitmix64(seed ^ 0x736f6674697271ULL);
            for (char ch : id) h = splitmix64(h ^ static_cast<unsigned char>(ch));
            p.softirq_phase = static_cast<std::uint32_t>(h % a.tick.softirq_every);
        }
    }
    if (selects(a.random_interrupts.cores, cluster, id)) {
        p.irq_interval = a.random_interrupts.interval;
        p.irq_handler = a.random_interrupts.handler;
        p.irq_spread = a.random_interrupts.handler_spread / 100.0;
    }
    for (std::size_t i = 0; i < a.device_interrupts.size(); ++i) {
        const auto& d = a.device_interrupts[i];
        if (!selects(d.cores, cluster, id)) continue;
        const duration first = d.phase ? *d.phase : duration{splitmix64(seed * 1024 + 2048 + i) % d.period.fs};
        p.devices.push_back({d.name, d.period, d.handler, first, d.handler_spread / 100.0});
    }
}

std::vector<std::string> ticked_cores(const activity_params& a, const std::vector<std::string>& ids) {
    std::vector<std::string> out;
    if (a.tick.period.fs == 0) return out;
    for (const auto& id : ids)
        if (selects(a.tick.cores, id.substr(0, id.rfind('.')), id)) out.push_back(id);
    return out;
}

std::string timekeeper(const activity_params& a, const std::vector<std::string>& ids) {
    if (!a.tick.timekeeper.empty()) return a.tick.timekeeper;
    const auto t = ticked_cores(a, ids);
    return t.empty() ? "" : t.front();
}

}  // namespace cohsim

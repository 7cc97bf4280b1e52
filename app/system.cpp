#include "app/system.h"

#include <algorithm>

#include "sim/kernel.h"
#include "sim/random.h"

namespace cohsim {

system_model::system_model(const platform_config& cfg, const std::string& config_dir) : m_cfg(cfg) {
    kernel::init();
    kernel::set_exact(cfg.run.exact);
    m_timer = std::make_unique<generic_timer>("timer", m_cfg.timer);
    std::vector<memory_system::cluster_spec> specs;
    std::vector<memory_system::dsu_spec> dsu_specs;
    // Each PLL's spread-spectrum modulation at its own phase, drawn from the
    // seed and the domain's name; none with noise off.
    auto spread = [&](const std::string& domain) {
        spread_spectrum s;
        if (!m_cfg.run.noise) return s;
        s.ppm = m_cfg.spread_spectrum.down_spread_ppm;
        s.rate = m_cfg.spread_spectrum.rate;
        std::uint64_t h = splitmix64(m_cfg.run.seed ^ 0x737363ULL);
        for (char ch : domain) h = splitmix64(h ^ static_cast<unsigned char>(ch));
        s.phase = h;
        return s;
    };
    for (const auto& [name, d] : m_cfg.dsus) {
        m_domains.push_back(std::make_unique<clock_domain>(name, d.freq, spread("dsu:" + name)));
        dsu_specs.push_back({name, m_domains.back().get(), d});
    }
    auto dsu_index = [&](const std::string& name) {
        for (std::size_t i = 0; i < m_cfg.dsus.items.size(); ++i)
            if (m_cfg.dsus.items[i].first == name) return static_cast<int>(i);
        return -1;
    };
    const std::string keeper = timekeeper(m_cfg.activity, core_ids(m_cfg));
    for (const auto& [name, cl] : m_cfg.clusters) {
        m_domains.push_back(std::make_unique<clock_domain>(name, cl.freq, spread("cluster:" + name)));
        specs.push_back(
            {name, m_domains.back().get(), cl.cores, {cl.l1, cl.l2, cl.scu, cl.exclusive}, cl.socket, dsu_index(cl.dsu)});
        for (unsigned i = 0; i < cl.cores; ++i) {
            const std::string id = name + "." + std::to_string(i);
            const std::string module_name = name + "_" + std::to_string(i);
            core_params timing = cl.timing;
            apply_activity(m_cfg.activity, name, id, m_cfg.run.seed, id == keeper, timing);
            m_cores.push_back(std::make_unique<core>(module_name.c_str(), id, name, i, cl.core, *m_domains.back(), timing));
            m_timer->subscribe(m_cores.back().get());
        }
    }
    interconnect_params icp = m_cfg.interconnect;
    icp.background_percent = m_cfg.activity.bus_traffic.load_percent;  // what else uses it: the scenario's activity
    icp.background_seed = m_cfg.run.seed;
    icp.clock_spread = spread("interconnect");
    m_mem = std::make_unique<memory_system>("memory", specs, icp, m_cfg.memory, dsu_specs, noise{m_cfg.run.noise, m_cfg.run.seed});
    for (const auto& c : m_cores) m_core_ptrs.push_back(c.get());
    for (unsigned i = 0; i < m_cores.size(); ++i) {
        m_cores[i]->connect(m_mem.get(), i, &m_core_ptrs);
        // Each core's own stream (for `work N, M`).
        m_cores[i]->random() = random_stream(splitmix64(m_cfg.run.seed * 1024 + 512 + i));
        // And its random-interrupt stream, apart so that turning interrupts
        // on does not change the work draws (and the handler-time and tick
        // jitter draws, which the tick's phase below uses).
        m_cores[i]->seed_interrupts(splitmix64(splitmix64(m_cfg.run.seed ^ 0x697271ULL) + i));
        // Each core's first scheduler tick at a phase drawn from the seed: its
        // own with tick_skew, else the one phase all unskewed cores share.
        const core_params& p = m_cores[i]->params();
        const std::uint64_t draw = splitmix64(m_cfg.run.seed * 1024 + (p.tick_skew ? i : 1023));
        if (p.tick_period.fs > 0) m_cores[i]->set_tick_phase({draw % p.tick_period.fs});
    }
    // Interrupt wake-ups, only where some core takes interrupts.
    if (std::any_of(m_cores.begin(), m_cores.end(),
                    [](const auto& c) { return c->next_interrupt().fs != ~std::uint64_t{0}; })) {
        m_alarm = std::make_unique<interrupt_alarm>("interrupts", m_core_ptrs);
        for (const auto& c : m_cores) c->set_alarm(m_alarm.get());
    }
    m_mutex.set_stuck_after(m_cfg.run.lock_stuck_after);
    m_threads = build_workload(m_cfg.workload, config_dir, m_core_ptrs, *m_mem, m_mutex);
}

void system_model::observe(const observers& o) {
    m_timer->observe(o);
    for (const auto& c : m_cores) c->observe(o);
    m_mem->observe(o);
    for (const auto& t : m_threads) t->observe(o);
}

core* system_model::find_core(const std::string& id) {
    for (const auto& c : m_cores)
        if (c->id() == id) return c.get();
    return nullptr;
}

std::string system_model::program_fault() const {
    for (const auto& c : m_cores)
        if (!c->fault().empty())
            return c->fault_is_model() ? "the simulator failed on core " + c->id() +
                                             " (a bug in cohsim, not in the program; please report it with the config): " + c->fault()
                                       : "the program stopped the run at " + time_text(c->fault_time()) + ": " + c->fault();
    return {};
}

const core* system_model::find_core(const std::string& id) const {
    for (const auto& c : m_cores)
        if (c->id() == id) return c.get();
    return nullptr;
}

std::vector<std::pair<std::string, std::uint64_t>> shared_data(const system_model& sys) {
    std::vector<std::pair<std::string, std::uint64_t>> out;
    auto add = [&](const std::string& name, std::uint64_t addr) {
        if (std::none_of(out.begin(), out.end(), [&](const auto& s) { return s.first == name; })) out.emplace_back(name, addr);
    };
    for (const auto& th : sys.threads()) {
        for (const auto& sym : th->program().symbols)
            if (!sym.priv) add(sym.name, shared_base + sym.offset);
        for (const auto& [name, addr] : th->program().objects)
            if (name.rfind("__", 0) != 0) add(name, addr);  // not the toolchain's own (__aarch64_have_lse_atomics)
    }
    return out;
}

}  // namespace cohsim

// The topology builder: turns a validated platform_config into model
// instances, one clock domain per cluster, and wires them together.
#pragma once

#include <memory>
#include <vector>

#include "models/core.h"
#include "models/generic_timer.h"
#include "sim/clock_domain.h"
#include "app/platform.h"

namespace cohsim {

class system_model {
public:
    // Elaborates the SystemC modules: call once per process.
    // `config_dir` is where the workload's program files are looked up first.
    explicit system_model(const platform_config& cfg, const std::string& config_dir = ".");

    const platform_config& config() const { return m_cfg; }
    const std::vector<std::unique_ptr<core>>& cores() const { return m_cores; }
    const generic_timer& timer() const { return *m_timer; }
    memory_system& memory() { return *m_mem; }
    const memory_system& memory() const { return *m_mem; }
    core* find_core(const std::string& id);
    const std::vector<std::unique_ptr<workload_thread>>& threads() const { return m_threads; }
    const core* find_core(const std::string& id) const;
    // A core's program that stopped the run (core::fault), the first in
    // config order; empty: none.
    std::string program_fault() const;
    // The stuck-lock diagnostic (mutex_checker) at the end of a run at `end`
    // (every waiter asleep with nothing to wake it never checks), or empty.
    std::string lock_stuck(duration end) const { return m_mutex.stuck_message(end); }
    // Hands the tools that watch the run (--trace, --explain) to every model.
    void observe(const observers& o);

private:
    platform_config m_cfg;
    std::vector<std::unique_ptr<clock_domain>> m_domains;
    std::vector<std::unique_ptr<core>> m_cores;
    std::vector<core*> m_core_ptrs;
    std::unique_ptr<memory_system> m_mem;
    mutex_checker m_mutex;
    std::vector<std::unique_ptr<workload_thread>> m_threads;
    std::unique_ptr<generic_timer> m_timer;
    std::unique_ptr<interrupt_alarm> m_alarm;
};

// The programs' shared data: each .shared symbol at its address (assembly
// programs) and each data object of an ELF program, once each, in the
// order the threads' programs name them.
std::vector<std::pair<std::string, std::uint64_t>> shared_data(const system_model& sys);

}  // namespace cohsim

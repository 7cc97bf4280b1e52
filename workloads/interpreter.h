// Runs an assembled program on a core: architectural registers and flags,
// one instruction at a time, memory instructions through the core's
// operations (and so through the memory system), everything else as local
// compute time. `mark` instructions feed a lock_metrics; a shared
// mutex_checker verifies that no two cores are ever inside a critical
// section at once (checked by the simulator, not trusted to the program).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>
#include <stdexcept>
#include <string>

#include "models/core.h"
#include "sim/stats.h"
#include "sim/trace.h"
#include "workloads/program.h"

namespace cohsim {

// Cycles per instruction class, from the cluster's `timing` (its core
// type's preset unless the config overrides it).
struct instruction_costs {
    cycles alu{1}, branch{1}, hint{1};
};

class mutex_checker {
public:
    void enter(const std::string& who, duration at);
    void leave(const std::string& who);

private:
    std::string m_holder;
    int m_inside = 0;
};

struct mutual_exclusion_violated : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Per-core lock metrics, declared once.
class lock_metrics {
public:
    explicit lock_metrics(const std::string& core_id) : m_core(core_id), m_stats(core_id + ".lock") {}
    const stat_group& stats() const { return m_stats; }
    void begin(duration t) {
        m_start = t;
        m_trying = true;
    }
    void acquired(duration t) {
        if (g_trace) g_trace->slice(trace_recorder::group::cores, m_core, "lock wait", m_start, t);
        m_trying = false;
        ++m_acquisitions;
        m_wait_ns.sample(static_cast<double>(t.fs - m_start.fs) * 1e-6);
        m_held_since = t;
    }
    // For the trace: a wait still going on at the end of the run.
    void trace_ongoing(duration end) const {
        if (g_trace && m_trying && m_start < end)
            g_trace->slice(trace_recorder::group::cores, m_core, "lock wait (still waiting)", m_start, end);
    }
    void released(duration t) {
        if (g_trace) g_trace->slice(trace_recorder::group::cores, m_core, "critical section", m_held_since, t);
        m_hold_ns.sample(static_cast<double>(t.fs - m_held_since.fs) * 1e-6);
    }
    std::uint64_t acquisitions() const { return m_acquisitions.value(); }
    // A core's local time may run ahead of `now`: a wait that started "later"
    // has not started yet.
    duration ongoing_wait(duration now) const {
        return m_trying && now.fs > m_start.fs ? duration{now.fs - m_start.fs} : duration{};
    }
    double longest_wait_ns(duration now) const {
        const double ongoing = m_trying ? ongoing_wait(now).ns() : 0.0;
        const double done = m_wait_ns.get().count ? m_wait_ns.get().max : 0.0;
        return ongoing > done ? ongoing : done;
    }

private:
    std::string m_core;
    stat_group m_stats;
    counter m_acquisitions{m_stats, "acquisitions", "times this core took the lock (mark lock_acquired)"};
    distribution m_wait_ns{m_stats, "wait_ns", "from mark lock_begin to mark lock_acquired, ns"};
    distribution m_hold_ns{m_stats, "hold_ns", "from mark lock_acquired to mark lock_release, ns"};
    duration m_start, m_held_since;
    bool m_trying = false;
};

// Per-core function profile, in the style of ftrace's function profiler:
// each named region's time from `region NAME` to its `endregion` (regions
// may nest; an endregion closes the innermost), as a distribution per name
// (hits, mean, sd, percentiles, histogram).
class region_profile {
public:
    explicit region_profile(const std::string& core_id) : m_stats(core_id + ".regions") {}
    const stat_group& stats() const { return m_stats; }
    void enter(const std::string& name, duration t) { m_open.emplace_back(name, t); }
    // False when no region is open.
    bool leave(duration t) {
        if (m_open.empty()) return false;
        const auto [name, start] = m_open.back();
        m_open.pop_back();
        auto& d = m_regions[name];
        if (!d) d = std::make_unique<distribution>(m_stats, name, "time in region " + name + ", ns");
        d->sample(static_cast<double>(t.fs - start.fs) * 1e-6);
        return true;
    }

private:
    stat_group m_stats;
    std::map<std::string, std::unique_ptr<distribution>> m_regions;
    std::vector<std::pair<std::string, duration>> m_open;
};

class interpreter {
public:
    // `shared_base` and `private_base` are where the program's .shared and
    // .private data live for this core.
    interpreter(core& c, const asmx::program& p, std::uint64_t shared_base, std::uint64_t private_base,
                lock_metrics* metrics, mutex_checker* mutex, instruction_costs costs = {},
                region_profile* profile = nullptr);

    // The core's program: runs until `halt` or for ever.
    void run();

    std::uint64_t reg(int n) const { return n == asmx::zr ? 0 : m_x[n]; }
    std::uint64_t retired() const { return m_retired; }

private:
    void run_program();
    // Waits for the load in flight to register n, if any, and writes its data.
    void use(int n);
    void use_all();
    void set(int n, std::uint64_t v, bool wide);
    std::uint64_t operand2(const asmx::insn& i) const;
    bool holds(asmx::cond c) const;
    std::uint64_t address(const asmx::insn& i) const { return reg(i.rn) + i.imm; }
    [[noreturn]] void fault(const asmx::insn& i, const std::string& what) const;

    core& m_core;
    const asmx::program& m_prog;
    std::uint64_t m_shared, m_private;
    lock_metrics* m_metrics;
    mutex_checker* m_mutex;
    region_profile* m_profile;
    instruction_costs m_costs;
    std::uint64_t m_x[32] = {};
    struct pending {
        int ticket = -1;  // the core's load ticket, -1 = the register holds its value
        bool wide = true;
    };
    pending m_pending[32];
    bool m_n = false, m_z = false, m_c = false, m_v = false;
    std::uint64_t m_retired = 0;
    duration m_time_at_check;  // the core's time when m_retired last crossed a multiple of 2^20
};

}  // namespace cohsim

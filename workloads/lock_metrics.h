// What a workload measures about its locks, in the workload layer: per-core
// lock metrics (acquisitions, waits, holds) fed by the program's `mark`
// instructions (or a trace's marks), a mutex_checker that verifies no two
// cores are ever inside a critical section at once (checked by the
// simulator, not trusted to the program), and a per-core region profile.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/observer.h"
#include "workloads/program.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

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
    // Who watches: the timeline (lock waits and critical sections).
    void observe(timeline_observer* t) { m_trace = t; }
    const stat_group& stats() const { return m_stats; }
    void begin(duration t) {
        m_start = t;
        m_trying = true;
    }
    void acquired(duration t) {
        if (m_trace) m_trace->slice(timeline_observer::group::cores, m_core, "lock wait", m_start, t);
        m_trying = false;
        ++m_acquisitions;
        m_wait_ns.sample(static_cast<double>(t.fs - m_start.fs) * 1e-6);
        m_held_since = t;
    }
    // For the trace: a wait still going on at the end of the run.
    void trace_ongoing(duration end) const {
        if (m_trace && m_trying && m_start < end)
            m_trace->slice(timeline_observer::group::cores, m_core, "lock wait (still waiting)", m_start, end);
    }
    void released(duration t) {
        if (m_trace) m_trace->slice(timeline_observer::group::cores, m_core, "critical section", m_held_since, t);
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
    timeline_observer* m_trace = nullptr;
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
    // The regions still open at `end` (the run stopped inside them),
    // outermost first, each with the ns it had been open: reported apart,
    // as they are not whole samples of the region's time.
    std::vector<std::pair<std::string, double>> open_at(duration end) const {
        std::vector<std::pair<std::string, double>> out;
        for (const auto& [name, start] : m_open) out.emplace_back(name, static_cast<double>(end.fs - start.fs) * 1e-6);
        return out;
    }

private:
    stat_group m_stats;
    std::map<std::string, std::unique_ptr<distribution>> m_regions;
    std::vector<std::pair<std::string, duration>> m_open;
};

// A program's (or a trace's) `mark` at `now` on core `core_id`: the lock
// metrics and the mutual-exclusion check (either may be null).
void lock_mark(asmx::mark_kind which, const std::string& core_id, duration now, lock_metrics* metrics,
               mutex_checker* mutex);

}  // namespace cohsim

// What a workload measures about its locks, in the workload layer: per-core
// lock metrics (acquisitions, waits, holds) fed by the program's `mark`
// instructions (or a trace's marks), a mutex_checker that verifies no two
// cores are ever inside a critical section at once (checked by the
// simulator, not trusted to the program), and a per-core region profile.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/observer.h"
#include "workloads/program.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

// Checks the lock from the workload's marks, in simulated time:
//   - mutual exclusion: the critical sections (lock_acquired .. lock_release)
//     of two cores never overlap. Each mark is at its core's local time, and
//     a core computing ahead marks a whole section before another core's
//     earlier marks are seen, so sections are compared as intervals, not in
//     the order the marks arrive: a section is checked when it opens (against
//     the sections open or closed around its start) and when it closes
//     (against every other section it overlaps). Sections that closed before
//     the model's clock can overlap nothing to come and are dropped.
//   - a stuck lock: a core waits for it (lock_begin) and no core has taken it
//     for longer than the bound: `floor` (run.lock_stuck_after), or 1000x the
//     longest gap between two acquisitions seen so far if that is longer. The
//     culprit is named: the core inside the lock since then, or the one that
//     marked its release last (its unlock did not free the lock).
// Either throws mutual_exclusion_violated, which stops the run (core::run).
class mutex_checker {
public:
    // 0 = no stuck-lock check.
    void set_stuck_after(duration floor) { m_stuck_floor = floor; }
    void begin(unsigned agent, const std::string& who, duration at);
    void enter(unsigned agent, const std::string& who, duration at);
    void leave(unsigned agent, const std::string& who, duration at);
    // Throws if the lock is stuck at `now` (a waiting core's local time).
    void check_stuck(duration now) const {
        if (m_stuck_floor.fs && m_waiting && now.fs >= m_stuck_deadline_fs) throw_stuck(now);
    }
    // The stuck-lock diagnostic at `now`, or empty (for the end of a run).
    std::string stuck_message(duration now) const;

private:
    struct section {
        unsigned agent;
        duration from, to;  // to: max while open
    };
    struct core_state {
        std::string who;
        bool waiting = false, inside = false;
        duration wait_from, inside_from, released_at;
    };
    core_state& state(unsigned agent, const std::string& who);
    [[noreturn]] void violated(const core_state& a, duration a_from, const section& b) const;
    [[noreturn]] void throw_stuck(duration now) const;
    void update_deadline();
    std::vector<section> m_sections;  // open, or closed after the model's clock
    std::vector<core_state> m_cores;  // by agent
    unsigned m_waiting = 0;           // cores between lock_begin and lock_acquired
    duration m_stuck_floor;
    std::uint64_t m_stuck_deadline_fs = ~std::uint64_t{0};
    // The last acquisition (by whom), the longest gap between two.
    bool m_acquired_once = false;
    duration m_last_acquired, m_longest_gap;
    duration m_quiet_from;  // the last acquisition, or the start of a wait that began with none waiting
    unsigned m_last_agent = 0;
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
    // When the wait going on began (none: not waiting).
    std::optional<duration> waiting_since() const { return m_trying ? std::optional<duration>(m_start) : std::nullopt; }
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

// A program's (or a trace's) `mark` at `now` on core `core_id` (agent number
// `agent`): the lock
// metrics and the mutual-exclusion check (either may be null).
void lock_mark(asmx::mark_kind which, unsigned agent, const std::string& core_id, duration now, lock_metrics* metrics,
               mutex_checker* mutex);

}  // namespace cohsim

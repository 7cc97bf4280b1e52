#include "workloads/lock_metrics.h"

#include <algorithm>

#include "sim/kernel.h"

namespace cohsim {

mutex_checker::core_state& mutex_checker::state(unsigned agent, const std::string& who) {
    if (agent >= m_cores.size()) m_cores.resize(agent + 1);
    core_state& c = m_cores[agent];
    if (c.who.empty()) c.who = who;
    return c;
}

void mutex_checker::violated(const core_state& a, duration a_from, const section& b) const {
    const core_state& other = m_cores[b.agent];
    const duration at = a_from < b.from ? b.from : a_from;
    const bool a_first = a_from < b.from;
    const std::string& first = a_first ? a.who : other.who;
    const std::string& second = a_first ? other.who : a.who;
    throw mutual_exclusion_violated("mutual exclusion violated at " + time_text(at) + ": " + second +
                                    " entered the critical section while " + first + " was inside (since " +
                                    time_text(a_first ? a_from : b.from) + ")");
}

void mutex_checker::update_deadline() {
    if (!m_stuck_floor.fs) return;
    const std::uint64_t bound = std::max<std::uint64_t>(m_stuck_floor.fs, m_longest_gap.fs * 1000);
    m_stuck_deadline_fs = m_quiet_from.fs + bound;
}

void mutex_checker::begin(unsigned agent, const std::string& who, duration at) {
    core_state& c = state(agent, who);
    if (c.waiting) return;
    c.waiting = true;
    c.wait_from = at;
    if (m_waiting++ == 0 && m_quiet_from < at) {
        m_quiet_from = at;  // nobody waited: the lock's quiet time counts from now
        update_deadline();
    }
}

void mutex_checker::enter(unsigned agent, const std::string& who, duration at) {
    core_state& c = state(agent, who);
    if (c.inside)
        throw mutual_exclusion_violated(who + " marked lock_acquired at " + time_text(at) + " while already inside since " +
                                        time_text(c.inside_from) + " (mark lock_release between two lock_acquired)");
    for (const section& s : m_sections)
        if (s.agent != agent && !(at < s.from) && at < s.to) violated(c, at, s);
    c.inside = true;
    c.inside_from = at;
    m_sections.push_back({agent, at, duration{~std::uint64_t{0}}});
    if (c.waiting) c.waiting = false, --m_waiting;
    if (m_acquired_once && m_last_acquired < at && m_longest_gap.fs < at.fs - m_last_acquired.fs)
        m_longest_gap = {at.fs - m_last_acquired.fs};
    m_acquired_once = true;
    if (m_last_acquired < at || m_last_acquired == at) m_last_acquired = at, m_last_agent = agent;
    if (m_quiet_from < at) m_quiet_from = at;
    update_deadline();
}

void mutex_checker::leave(unsigned agent, const std::string& who, duration at) {
    core_state& c = state(agent, who);
    if (!c.inside)
        throw mutual_exclusion_violated(who + " released a lock it did not hold at " + time_text(at) +
                                        " (mark lock_release without lock_acquired)");
    c.inside = false;
    c.released_at = at;
    const duration from = c.inside_from;
    // Sections that closed before the model's clock overlap nothing to come.
    const duration floor = kernel::now();
    std::size_t keep = 0;
    for (std::size_t k = 0; k < m_sections.size(); ++k) {
        section s = m_sections[k];
        if (s.agent == agent && s.from == from && s.to.fs == ~std::uint64_t{0}) s.to = at;
        else if (s.agent != agent && s.from < at && from < s.to) violated(c, from, s);
        if (floor < s.to) m_sections[keep++] = s;
    }
    m_sections.resize(keep);
}

std::string mutex_checker::stuck_message(duration now) const {
    if (!m_stuck_floor.fs || !m_waiting || now.fs < m_stuck_deadline_fs) return {};
    std::string waiters;
    unsigned n = 0;
    for (const core_state& c : m_cores)
        if (c.waiting) waiters += (n++ ? ", " : "") + c.who + " since " + time_text(c.wait_from);
    const std::string bound = "run.lock_stuck_after is " + time_text(m_stuck_floor) +
                              (m_longest_gap.fs * 1000 > m_stuck_floor.fs
                                   ? ", and 1000x the longest gap between two acquisitions seen is " +
                                         time_text(duration{m_longest_gap.fs * 1000})
                                   : std::string());
    const std::string advice = " (" + bound + "; raise run.lock_stuck_after if a hold this long is intended)";
    const std::string waiting = std::to_string(n) + (n == 1 ? " core waits" : " cores wait") + " for it (" + waiters + ")";
    for (const core_state& c : m_cores)
        if (c.inside)
            return "the lock is stuck: " + c.who + " took it at " + time_text(c.inside_from) + " and has not released it (for " +
                   time_text(duration{now.fs - c.inside_from.fs}) + "); " + waiting + advice;
    if (!m_acquired_once)
        return "the lock is stuck: no core has taken it in the " + time_text(duration{now.fs - m_quiet_from.fs}) +
               " since " + time_text(m_quiet_from) + " (its initial value may say it is held); " + waiting + advice;
    const core_state& last = m_cores[m_last_agent];
    return "the lock is stuck: " + last.who + " took it last, at " + time_text(m_last_acquired) +
           ", and marked its release at " + time_text(last.released_at) + ", but no core has taken it since (for " +
           time_text(duration{now.fs - m_quiet_from.fs}) + "): its unlock did not free the lock; " + waiting + advice;
}

void mutex_checker::throw_stuck(duration now) const { throw mutual_exclusion_violated(stuck_message(now)); }

void lock_mark(asmx::mark_kind which, unsigned agent, const std::string& core_id, duration now, lock_metrics* metrics,
               mutex_checker* mutex) {
    if (which == asmx::mark_kind::lock_begin) {
        if (metrics) metrics->begin(now);
        if (mutex) mutex->begin(agent, core_id, now);
    } else if (which == asmx::mark_kind::lock_acquired) {
        if (metrics) metrics->acquired(now);
        if (mutex) mutex->enter(agent, core_id, now);
    } else {
        if (metrics) metrics->released(now);
        if (mutex) mutex->leave(agent, core_id, now);
    }
}

}  // namespace cohsim

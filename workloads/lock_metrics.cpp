#include "workloads/lock_metrics.h"

namespace cohsim {

void mutex_checker::enter(const std::string& who, duration at) {
    if (m_inside > 0)
        throw mutual_exclusion_violated("mutual exclusion violated at " + std::to_string(at.ns()) + " ns: " + who +
                                        " entered the critical section while " + m_holder + " was inside");
    ++m_inside;
    m_holder = who;
}

void mutex_checker::leave(const std::string& who) {
    if (m_inside == 0 || m_holder != who)
        throw mutual_exclusion_violated(who + " released a lock it did not hold (mark lock_release without lock_acquired)");
    --m_inside;
}

void lock_mark(asmx::mark_kind which, const std::string& core_id, duration now, lock_metrics* metrics,
               mutex_checker* mutex) {
    if (which == asmx::mark_kind::lock_begin) {
        if (metrics) metrics->begin(now);
    } else if (which == asmx::mark_kind::lock_acquired) {
        if (metrics) metrics->acquired(now);
        if (mutex) mutex->enter(core_id, now);
    } else {
        if (metrics) metrics->released(now);
        if (mutex) mutex->leave(core_id);
    }
}

}  // namespace cohsim

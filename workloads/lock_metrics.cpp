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

}  // namespace cohsim

// Tells a protocol deadlock from starvation, between simulation slices.
//   - Deadlock (a bug): some core's memory access has been outstanding for
//     longer than run.deadlock_after. The watchdog returns a diagnostic
//     naming the line, the L1's state and the home's state; the run stops.
//   - Starvation (a result): a lock thread has waited long but its accesses
//     keep completing. The watchdog logs it each time the wait doubles past
//     1 ms, and the run goes on.
// Both are decided at fixed simulated times, never where a slice of host
// time happened to end: the run's slices end at next_check(), the moment an
// access would have been outstanding for run.deadlock_after or a wait would
// reach its next report (1 ms, then twice the last), so a deadlock stops at
// that moment and the same run logs the same lines.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "app/system.h"

namespace cohsim {

class watchdog {
public:
    explicit watchdog(const system_model& sys) : m_sys(sys) {}
    // Empty, or the deadlock diagnostic.
    std::string check();
    // The latest simulated time the next slice may end at.
    duration next_check() const;

private:
    const system_model& m_sys;
    duration report_at(const std::string& core) const;  // the wait that is reported next
    std::map<std::string, duration> m_reported;
    // When check() last looked (none yet: never now), and the oldest access then.
    std::pair<duration, std::optional<duration>> m_oldest{duration{~0ULL}, std::nullopt};
};

}  // namespace cohsim

// Tells a protocol deadlock from starvation, between simulation slices.
//   - Deadlock (a bug): some core's memory access has been outstanding for
//     longer than run.deadlock_after. The watchdog returns a diagnostic
//     naming the line, the L1's state and the home's state; the run stops.
//   - Starvation (a result): a lock thread has waited long but its accesses
//     keep completing. The watchdog logs it each time the wait doubles past
//     1 ms, and the run goes on.
#pragma once

#include <map>
#include <string>

#include "app/system.h"

namespace cohsim {

class watchdog {
public:
    explicit watchdog(const system_model& sys) : m_sys(sys) {}
    // Empty, or the deadlock diagnostic.
    std::string check();

private:
    const system_model& m_sys;
    std::map<std::string, double> m_reported_ms;
};

}  // namespace cohsim

#include "app/watchdog.h"

#include <spdlog/spdlog.h>

#include "sim/kernel.h"

namespace cohsim {

std::string watchdog::check() {
    const std::string stuck = m_sys.memory().stuck_access(m_sys.config().run.deadlock_after);
    if (!stuck.empty()) return "protocol deadlock: " + stuck;
    const duration now = kernel::now();
    for (const auto& t : m_sys.threads()) {
        const double ms = t->metrics().ongoing_wait(now).ns() / 1e6;
        double& reported = m_reported_ms[t->core_id()];
        if (ms >= 1.0 && ms >= 2 * reported) {
            reported = ms;
            spdlog::warn("{} has waited {:.1f} ms for the lock so far (starvation: its accesses complete, it never wins)",
                         t->core_id(), ms);
        }
    }
    return {};
}

}  // namespace cohsim

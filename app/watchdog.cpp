#include "app/watchdog.h"

#include <spdlog/spdlog.h>

#include "sim/kernel.h"

namespace cohsim {

std::string watchdog::check() {
    const duration now = kernel::now(), after = m_sys.config().run.deadlock_after;
    // One scan of the outstanding accesses per slice: the oldest decides
    // whether one is stuck (and serves next_check at the same time); the
    // diagnostic, naming the first stuck core, is built only then.
    m_oldest = {now, m_sys.memory().oldest_access()};
    if (m_oldest.second && now.fs - m_oldest.second->fs >= after.fs)
        return "protocol deadlock: " + m_sys.memory().stuck_access(after);
    for (const auto& t : m_sys.threads()) {
        const duration waited = t->metrics().ongoing_wait(now);
        if (waited < report_at(t->core_id())) continue;
        m_reported[t->core_id()] = waited;
        spdlog::warn("{} has waited {:.1f} ms for the lock so far (starvation: its accesses complete, it never wins)",
                     t->core_id(), waited.ns() / 1e6);
    }
    return {};
}

duration watchdog::report_at(const std::string& core) const {
    constexpr duration first{1'000'000'000'000ULL};  // 1 ms
    const auto it = m_reported.find(core);
    return it == m_reported.end() || it->second.fs < first.fs / 2 ? first : duration{2 * it->second.fs};
}

duration watchdog::next_check() const {
    const duration now = kernel::now(), after = m_sys.config().run.deadlock_after;
    // A wait or an access that begins within the slice is seen at its end:
    // a slice no longer than the shortest of the two thresholds ends before
    // either could be due.
    duration next{now.fs + std::min<std::uint64_t>(after.fs, report_at({}).fs)};
    const auto oldest = m_oldest.first == now ? m_oldest.second : m_sys.memory().oldest_access();
    if (oldest) next = std::min(next, duration{oldest->fs + after.fs});
    for (const auto& t : m_sys.threads())
        if (const auto since = t->metrics().waiting_since()) next = std::min(next, duration{since->fs + report_at(t->core_id()).fs});
    return next;
}

}  // namespace cohsim

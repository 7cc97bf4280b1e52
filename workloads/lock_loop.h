// The built-in lock-loop workload: each listed core runs
//   forever { spin_lock(&L); <inside>; spin_unlock(&L); cpu_relax(); <outside> }
// on one shared lock L, with the arm64 ticket spinlock of Linux 4.14
// (arm-sync.md section 1.2 and 1.4), written against the core's operations.
// It stands in for the workload language (issue 4) so that the memory system
// can be run on the published big.LITTLE experiment today.
//
// Lock (LL/SC, Armv8.0):           prfm pstl1strm; 1: ldaxr; add #0x10000;
//                                  stxr; cbnz 1b; owner == ticket? else
//                                  sevl; 2: wfe; ldaxrh owner; cmp; b.ne 2b
// Lock (LSE, Armv8.1):             ldadda #0x10000, then the same wait
// Unlock:                          ldrh owner; add #1; stlrh owner
// The unfair step is the LL/SC ticket grab, which retries without backoff.
// cpu_relax: `yield` (a NOP, 1 cycle) or `wfe_backoff`: after `threshold`
// consecutive calls, `sevl; wfe; wfe` (sleep until the next event).
// ALU and branch instructions cost one core cycle each (a placeholder for
// the per-core timing presets of the workload issue).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/core.h"
#include "sim/schema.h"
#include "sim/stats.h"

namespace cohsim {

enum class lock_kind { ticket_llsc, ticket_lse };
enum class relax_kind { yield, wfe_backoff };
template <>
struct cfg::enum_names<lock_kind> {
    static const std::vector<std::pair<lock_kind, const char*>>& list();
};
template <>
struct cfg::enum_names<relax_kind> {
    static const std::vector<std::pair<relax_kind, const char*>>& list();
};

struct thread_params {
    std::string core;  // CLUSTER.INDEX
    relax_kind cpu_relax = relax_kind::yield;
    cycles inside{0};   // work inside the critical section
    cycles outside{0};  // work after cpu_relax
    static void describe(cfg::struct_schema<thread_params>& s);
};

struct workload_params {
    lock_kind lock = lock_kind::ticket_llsc;
    std::uint64_t relax_threshold = 10000;
    std::vector<thread_params> threads;
    static void describe(cfg::struct_schema<workload_params>& s);
};

// One thread's results, declared once.
class lock_thread {
public:
    lock_thread(core& c, const thread_params& t, const workload_params& w, std::uint64_t lock_addr);
    const stat_group& stats() const { return m_stats; }
    std::uint64_t acquisitions() const { return m_acquisitions.value(); }
    const distribution& waits() const { return m_wait_ns; }
    const thread_params& params() const { return m_thread; }
    // How long the current spin_lock has been waiting (0 if it holds the lock
    // or is not trying), at simulated time `now`.
    duration ongoing_wait(duration now) const { return m_trying ? duration{now.fs - m_wait_start.fs} : duration{}; }
    // The longest wait so far, counting one still going on at `now`, in ns.
    double longest_wait_ns(duration now) const;

private:
    void run(core& c);
    void lock(core& c);
    void unlock(core& c);
    void relax(core& c);

    thread_params m_thread;
    workload_params m_work;
    std::uint64_t m_lock;
    std::uint64_t m_relax_calls = 0;
    bool m_trying = false;
    duration m_wait_start;
    stat_group m_stats;
    counter m_acquisitions{m_stats, "acquisitions", "times this core took the lock"};
    distribution m_wait_ns{m_stats, "wait_ns", "from starting spin_lock to owning the lock, ns"};
    counter m_ticket_retries{m_stats, "ticket_retries", "failed store-exclusives while taking a ticket"};
    counter m_backoffs{m_stats, "wfe_backoffs", "cpu_relax calls that backed off into WFE"};
};

}  // namespace cohsim

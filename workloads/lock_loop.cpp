#include "workloads/lock_loop.h"

namespace cohsim {

const std::vector<std::pair<lock_kind, const char*>>& cfg::enum_names<lock_kind>::list() {
    static const std::vector<std::pair<lock_kind, const char*>> l = {{lock_kind::ticket_llsc, "ticket_llsc"},
                                                                      {lock_kind::ticket_lse, "ticket_lse"}};
    return l;
}
const std::vector<std::pair<relax_kind, const char*>>& cfg::enum_names<relax_kind>::list() {
    static const std::vector<std::pair<relax_kind, const char*>> l = {{relax_kind::yield, "yield"},
                                                                       {relax_kind::wfe_backoff, "wfe_backoff"}};
    return l;
}

void thread_params::describe(cfg::struct_schema<thread_params>& s) {
    s.param("core", &thread_params::core, "the core that runs this thread, CLUSTER.INDEX (e.g. little.2)");
    s.param("cpu_relax", &thread_params::cpu_relax,
            "cpu_relax() after each unlock: yield (a NOP) or wfe_backoff (sleep in WFE every relax_threshold calls)")
        .def(relax_kind::yield);
    s.param("inside", &thread_params::inside, "work inside the critical section, core cycles").def(cycles{0});
    s.param("outside", &thread_params::outside, "work after cpu_relax, core cycles").def(cycles{0});
}

void workload_params::describe(cfg::struct_schema<workload_params>& s) {
    s.param("lock", &workload_params::lock,
            "ticket_llsc (arm64 ticket lock with LDAXR/STXR, Armv8.0) or ticket_lse (LDADDA, Armv8.1)")
        .def(lock_kind::ticket_llsc);
    s.param("relax_threshold", &workload_params::relax_threshold,
            "consecutive cpu_relax calls before wfe_backoff sleeps (the 2017 experimental patch)")
        .def(10000u)
        .range(1u, 1'000'000'000u);
    s.sequence("threads", &workload_params::threads, 0, "the cores looping on the lock; none = all cores idle");
}

lock_thread::lock_thread(core& c, const thread_params& t, const workload_params& w, std::uint64_t lock_addr)
    : m_thread(t), m_work(w), m_lock(lock_addr), m_stats(c.id() + ".lock") {
    c.set_program([this](core& self) { run(self); });
}

void lock_thread::run(core& c) {
    for (;;) {
        const duration start = c.local_time();
        m_wait_start = start;
        m_trying = true;
        lock(c);
        m_trying = false;
        ++m_acquisitions;
        m_wait_ns.sample(static_cast<double>(c.local_time().fs - start.fs) * 1e-6);
        if (m_thread.inside.n) c.work(m_thread.inside);
        unlock(c);
        relax(c);
        if (m_thread.outside.n) c.work(m_thread.outside);
    }
}

double lock_thread::longest_wait_ns(duration now) const {
    const double ongoing = now.fs > m_wait_start.fs ? ongoing_wait(now).ns() : 0.0;
    const double done = m_wait_ns.get().count ? m_wait_ns.get().max : 0.0;
    return ongoing > done ? ongoing : done;
}

void lock_thread::lock(core& c) {
    constexpr std::uint64_t one_ticket = 0x10000;
    std::uint64_t old;
    if (m_work.lock == lock_kind::ticket_lse) {
        c.work(cycles{1});  // mov w, #0x10000
        old = c.atomic(atomic_op::add, m_lock, one_ticket, 4);
        c.work(cycles{3});  // nop padding
    } else {
        c.prefetch_store(m_lock);
        for (;;) {
            old = c.load_exclusive(m_lock, 4);
            c.work(cycles{1});  // add
            if (c.store_exclusive(m_lock, (old + one_ticket) & 0xffffffffu, 4)) break;
            ++m_ticket_retries;
            c.work(cycles{1});  // cbnz
        }
        c.work(cycles{1});  // cbnz (not taken)
    }
    const std::uint64_t ticket = old >> 16;
    c.work(cycles{2});  // eor, cbz
    if ((old & 0xffff) == ticket) return;
    c.sevl();
    for (;;) {
        c.wfe();
        const std::uint64_t owner = c.load_exclusive(m_lock, 2);  // ldaxrh on the owner half
        c.work(cycles{2});                                        // eor, cbnz
        if (owner == ticket) return;
    }
}

void lock_thread::unlock(core& c) {
    const std::uint64_t owner = c.load(m_lock, 2);
    c.work(cycles{1});
    c.store(m_lock, (owner + 1) & 0xffff, 2);  // stlrh: no store buffer, so release costs nothing extra
}

void lock_thread::relax(core& c) {
    if (m_thread.cpu_relax == relax_kind::yield) {
        c.work(cycles{1});
        return;
    }
    c.work(cycles{2});  // count the call
    if (++m_relax_calls < m_work.relax_threshold) return;
    m_relax_calls = 0;
    ++m_backoffs;
    c.sevl();
    c.wfe();
    c.wfe();
}

}  // namespace cohsim

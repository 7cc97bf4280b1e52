#include "sim/event_queue.h"

#include <algorithm>
#include <stdexcept>

#include "sim/kernel.h"

namespace cohsim {

event_queue::event_queue(const sc_core::sc_module_name& name) : sc_module(name) {
    SC_METHOD(fire);  // also once at time 0: the processes started
    sensitive << m_event;
}

namespace {
std::size_t count_processes(const std::vector<sc_core::sc_object*>& objects) {
    std::size_t n = 0;
    for (const sc_core::sc_object* o : objects) {
        const std::string kind = o->kind();
        if (kind == "sc_method_process" || kind == "sc_thread_process" || kind == "sc_cthread_process") ++n;
        n += count_processes(o->get_child_objects());
    }
    return n;
}
}  // namespace

void event_queue::start_of_simulation() {
    // Processes spawned later (sc_spawn) would not be counted: cohsim spawns
    // none, and a test that does has its own SC_THREADs too.
    m_alone = count_processes(sc_core::sc_get_top_level_objects()) == 1;
    kernel::set_alone(m_alone);
}

void event_queue::past() { throw std::logic_error("event_queue: action scheduled in the past"); }

void event_queue::ready(process& p) {
    if (p.queued) return;
    p.queued = true;
    m_ready.push_back(&p);
    // From a SystemC process: run it in the next delta (before the simulation
    // starts, the queue's first activation at time 0 runs it).
    if (!m_firing && sc_core::sc_is_running()) m_event.notify(sc_core::SC_ZERO_TIME);
}

duration event_queue::horizon() const {
    const duration n = kernel::now();
    if (!m_ready.empty()) return n;
    // While firing, SystemC's own view (asked once per activation: its other
    // processes cannot run until the activation returns).
    duration h = m_firing ? m_outside : kernel::horizon();
    if (!m_q.empty() && m_q.top().fs < h.fs) h = {m_q.top().fs};
    return {std::max(h.fs, n.fs)};
}

void event_queue::arm() {
    if (m_firing || m_q.empty() || kernel::stopped()) return;  // fire() arms once it is done
    const std::uint64_t next = m_q.top().fs;
    if (next >= m_armed_fs) return;
    m_armed_fs = next;
    // Absolute: the model's clock may be ahead of SystemC's.
    m_event.notify(kernel::to_sc({next - sc_core::sc_get_curr_simcontext()->time_stamp().value()}));
}

inline void event_queue::run_time(std::uint64_t t) {
    for (;;) {
        while (!m_q.empty() && m_q.top().fs == t) {
            if (kernel::stopped()) return;  // nothing runs after a stop (kernel.h)
            const std::uint32_t slot = m_q.top().slot;
            m_q.pop();
            action a = m_actions[slot];  // a copy: the action may schedule others into the pool
            m_free.push_back(slot);
            kernel::count_action();
            a();
        }
        if (m_ready.empty()) return;
        // The processes made ready, in order; those they make ready run in this round too.
        while (!m_ready.empty()) {
            if (kernel::stopped()) return;
            process* p = m_ready.front();
            m_ready.pop_front();
            p->queued = false;
            kernel::count_switch();
            p->resume();
        }
        // A process may have run ahead: the actions of `t` it scheduled are due only at t itself.
        if (m_q.empty() || m_q.top().fs != t) return;
    }
}

void event_queue::fire() {
    kernel::count_event();
    kernel::catch_up();  // SystemC's time moved to this activation's
    m_armed_fs = ~std::uint64_t{0};
    m_firing = true;
    struct done_firing {
        bool& f;
        ~done_firing() { f = false; }
    } guard{m_firing};
    m_event.cancel();  // a notification still pending (armed before a batch ran its time) is stale
    m_outside = kernel::horizon();
    const std::uint64_t real = sc_core::sc_get_curr_simcontext()->time_stamp().value();
    // The processes started (the activation at time 0), and the actions due now.
    if (!m_ready.empty() || (!m_q.empty() && m_q.top().fs == real)) run_time(kernel::now().fs);
    // The next times' actions now, while nothing could run before them: up
    // to SystemC's next activity and the end of the slice (back to the kernel
    // there: progress, Ctrl-C); none in exact timing. Both stay as they are
    // while this activation runs.
    const std::uint64_t limit = kernel::exact() ? 0 : std::min(m_outside.fs, kernel::slice_end().fs);
    while (!m_q.empty()) {
        const std::uint64_t t = m_q.top().fs;
        // A SystemC process an action made runnable runs first.
        if (kernel::stopped() || !(t < limit) || (!m_alone && sc_core::sc_pending_activity_at_current_time())) break;
        kernel::advance_to({t});
        run_time(t);
    }
    m_firing = false;
    arm();
}

event_queue& kernel::queue() {
    static event_queue* q = new event_queue("scheduler");  // lives as long as the simulation
    return *q;
}

}  // namespace cohsim

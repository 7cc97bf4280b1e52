#include "sim/event_queue.h"

#include <memory>
#include <stdexcept>

#include "sim/kernel.h"

namespace cohsim {

event_queue::event_queue(const sc_core::sc_module_name& name) : sc_module(name) {
    SC_METHOD(fire);
    sensitive << m_event;
    dont_initialize();
}

void event_queue::at(duration when, std::uint64_t rank, action a) {
    if (when.fs < kernel::now().fs) throw std::logic_error("event_queue: action scheduled in the past");
    m_q.push({when.fs, rank, m_seq++, a});
    arm();
}

void event_queue::arm() {
    if (m_firing || m_q.empty()) return;  // fire() arms once it is done
    const std::uint64_t next = m_q.top().fs;
    if (next >= m_armed_fs) return;
    m_armed_fs = next;
    // Absolute: the model's clock may be ahead of SystemC's.
    m_event.notify(kernel::to_sc({next - sc_core::sc_time_stamp().value()}));
}

void event_queue::fire() {
    kernel::count_event();
    m_armed_fs = ~std::uint64_t{0};
    m_firing = true;
    while (!m_q.empty()) {
        const std::uint64_t t = m_q.top().fs;
        kernel::advance_to({t});
        while (!m_q.empty() && m_q.top().fs == t) {
            action a = m_q.top().a;
            m_q.pop();
            a();
        }
        // The next time's actions now, if nothing could run before them.
        if (m_q.empty() || !(m_q.top().fs < kernel::horizon().fs)) break;
    }
    m_firing = false;
    arm();
}

event_queue& kernel::queue() {
    static event_queue* q = new event_queue("scheduler");  // lives as long as the simulation
    return *q;
}

}  // namespace cohsim

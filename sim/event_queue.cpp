#include "sim/event_queue.h"

#include <stdexcept>

#include "sim/kernel.h"

namespace cohsim {

event_queue::event_queue(const sc_core::sc_module_name& name) : sc_module(name) {
    SC_METHOD(fire);
    sensitive << m_event;
    dont_initialize();
}

void event_queue::at(duration when, std::uint64_t rank, action a) {
    const std::uint64_t now = kernel::now().fs;
    if (when.fs < now) throw std::logic_error("event_queue: action scheduled in the past");
    m_q.push({when.fs, rank, m_seq++, std::move(a)});
    arm();
}

void event_queue::arm() {
    if (m_q.empty()) return;
    const std::uint64_t next = m_q.top().fs;
    if (next >= m_armed_fs) return;
    m_armed_fs = next;
    m_event.notify(kernel::to_sc({next - kernel::now().fs}));
}

void event_queue::fire() {
    kernel::count_event();
    const std::uint64_t now = kernel::now().fs;
    m_armed_fs = ~std::uint64_t{0};
    while (!m_q.empty() && m_q.top().fs == now) {
        action a = std::move(const_cast<item&>(m_q.top()).a);
        m_q.pop();
        a();
    }
    arm();
}

}  // namespace cohsim

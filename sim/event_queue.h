// A timed queue of actions run by one SC_METHOD: the model's scheduler.
// Everything timed in a cohsim system goes through it (messages, core
// wake-ups, the timer's event stream, interrupts), so the order of things
// that happen at one time is the model's, never the SystemC kernel's: actions
// due at the same time run in the order of their `rank` (a phase, then a key
// such as an agent), then of scheduling. A thread that an action wakes runs
// after every action of that time.
//
// One activation runs every action due at its time and then, while nothing
// else is pending (kernel::horizon()) and no thread was woken, the actions of
// the next times too: they could not have run otherwise. With
// kernel::exact(true), one activation per time.
#pragma once

#include <systemc>

#include <cstdint>
#include <queue>
#include <vector>

#include "sim/action.h"
#include "sim/units.h"

namespace cohsim {

// Same-time order of actions: finish things first (responses), then snoops,
// then new requests, then the system's own (timer, interrupts), then core
// wake-ups; within a phase by the key (an agent or a cluster).
enum class phase : std::uint64_t { response = 0, snoop = 1, request = 2, system = 3, core = 4 };
constexpr std::uint64_t rank(phase p, std::uint64_t key) { return (static_cast<std::uint64_t>(p) << 40) | key; }

class event_queue : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(event_queue);
    explicit event_queue(const sc_core::sc_module_name& name);

    // Runs `a` at absolute simulated time `when` (not before now).
    void at(duration when, std::uint64_t rank, action a);
    std::size_t pending() const { return m_q.size(); }

private:
    struct item {
        std::uint64_t fs, rank, seq;
        action a;
    };
    struct later {
        bool operator()(const item& x, const item& y) const {
            if (x.fs != y.fs) return x.fs > y.fs;
            if (x.rank != y.rank) return x.rank > y.rank;
            return x.seq > y.seq;
        }
    };
    void fire();
    void arm();

    std::priority_queue<item, std::vector<item>, later> m_q;  // plain data: heap moves are copies
    sc_core::sc_event m_event;
    std::uint64_t m_seq = 0;
    std::uint64_t m_armed_fs = ~std::uint64_t{0};
    bool m_firing = false;  // in fire(): actions' at() calls do not arm
};

namespace kernel {
// The process's scheduler, created on first use (during elaboration).
event_queue& queue();
}  // namespace kernel

}  // namespace cohsim

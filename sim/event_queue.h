// A timed queue of actions, and the model processes (process.h) it runs: the
// model's scheduler. Everything timed in a cohsim system goes through it
// (messages, core wake-ups, the timer's event stream, interrupts), so the
// order of things that happen at one time is the model's, never the SystemC
// kernel's: actions due at the same time run in the order of their `rank` (a
// phase, then a key such as an agent), then of scheduling. Processes made
// ready by the actions of a time run after all of them, in the order they
// were made ready; actions they schedule for that same time run after them,
// and so on (as SystemC's delta cycles would order SC_THREADs woken by an
// SC_METHOD).
//
// One SystemC activation runs every action due at its time and then, while
// nothing else is pending in the SystemC kernel before them (kernel::horizon()),
// the actions and processes of the next times too: they could not have run
// otherwise. With kernel::exact(true), one activation per time.
//
// A SystemC process (a test's) that an action wakes runs after the model's
// processes of that time, with the model's clock possibly ahead of SystemC's:
// it must schedule what it does through the queue (at()), never by waiting
// for SystemC time; actions notify SystemC events only at once (notify()),
// never for later.
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/action.h"
#include "sim/kernel.h"
#include "sim/process.h"
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

    // Runs `f` (an action, or what one is built from) at absolute simulated
    // time `when` (not before now).
    template <class F>
    void at(duration when, std::uint64_t rank, const F& f) {
        at(when, rank, m_seq++, f);
    }
    // A place in the same-time order, taken now for an action that may be
    // scheduled later (or never): at(when, rank, order, f) then runs it
    // where it would have run had it been scheduled now.
    std::uint64_t reserve_order() { return m_seq++; }
    template <class F>
    void at(duration when, std::uint64_t rank, std::uint64_t order, const F& f) {
        if constexpr (std::is_same_v<F, action>)
            place(when, rank, order) = f;
        else
            place(when, rank, order).set(f);
    }
    std::size_t pending() const { return m_q.size(); }

    // Runs `p` after the actions of the current time (once, however often
    // readied); readied while elaborating, it starts at time 0, in that order.
    void ready(process& p);
    // The waiter of `s`, if any, is ready.
    void notify(signal& s) {
        if (s.waiter) ready(*std::exchange(s.waiter, nullptr));
    }
    // From a process: waits until `s` is notified.
    static void wait(signal& s) {
        s.waiter = process::current();
        process::suspend();
    }

    // The earliest time at which anything may happen besides the calling
    // process: now if another process is ready, else the earliest action, or
    // kernel::horizon(). A process may run ahead to any time before it.
    duration horizon() const;

private:
    struct key {
        std::uint64_t fs, rank, seq;
        std::uint32_t slot;  // into m_actions
    };
    struct later {
        bool operator()(const key& x, const key& y) const {
            if (x.fs != y.fs) return x.fs > y.fs;
            if (x.rank != y.rank) return x.rank > y.rank;
            return x.seq > y.seq;
        }
    };
    // The pending actions' keys sorted latest first, so that the next one is
    // at the back: it is taken in O(1), and a new action, mostly due soon
    // (a message's next hop), is placed by a short scan from the back (far
    // ones: timer ticks, sleeping cores, stay at the front untouched).
    class sorted_keys {
    public:
        void push(const key& k) {
            std::size_t i = m_v.size();
            m_v.push_back(k);
            while (i > 0 && later()(k, m_v[i - 1])) {
                m_v[i] = m_v[i - 1];
                --i;
            }
            m_v[i] = k;
        }
        const key& top() const { return m_v.back(); }
        void pop() { m_v.pop_back(); }
        bool empty() const { return m_v.empty(); }
        std::size_t size() const { return m_v.size(); }

    private:
        std::vector<key> m_v;
    };
    // Counts the SystemC processes: the scheduler's own alone, no action can
    // make another runnable, and fire() need not ask the kernel after each.
    void start_of_simulation() override;
    // A new action's place in the pool, its key queued (the caller fills it).
    __attribute__((always_inline)) action& place(duration when, std::uint64_t rank, std::uint64_t seq) {
        if (when.fs < kernel::now().fs) past();
        std::uint32_t slot;
        if (m_free.empty()) {
            slot = static_cast<std::uint32_t>(m_actions.size());
            m_actions.emplace_back();
        } else {
            slot = m_free.back();
            m_free.pop_back();
        }
        m_q.push({when.fs, rank, seq, slot});
        if (!m_firing) arm();
        return m_actions[slot];
    }
    [[noreturn]] static void past();
    void fire();
    void arm();
    // The actions of time t and the processes they make ready (inline in fire(), its
    // caller at nearly every action: most actions have a time of their own).
    __attribute__((always_inline)) inline void run_time(std::uint64_t t);

    sorted_keys m_q;
    std::vector<action> m_actions;                           // by slot
    std::vector<std::uint32_t> m_free;                       // free slots
    std::deque<process*> m_ready;
    sc_core::sc_event m_event;
    std::uint64_t m_seq = 0;
    std::uint64_t m_armed_fs = ~std::uint64_t{0};
    bool m_firing = false;  // in fire(): actions' at() calls do not arm
    bool m_alone = false;   // no SystemC process but fire() (see start_of_simulation)
    duration m_outside;     // in fire(): kernel::horizon() when it began
};

namespace kernel {
// The process's scheduler, created on first use (during elaboration).
event_queue& queue();
}  // namespace kernel

}  // namespace cohsim

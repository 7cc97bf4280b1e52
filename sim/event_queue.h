// A timed queue of actions run by one SC_METHOD: one SystemC event per
// distinct time at which something happens, however many messages fall due
// then. Actions due at the same time run in the order of their `rank` (the
// caller's deterministic tie-break, e.g. message class then agent), then of
// scheduling, so the outcome never depends on the host's process order.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "sim/units.h"

namespace cohsim {

class event_queue : public sc_core::sc_module {
public:
    using action = std::function<void()>;
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

    std::priority_queue<item, std::vector<item>, later> m_q;
    sc_core::sc_event m_event;
    std::uint64_t m_seq = 0;
    std::uint64_t m_armed_fs = ~std::uint64_t{0};
};

}  // namespace cohsim

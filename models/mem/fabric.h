// What the coherence controllers (each L1's and the home) share: the message
// queue and its same-time order, the message routes, each other, the
// functional memory, the per-cell transition counts, the observers, and the
// checks every controller runs after a state change. The memory system owns
// it and the components it names; this is only the meeting point.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/coherence_protocol.h"
#include "models/mem/access.h"
#include "sim/event_queue.h"
#include "sim/observer.h"

namespace cohsim {

class delivery;
class functional_memory;
class l1_cache;

// Same-time ordering of messages: sim/event_queue.h's `phase` and `rank`.

// How often each protocol-table cell was executed: cache controllers (all
// L1s together) and the home.
struct transition_counts {
    protocol::cache_counts cache{};
    protocol::home_counts home{};
};

// A request on its way to, or waiting at, the point of serialisation.
struct request_msg {
    unsigned agent;
    protocol::request r;
    std::uint64_t line;
    bool at_ic;  // reached the interconnect (else: at the requester's SCU)
    duration arrived;
    bool far = false;        // a far atomic: served at the L3 or the interconnect, no copy for the requester
    bool at_l3 = false;      // reached its DSU's L3 (a far atomic) or its mesh home node (dsu.h)
    bool exclusive = false;  // a store-exclusive's upgrade (fails if the copy is lost meanwhile)
};

// What the home asks of an L1's coherence controller (l1_controller.h), and
// what the other L1s see of it. An interface so that either side can be
// tested alone between mock neighbours.
class l1_port {
public:
    virtual ~l1_port() = default;
    virtual const l1_cache& state() const = 0;
    virtual void snoop(protocol::snoop s, std::uint64_t line) = 0;
    virtual void grant(protocol::grant g, std::uint64_t line) = 0;
    virtual void exclusive_failed(std::uint64_t line) = 0;
    virtual void put_ack(std::uint64_t line) = 0;
    // A far atomic on `line` performs now (at the home); its result reaches the core at `at`.
    virtual void far_result(std::uint64_t line, duration at) = 0;
    // This core's reservation of `line` was cleared (another core wrote it).
    virtual void reservation_lost(std::uint64_t line) = 0;
};

// What an L1's controller asks of the home (home.h).
class home_port {
public:
    virtual ~home_port() = default;
    // A request reaches the point of serialisation (an SCU or the interconnect).
    virtual void arrive(request_msg m) = 0;
    // An L1 of cluster `k` answered a snoop for `line`.
    virtual void snoop_answered(unsigned k, unsigned agent, std::uint64_t line, bool data, bool dirty) = 0;
    // The requester's Unblock reaches the home's side.
    virtual void unblock(std::uint64_t line) = 0;
    // The requester `agent` of cluster `k` sends its Unblock for `line`,
    // leaving its SCU at `left`: unblock() runs when it reaches the home's
    // side (across the interconnect, and a mesh's way to its gateway, when
    // the transaction is served there), as an action of phase::response.
    virtual void send_unblock(unsigned agent, unsigned k, std::uint64_t line, duration left) = 0;
    virtual void count_snoop(std::uint64_t line) = 0;
    // The order of simultaneous requests from different cores.
    virtual std::uint64_t arbitration_key(unsigned agent) const = 0;
};

struct fabric {
    event_queue* q = nullptr;
    delivery* net = nullptr;
    functional_memory* data = nullptr;
    std::vector<l1_port*> l1s;    // by agent
    std::vector<l1_cache*> states;  // their state, by agent (scanned on a write while a monitor is armed: no virtual call)
    unsigned armed_monitors = 0;    // the L1s' exclusive monitors now armed (exclusive_monitor::tally_into)
    home_port* point = nullptr;  // the point of serialisation of every line
    transition_counts counts;
    observers obs;
    // By cluster: its LSE atomics go to the home, the interconnect
    // (interconnect.far_atomics) or its DSU's L3 (dsus.<d>.far_atomics).
    std::vector<char> far_atomics;
    bool checking = false;  // single-writer / multiple-readers after every L1 state change

    // A cache-controller cell about to be executed, counted.
    const protocol::cache_cell& cache_cell(protocol::cstate s, protocol::cevent e) {
        ++counts.cache[static_cast<std::size_t>(s)][static_cast<std::size_t>(e)];
        return protocol::cache_transition(s, e);
    }

    bool explaining(std::uint64_t line) const { return obs.explain && obs.explain->wants(line); }
    void explain(std::uint64_t line, const std::string& text) const;
    // The trace's line tracks: every L1's state of a traced line, now.
    void trace_line(std::uint64_t line) const {
        if (obs.trace) trace_states(line);
    }
    // After an L1 state change: the trace, and (when checking) single writer / many readers.
    void check_line(std::uint64_t line) const {
        trace_line(line);
        if (checking) check_writers(line);
    }
    void trace_states(std::uint64_t line) const;
    void check_writers(std::uint64_t line) const;
    [[noreturn]] void protocol_error(const std::string& what) const;
};

// The access as the core's instruction ("LDXR", "CAS"), for --explain.
const char* op_name(const mem_request& r);

}  // namespace cohsim

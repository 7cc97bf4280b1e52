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
class home;
class l1_controller;

// Same-time ordering of messages: finish things first, then snoops, then
// new requests; within a class, by the key (an agent or a cluster).
enum class phase : std::uint64_t { response = 0, snoop = 1, request = 2 };
constexpr std::uint64_t rank(phase p, std::uint64_t key) { return (static_cast<std::uint64_t>(p) << 40) | key; }

// How often each protocol-table cell was executed: cache controllers (all
// L1s together) and the home.
struct transition_counts {
    protocol::cache_counts cache{};
    protocol::home_counts home{};
};

struct fabric {
    event_queue* q = nullptr;
    delivery* net = nullptr;
    functional_memory* data = nullptr;
    std::vector<l1_controller*> l1s;  // by agent
    home* point = nullptr;            // the point of serialisation of every line
    transition_counts counts;
    observers obs;
    bool far_atomics = false;  // LSE atomics go to the home (interconnect.far_atomics)
    bool checking = false;  // single-writer / multiple-readers after every L1 state change

    // A cache-controller cell about to be executed, counted.
    const protocol::cache_cell& cache_cell(protocol::cstate s, protocol::cevent e);

    bool explaining(std::uint64_t line) const { return obs.explain && obs.explain->wants(line); }
    void explain(std::uint64_t line, const std::string& text) const;
    // The trace's line tracks: every L1's state of a traced line, now.
    void trace_line(std::uint64_t line) const;
    // After an L1 state change: the trace, and (when checking) single writer / many readers.
    void check_line(std::uint64_t line) const;
    [[noreturn]] void protocol_error(const std::string& what) const;
};

// The access as the core's instruction ("LDXR", "CAS"), for --explain.
std::string op_name(const mem_request& r);

}  // namespace cohsim

// What a core asks of the memory system, and what it gets back.
#pragma once

#include <cstdint>

#include "sim/action.h"
#include "sim/units.h"

namespace cohsim {

// The LSE read-modify-writes (Armv8.1): LDADD, SWP, LDSET, CAS, LDCLR, LDEOR,
// LDSMAX, LDSMIN, LDUMAX, LDUMIN (and their ST aliases).
enum class atomic_op { add, swp, set, cas, clr, eor, smax, smin, umax, umin };

struct mem_request {
    // zero_line: DC ZVA, the whole line at addr (aligned, line_bytes) written with zeros.
    enum kind_t { load, store, load_exclusive, store_exclusive, atomic, prefetch_unique, zero_line } kind = load;
    std::uint64_t addr = 0;
    // 1, 2, 4 or 8 bytes, naturally aligned; 16 for the 64-bit pairs (LDXP,
    // STXP, CASP): two 8-byte halves in one access, the high half at addr + 8.
    unsigned size = 8;
    std::uint64_t value = 0;    // store data, atomic operand, CAS new value
    std::uint64_t compare = 0;  // CAS expected value
    std::uint64_t value_hi = 0, compare_hi = 0;  // a 16-byte access's high halves
    atomic_op op = atomic_op::add;
};

struct mem_response {
    std::uint64_t value = 0;  // loaded / old value
    bool success = true;      // store-exclusive outcome
    duration done;            // when the core may use it
    std::uint64_t value_hi = 0;  // a 16-byte access's high half
};

// What runs when an access completes, with its response (plain-data captures:
// sim/action.h).
using access_done = basic_action<const mem_response&>;

// What the memory system asks of a core.
struct core_port {
    virtual ~core_port() = default;
    virtual void monitor_cleared() = 0;  // raises this core's WFE event
    virtual bool asleep() const = 0;      // in WFE (for --explain)
};

constexpr std::uint64_t line_bytes = 64;
constexpr std::uint64_t line_of(std::uint64_t a) { return a & ~(line_bytes - 1); }

inline bool is_write(const mem_request& r) {
    return r.kind == mem_request::store || r.kind == mem_request::store_exclusive || r.kind == mem_request::atomic ||
           r.kind == mem_request::zero_line;
}

}  // namespace cohsim

// A core's private L1 data cache: its tag array with each line's coherence
// state, the evicted lines waiting for their Put_Ack, the core's exclusive
// monitor, the accesses in flight, and the L1's counters.
//
// Modelled: set-associative, LRU, 64-byte lines; a hit costs
// `l1.hit_latency` core cycles; an evicted line waits in a writeback buffer
// until its Put is acknowledged, so the new line can be filled at once; at
// most one access in flight per line, at most `max_outstanding` lines. A
// miss whose set has no way to give up (every way waits for its own miss)
// waits until one of them completes, then starts again (way_stalls).
// Not modelled: data values (the functional memory holds them), ECC,
// prefetchers, banking, the fill buffer's own capacity.
// The coherence controller that drives this state through the protocol
// tables is l1_controller.h.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/cache_array.h"
#include "models/coherence_protocol.h"
#include "models/exclusive_monitor.h"
#include "models/mem/access.h"
#include "sim/schema.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

struct l1_params {
    byte_size size{32 * 1024};
    std::uint32_t ways = 4;
    cycles hit_latency{3};
    bool prefetch_store = true;  // PRFM PST* fetches a missing line unique (false: the hint is dropped)
    cycles standby_snoop_latency{0};  // a snoop to a core asleep in WFE waits this long for its clocks
    static void describe(cfg::struct_schema<l1_params>& s);
};

struct exclusive_params {
    byte_size granule{64};
    bool load_unique = false;  // LDXR asks for the line Unique (else Shared)
    cycles hold_window{0};
    bool evict_clears = true;
    static void describe(cfg::struct_schema<exclusive_params>& s);
};

// Most accesses one L1 may have in flight (each to a different line).
constexpr unsigned max_outstanding = 16;

struct l1_line {
    protocol::cstate st = protocol::cstate::I;
};

class l1_cache {
public:
    using cstate = protocol::cstate;
    using cevent = protocol::cevent;
    std::string core;  // the core's id ("little.2"), for messages and the trace
    unsigned agent, cluster;
    cache_array<l1_line> array;
    std::map<std::uint64_t, cstate> wb;  // lines waiting for Put_Ack
    exclusive_monitor mon;
    duration armed_at;
    core_port* port = nullptr;
    l1_params p;
    exclusive_params ex;

    // The accesses in flight: at most one per line, as many lines as the
    // core allows misses outstanding (the core enforces both).
    struct op {
        bool active = false;
        duration issued_at;
        mem_request req;
        cevent ev = cevent::Load;
        access_done done;
        bool waiting_for_way = false;  // its set had no way to give up (every one in transition)
        bool missed = false;       // for the trace: it went to the home
        std::string what;          // its request and line
        std::uint64_t flow = 0;    // its request's flow arrow
    };
    std::vector<op> ops = std::vector<op>(max_outstanding);
    unsigned active_ops = 0;  // how many of ops are active (the scans stop when all are seen)
    op* op_for(std::uint64_t line) {
        unsigned seen = 0;
        for (auto& o : ops) {
            if (seen == active_ops) break;
            if (!o.active) continue;
            if (line_of(o.req.addr) == line) return &o;
            ++seen;
        }
        return nullptr;
    }

    stat_group stats;
    counter loads{stats, "loads", "loads, exclusive loads and prefetches"};
    counter stores{stats, "stores", "stores, store-exclusives, atomics and line zeroings (DC ZVA)"};
    counter hits{stats, "hits", "accesses that hit with enough permission"};
    counter misses{stats, "misses", "accesses that needed the home (GetS, GetM or upgrade)"};
    counter upgrades{stats, "upgrades", "misses that only needed permission (S or O to unique)"};
    counter snoops{stats, "snoops", "snoops received"};
    counter snoops_fwd_gets{stats, "snoops_fwd_gets", "snoops for another core's read (Fwd_GetS)"};
    counter snoops_fwd_getm{stats, "snoops_fwd_getm", "snoops for another core's write, to the owner (Fwd_GetM)"};
    counter snoops_inv{stats, "snoops_inv", "invalidations for another core's write, to sharers (Inv; to the owner too for a full-line write, MakeU)"};
    counter lines_lost{stats, "lines_lost", "lines taken away by another core's write"};
    counter writebacks{stats, "writebacks", "evictions (PutS/PutE/PutO/PutM)"};
    counter stxr_success{stats, "stxr_success", "store-exclusives that wrote"};
    counter stxr_fail{stats, "stxr_fail", "store-exclusives that failed"};
    counter stxr_fail_at_home{stats, "stxr_fail_at_home",
                              "of those, upgrades failed by the home: the copy was lost on the way"};
    counter cas_success{stats, "cas_success", "LSE compare-and-swaps that found the expected value and wrote"};
    counter cas_fail{stats, "cas_fail", "LSE compare-and-swaps that found another value"};
    counter reservation_losses{stats, "reservation_losses", "reservations cleared by another observer or eviction"};
    counter held_snoops{stats, "held_snoops", "snoops delayed by the exclusive hold window"};
    counter standby_snoops{stats, "standby_snoops", "snoops that waited for the clocks of this core, asleep in WFE"};
    counter way_stalls{stats, "way_stalls",
                       "misses that waited for a way: every way of their set was waiting for its own miss"};
    // Accesses waiting for a way, in the order they stalled.
    std::vector<op*> way_waiters;

    l1_cache(unsigned a, unsigned c, const std::string& name, const l1_params& l1, const exclusive_params& excl)
        : core(name), agent(a), cluster(c),
          array(cache_geometry{l1.size.bytes, l1.ways, static_cast<std::uint32_t>(line_bytes)}),
          mon(excl.granule.bytes), p(l1), ex(excl), stats(name + ".l1") {}

    cstate state_of(std::uint64_t line) const {
        if (auto* e = array.find(line)) return e->payload.st;
        return evicting_state(line);
    }
    // The state of a line that has no way in the array: in the writeback
    // buffer, or I.
    cstate evicting_state(std::uint64_t line) const {
        if (wb.empty()) return cstate::I;
        auto it = wb.find(line);
        return it == wb.end() ? cstate::I : it->second;
    }

};

}  // namespace cohsim

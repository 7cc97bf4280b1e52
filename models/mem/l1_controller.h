// The coherence controller of one L1: runs the cache-controller table of
// coherence_protocol.h for the accesses of its core, the snoops and grants
// from the home, and its own evictions, and performs each access in the
// functional memory at the instant the protocol lets it.
//
// Modelled:
//   - an access meets its line's state: a hit completes `l1.hit_latency`
//     core cycles after it was issued; a miss allocates a way (evicting the
//     LRU stable line through a Put) and sends GetS, GetM or an upgrade to
//     the home; an access to a line being evicted waits for the Put_Ack;
//   - a grant makes the line stable, unblocks the home and replays the
//     access, which then hits and performs at the grant's arrival;
//   - a snoop changes the line's state and answers with or without data; a
//     core holding a fresh reservation on the line keeps the snoop waiting
//     until `exclusive.hold_window` cycles after its exclusive load; a
//     snoop that finds the core asleep in WFE waits `l1.standby_snoop_latency`
//     cycles (from the cluster's next edge) while the core's clocks are
//     enabled to serve it (the core stays asleep: a snoop is not a wake-up
//     event, only what it does to the monitor is);
//   - the exclusive monitor: set by an exclusive load, cleared by another
//     core's write to the granule, by the line being taken away, and (with
//     `exclusive.evict_clears`) by its eviction; every clearing raises the
//     core's WFE event; a store-exclusive without a reservation fails at
//     once, and one whose upgrade the home fails (Excl_Fail) takes nothing;
//   - LSE atomics near (a Store event: the line is taken unique) or far (sent
//     to the home, which performs them; the L1 keeps what it holds until
//     snooped);
//   - the 64-bit exclusive pairs (LDXP, STXP) and CASP as one 16-byte access
//     (both halves in one line, read or written at one instant, as the
//     architecture makes a successful pair single-copy atomic); timed as an
//     access of one line.
//   - a miss whose set has no way to give up (every way waits for its own
//     miss) waits until a grant, an Excl_Fail or a snoop changes one of
//     them, and then starts again (its lookup again from that moment).
// Not modelled: the L1's queueing beyond one access per line, ECC.
// Timing: see delivery.h for each hop; the L1 itself adds only its lookup.
#pragma once

#include <cstdint>
#include <string>

#include "models/mem/fabric.h"
#include "models/mem/l1_cache.h"

namespace cohsim {

class l1_controller : public l1_port {
public:
    l1_controller(fabric& f, unsigned agent, unsigned cluster, const std::string& core, const l1_params& l1,
                  const exclusive_params& ex)
        : m_f(f), m_c(agent, cluster, core, l1, ex) {
        m_c.mon.tally_into(&f.armed_monitors);
    }

    l1_cache& state() { return m_c; }
    const l1_cache& state() const override { return m_c; }

    // From the core: starts an access now; `done` runs once, when its result
    // is ready (before access() returns for a hit).
    void access(const mem_request& r, const access_done& done);

    // From the home.
    void snoop(protocol::snoop s, std::uint64_t line) override;
    void grant(protocol::grant g, std::uint64_t line) override;
    void exclusive_failed(std::uint64_t line) override;
    void put_ack(std::uint64_t line) override;
    // A far atomic on `line` performs now (at the home); its result reaches
    // the core at `at`.
    void far_result(std::uint64_t line, duration at) override;

    void reservation_lost(std::uint64_t line) override { lose_reservation(line); }

private:
    using op = l1_cache::op;
    // The core's access as a cache event in state `st`.
    static protocol::cevent event_in(const op& o, protocol::cstate st);
    void start(op& o, duration now);
    // Starts again the accesses that waited for a way (mostly none: inline).
    void retry_way_waiters() {
        if (!m_c.way_waiters.empty()) restart_way_waiters();
    }
    void restart_way_waiters();
    void finish(op& o, const mem_response& resp);
    cache_array<l1_line>::entry& fill_way(std::uint64_t line, duration now);
    void lose_reservation(std::uint64_t line);
    mem_response perform(const op& o, duration done_at);
    // A request leaves for the SCU `first` cycles after t's next edge (the
    // lookup's, for a miss), and reaches it scu.request_latency later.
    void send_request(protocol::request r, std::uint64_t line, duration t, cycles first = {});
    void snoop_now(protocol::snoop s, std::uint64_t line);
    void l1_error(std::uint64_t line, protocol::cstate st, protocol::cevent ev) const;

    fabric& m_f;
    l1_cache m_c;
};

}  // namespace cohsim

// The coherence protocol as a Murphi model (`cohsim protocol --murphi`), for
// an exhaustive check with a model checker (Debian's rumur).
//
// The model is generated from the tables the simulator executes
// (models/coherence_protocol.h): the cache controller's cells, the home's
// cells and its transaction (blocking) table are emitted as Murphi functions,
// cell by cell. Around them the model runs what the tables leave to the
// code, written once in Murphi in app/protocol_model.m (compiled into the
// binary), after the protocol-level random tester
// (tests/unit/protocol_random_test.cpp) and the simulator's controllers:
//   - N caches (a scalarset, so symmetric states are explored once), L lines
//     of G reservation granules, each granule holding one of 2 values;
//   - per cache three FIFO channels (requests to the home, snoop answers and
//     unblocks to the home, snoops and grants to the cache), each delivered
//     at any moment: every interleaving of message delays is explored;
//   - the home's records (owner, sharers), its per-line blocking with the
//     waiting requests in arrival order, snoop counting, broadcast snoops;
//   - the core: loads, stores, load-/store-exclusives (LDXR fetching Shared
//     or Unique), PRFM PST, full-line writes (DC ZVA: from I a MakeU, whose
//     grant brings no data), evictions and CLREX on any line and granule,
//     one access outstanding per line;
//   - with far atomics (--far-atomics: interconnect.far_atomics, a DSU's or a
//     mesh's), an atomic on a line the cache cannot write goes to the home
//     as a GetM that snoops every copy, the requester's own included; the
//     home performs it on the line's last value (memory's or the owner's
//     answer), memory keeps the result, nobody caches the line, and the old
//     value returns to the requester (home::far_result); the line is free at
//     once, with no unblock;
//   - the exclusive monitor as the protocol alone keeps it: armed by an
//     LDXR, opened by any STXR, CLREX, an eviction of its line, or a snoop
//     that takes the line away. (The simulator also clears every other
//     monitor on the granule when a write performs; the model leaves that
//     out, so it checks the stronger claim that the protocol suffices.)
// Properties: single writer / multiple readers; every readable copy holds the
// last value written; a load reads it; memory holds it when no cache owns the
// line dirty and nothing is in flight; the home's records match its state; a
// store-exclusive succeeds only if no other observer wrote its granule since
// its load-exclusive (a far atomic is such a write); a far atomic reads the
// last value written, and performs only once no cache can read the line; no message arrives at a cell the tables call
// impossible; no channel overflows; and from every reachable state all
// messages can drain (no deadlock, no livelock: a rumur liveness property).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/coherence_protocol.h"

namespace cohsim {

struct murphi_options {
    int caches = 3;
    int lines = 2;
    int granules = 1;        // reservation granules per line
    bool broadcast = false;  // CCI-400-style broadcast snoops instead of a snoop filter
    bool far_atomics = false;  // LSE atomics on a line the cache cannot write performed at the home
    // Cache-table cells replaced (to show what the model checker finds when a
    // cell is wrong): `protocol --murphi --mutate cache:S:Inv=S+snp_ack`.
    std::map<std::pair<protocol::cstate, protocol::cevent>, protocol::cache_cell> cache_overrides;
};

// Parses a --mutate text "cache:STATE:EVENT=NEXT[+ACTION...]" (or
// "=stall", "=impossible") into `o`; throws std::invalid_argument saying
// what is wrong and what would be right.
void add_mutation(murphi_options& o, const std::string& text);

// The model as Murphi source text.
std::string murphi_model(const murphi_options& o);

// app/protocol_model.m: the model's part that the tables leave to code,
// appended after the generated declarations and tables.
extern const char* const murphi_machinery;

}  // namespace cohsim

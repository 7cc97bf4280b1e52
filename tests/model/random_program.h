// The random program tester: a seeded random platform (1 to 3 clusters of
// 1 to 3 cores of any core type and clock; L1s direct
// mapped to 4-way, 1 KiB to 16 KiB; 1 to 8 outstanding misses; store buffers of 0 to 4;
// snoop filter or broadcast, near or far atomics, a second socket or a DSU,
// LDXR reading unique or shared, a hold window, the interconnect looking
// waiting requests up at once or not) runs a seeded random
// instruction stream on every core: plain loads of every size, several in
// flight at once (load_async), plain and release stores of every size,
// LDXR/STXR increments, LDADD, CAS loops, SWP, barriers, WFE/SEV/SEVL,
// prefetches, line zeroings (DC ZVA) and compute, over a handful of lines that all fall in one L1 set
// on every geometry (4 KiB apart), each shared by several cores word by word.
//
// Checked, besides "no exception" (a protocol error or a stuck access is
// one) and every core finishing its stream (every access completes):
//  - single writer / multiple readers on every L1 state change
//    (memory_system::check_invariants);
//  - data values against a sequential reference per location: each core
//    owns one 8-byte word in each of three shared lines and is its only
//    writer, so every load of its own word (any size, blocking or in flight)
//    must return the reference's bytes, and memory must end equal to it;
//    each counter word is only incremented (LDXR/STXR, LDADD, CAS), so every
//    read of it must not go backwards and it must end at the number of
//    increments; the swap word must end holding a value some core swapped in;
//    in the zeroed line each core stores to its own word and any core zeroes
//    the whole line, so a read of its own word returns its last value or 0
//    (0 right after its own DC ZVA), and memory ends holding one of them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "platform_fixture.h"
#include "stress.h"

namespace cohsim::testing {

struct random_program_result {
    std::string platform;  // the --set overrides, for the failure message
    std::string failure;
    unsigned cores = 0, finished = 0;
    std::uint64_t instructions = 0, way_stalls = 0;
};

// The platform of `seed` as config overrides on test_platform().
// Its clusters are named c0, c1, ...; `n_clusters` says how many.
inline std::vector<std::string> random_platform(std::uint64_t seed, unsigned& n_cores, unsigned& n_clusters) {
    std::mt19937_64 rng(seed * 7919 + 1);
    auto pick = [&](auto... v) {
        const std::vector<std::string> c{v...};
        return c[rng() % c.size()];
    };
    n_clusters = 1 + static_cast<unsigned>(rng() % 3);
    const bool dsu = n_clusters > 1 && rng() % 3 == 0;
    const bool sockets = n_clusters > 1 && !dsu && rng() % 3 == 0;
    std::vector<std::string> sets;
    std::string clusters = "clusters={";
    n_cores = 0;
    for (unsigned k = 0; k < n_clusters; ++k) {
        const unsigned cores = std::min(1 + static_cast<unsigned>(rng() % 3), 8 - n_cores);  // at most 8: a word each
        n_cores += cores;
        clusters += (k ? ", c" : "c") + std::to_string(k) + ": {freq: " + pick("600MHz", "1GHz", "1.8GHz", "2.4GHz") +
                    ", cores: " + std::to_string(cores) + ", core: " + pick("cortex-a53", "cortex-a55", "cortex-a73", "cortex-a75") +
                    "}";
    }
    sets.push_back(clusters + "}");
    for (unsigned k = 0; k < n_clusters; ++k) {
        const std::string c = "clusters.c" + std::to_string(k);
        const unsigned ways = 1u << (rng() % 3), lines_per_way = 16u << (rng() % 3);  // 1..4 ways, 16..64 sets
        sets.push_back(c + ".l1={size: " + std::to_string(ways * lines_per_way * 64) + "B, ways: " + std::to_string(ways) +
                       ", hit_latency: " + std::to_string(2 + rng() % 3) + "cycles}");
        sets.push_back(c + ".l2={size: 16KiB, ways: 4, latency: " + std::to_string(4 + rng() % 12) + "cycles}");
        sets.push_back(c + ".timing.outstanding_misses=" + std::to_string(1 + rng() % 8));
        sets.push_back(c + ".timing.store_buffer=" + std::to_string(rng() % 5));
        sets.push_back(c + ".exclusive.load_unique=" + pick("true", "false"));
        sets.push_back(c + ".exclusive.hold_window=" + pick("0cycles", "0cycles", "12cycles", "30cycles"));
        if (sockets && k == n_clusters - 1) sets.push_back(c + ".socket=1");
        if (dsu) sets.push_back(c + ".dsu=d0");
    }
    if (dsu) sets.push_back("dsus={d0: {freq: 1.2GHz, l3: {size: 64KiB, ways: 4, latency: 20cycles}}}");
    sets.push_back("interconnect.snoop_filter=" + pick("true", "false"));
    sets.push_back("interconnect.far_atomics=" + pick("true", "false"));
    sets.push_back("interconnect.arbitration=" + pick("fifo", "round_robin", "fixed_priority"));
    sets.push_back("interconnect.overlapped_lookup=" + pick("true", "false"));  // drawn last: the earlier draws unchanged
    sets.push_back("interconnect.wait_at_interconnect=" + pick("true", "false"));  // (these two after it, likewise)
    sets.push_back("interconnect.ack_latency=" + pick("1cycle", "4cycles", "9cycles"));
    for (unsigned k = 0; k < n_clusters; ++k)  // (after them too)
        sets.push_back("clusters.c" + std::to_string(k) + ".l1.standby_snoop_latency=" + pick("0cycles", "7cycles", "40cycles"));
    sets.push_back("timer.event_stream=true");  // a WFE nobody signals still wakes
    return sets;
}

inline random_program_result run_random_program(std::uint64_t seed, unsigned ops_per_core,
                                                const std::vector<std::string>& extra = {}) {
    random_program_result res;
    unsigned n_clusters = 0;
    std::vector<std::string> sets = random_platform(seed, res.cores, n_clusters);
    sets.insert(sets.end(), extra.begin(), extra.end());
    for (const auto& s : sets) res.platform += " --set '" + s + "'";
    system_model sys(test_platform(sets));
    sys.memory().check_invariants(true);
    res.cores = static_cast<unsigned>(sys.cores().size());

    // Lines 4 KiB apart share set 0 of every L1 here (at most 64 sets of 64 B).
    constexpr std::uint64_t base = 0x20000;
    auto line = [](unsigned i) { return base + i * 4096; };
    auto own = [&](unsigned agent, unsigned l) { return line(l) + (agent % 8) * 8; };  // lines 0..2
    constexpr unsigned n_counters = 8;
    auto counter = [&](unsigned k) { return line(3 + k / 4) + (k % 4) * 8; };  // lines 3, 4
    auto counter_size = [](unsigned k) { return k % 2 ? 4u : 8u; };
    const std::uint64_t swap_word = line(5);
    auto zeroed = [&](unsigned agent) { return line(6) + (agent % 8) * 8; };  // line 6: DC ZVA's
    std::vector<std::uint64_t> zero_last(sys.cores().size(), 0);  // each core's last store to its zeroed-line word
    std::vector<std::uint64_t> increments(n_counters, 0);
    std::set<std::uint64_t> swapped_in{0};
    // Each core's reference copy of its own three words.
    std::vector<std::vector<std::uint8_t>> ref(sys.cores().size(), std::vector<std::uint8_t>(24, 0));
    auto ref_value = [&](unsigned agent, std::uint64_t addr, unsigned size) {
        const unsigned l = static_cast<unsigned>((addr - base) / 4096), off = static_cast<unsigned>(addr % 8);
        std::uint64_t v = 0;
        std::memcpy(&v, &ref[agent][l * 8 + off], size);
        return v;
    };
    auto ref_store = [&](unsigned agent, std::uint64_t addr, std::uint64_t v, unsigned size) {
        const unsigned l = static_cast<unsigned>((addr - base) / 4096), off = static_cast<unsigned>(addr % 8);
        std::memcpy(&ref[agent][l * 8 + off], &v, size);
    };

    for (const auto& cp : sys.cores()) {
        core* cptr = const_cast<core*>(cp.get());
        cptr->set_program([&, ops_per_core](core& c) {
            std::mt19937_64 rng(seed * 1'000'003 + c.agent());
            const unsigned me = c.agent();
            std::vector<std::uint64_t> seen(n_counters, 0);
            auto fail = [&](const std::string& what) {
                if (res.failure.empty()) res.failure = c.id() + ": " + what;
            };
            auto size_at = [&](unsigned& off) {  // a size and an aligned offset within an 8-byte word
                const unsigned size = 1u << (rng() % 4);
                off = static_cast<unsigned>(rng() % (8 / size)) * size;
                return size;
            };
            for (unsigned i = 0; i < ops_per_core && res.failure.empty(); ++i) {
                const unsigned what = static_cast<unsigned>(rng() % 16);
                try {
                    if (what < 3) {  // loads in flight at once: own words (checked), others', counters
                        struct pending { unsigned ticket; std::uint64_t addr; unsigned size; int kind; unsigned k; };
                        std::vector<pending> p;
                        const unsigned n = 1 + static_cast<unsigned>(rng() % 6);
                        for (unsigned j = 0; j < n; ++j) {
                            unsigned off = 0;
                            const int kind = static_cast<int>(rng() % 3);
                            if (kind == 0) {
                                const unsigned size = size_at(off);
                                const std::uint64_t a = own(me, static_cast<unsigned>(rng() % 3)) + off;
                                p.push_back({c.load_async(a, size), a, size, 0, 0});
                            } else if (kind == 1) {
                                const unsigned k = static_cast<unsigned>(rng() % n_counters);
                                p.push_back({c.load_async(counter(k), counter_size(k)), counter(k), counter_size(k), 1, k});
                            } else {
                                const unsigned size = size_at(off);
                                const std::uint64_t a = line(static_cast<unsigned>(rng() % 6)) + (rng() % 8) * 8 + off;
                                p.push_back({c.load_async(a, size), a, size, 2, 0});
                            }
                            ++res.instructions;
                        }
                        for (const auto& x : p) {
                            const std::uint64_t v = c.load_result(x.ticket);
                            if (x.kind == 0 && v != ref_value(me, x.addr, x.size))
                                fail("a load of its own word at " + std::to_string(x.addr) + " (" + std::to_string(x.size) +
                                     " bytes) read " + std::to_string(v) + ", expected " + std::to_string(ref_value(me, x.addr, x.size)));
                            if (x.kind == 1) {
                                if (v < seen[x.k]) fail("counter " + std::to_string(x.k) + " went backwards");
                                seen[x.k] = std::max(seen[x.k], v);
                            }
                        }
                    } else if (what < 6) {  // a plain or release store to its own word, then maybe a blocking read back
                        unsigned off = 0;
                        const unsigned size = size_at(off);
                        const std::uint64_t a = own(me, static_cast<unsigned>(rng() % 3)) + off;
                        const std::uint64_t v = rng() & (size == 8 ? ~0ULL : (1ULL << (8 * size)) - 1);
                        c.store(a, v, size, rng() % 4 == 0);
                        ref_store(me, a, v, size);
                        ++res.instructions;
                        if (rng() % 2) {
                            const std::uint64_t got = c.load(a, size);
                            ++res.instructions;
                            if (got != v) fail("read back " + std::to_string(got) + " after storing " + std::to_string(v));
                        }
                    } else if (what < 8) {  // LDXR/STXR increment
                        const unsigned k = static_cast<unsigned>(rng() % n_counters);
                        std::uint64_t v;
                        do {
                            v = c.load_exclusive(counter(k), counter_size(k));
                            res.instructions += 2;
                        } while (!c.store_exclusive(counter(k), v + 1, counter_size(k)));
                        if (v < seen[k]) fail("counter " + std::to_string(k) + " went backwards (LDXR)");
                        seen[k] = v + 1;
                        ++increments[k];
                    } else if (what < 10) {  // LDADD
                        const unsigned k = static_cast<unsigned>(rng() % n_counters);
                        const std::uint64_t v = c.atomic(atomic_op::add, counter(k), 1, counter_size(k));
                        ++res.instructions;
                        if (v < seen[k]) fail("counter " + std::to_string(k) + " went backwards (LDADD)");
                        seen[k] = v + 1;
                        ++increments[k];
                    } else if (what < 11) {  // CAS loop
                        const unsigned k = static_cast<unsigned>(rng() % n_counters);
                        std::uint64_t v = c.load(counter(k), counter_size(k)), old;
                        ++res.instructions;
                        while ((old = c.atomic(atomic_op::cas, counter(k), v + 1, counter_size(k), v)) != v) {
                            v = old;
                            ++res.instructions;
                        }
                        ++res.instructions;
                        seen[k] = std::max(seen[k], v + 1);
                        ++increments[k];
                    } else if (what < 12) {  // SWP of a value unique to this core and step
                        const std::uint64_t v = (std::uint64_t{me + 1} << 32) | i;
                        swapped_in.insert(v);
                        const std::uint64_t old = c.atomic(atomic_op::swp, swap_word, v, 8);
                        ++res.instructions;
                        if (!swapped_in.count(old)) fail("SWP returned " + std::to_string(old) + ", which no core swapped in");
                    } else if (what < 13) {
                        c.barrier();
                        ++res.instructions;
                    } else if (what < 14) {  // WFE: SEVL then WFE falls through; a bare WFE waits for an event
                        if (rng() % 2) c.sevl();
                        c.wfe();
                        ++res.instructions;
                    } else if (what < 15) {
                        const unsigned k = static_cast<unsigned>(rng() % 4);
                        if (k == 0) c.sev();
                        else if (k == 1) c.prefetch_store(line(static_cast<unsigned>(rng() % 7)));
                        else if (k == 2) {  // DC ZVA of the zeroed line, then its own word reads 0
                            c.zero_line(line(6) + (rng() % 64));
                            zero_last[me] = 0;
                            if (c.load(zeroed(me)) != 0) fail("its own word reads non-zero right after its DC ZVA");
                            res.instructions += 2;
                        } else {  // a store to its word in the zeroed line, and a read: that value or 0
                            const std::uint64_t v = rng() | 1;
                            c.store(zeroed(me), v);
                            zero_last[me] = v;
                            const std::uint64_t got = c.load(zeroed(me));
                            if (got != v && got != 0) fail("its word in the zeroed line reads " + std::to_string(got));
                            res.instructions += 2;
                        }
                        ++res.instructions;
                    } else {
                        c.work(cycles{rng() % 40});
                        ++res.instructions;
                    }
                } catch (const std::exception& e) {
                    fail(e.what());
                }
            }
            c.sev();  // a core still in WFE waiting for this one's event
            ++res.finished;
        });
    }
    try {
        run_until_done(res.finished, res.cores);
    } catch (const std::exception& e) {
        if (res.failure.empty()) res.failure = e.what();
    }
    if (res.failure.empty() && res.finished != res.cores)
        res.failure = std::to_string(res.cores - res.finished) + " cores never finished (an access that never completes)";
    for (unsigned k = 0; k < n_counters && res.failure.empty(); ++k)
        if (sys.memory().peek(counter(k), counter_size(k)) != increments[k])
            res.failure = "counter " + std::to_string(k) + " is " + std::to_string(sys.memory().peek(counter(k), counter_size(k))) +
                          " after " + std::to_string(increments[k]) + " increments";
    for (unsigned a = 0; a < res.cores && res.failure.empty(); ++a)
        for (unsigned l = 0; l < 3; ++l)
            if (sys.memory().peek(own(a, l), 8) != ref_value(a, own(a, l), 8))
                res.failure = "core " + std::to_string(a) + "'s word in line " + std::to_string(l) + " ends at " +
                              std::to_string(sys.memory().peek(own(a, l), 8)) + ", its reference at " +
                              std::to_string(ref_value(a, own(a, l), 8));
    for (unsigned a = 0; a < res.cores && res.failure.empty(); ++a) {
        const std::uint64_t v = sys.memory().peek(zeroed(a), 8);
        if (v != 0 && v != zero_last[a])
            res.failure = "core " + std::to_string(a) + "'s word in the zeroed line ends at " + std::to_string(v) +
                          ", neither 0 nor its last store " + std::to_string(zero_last[a]);
    }
    if (res.failure.empty() && !swapped_in.count(sys.memory().peek(swap_word, 8)))
        res.failure = "the swap word ends at a value no core swapped in";
    for (const stat_group* g : sys.memory().stat_groups()) {
        const auto s = group_stats(*g);
        if (auto it = s.counters.find("way_stalls"); it != s.counters.end()) res.way_stalls += it->second;
    }
    return res;
}

}  // namespace cohsim::testing

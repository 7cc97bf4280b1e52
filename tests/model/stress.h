// Helpers for the stress tests (coherence_stress_test.cpp, soak_test.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>
#include <map>
#include <random>
#include <string>

#include "platform_fixture.h"

namespace cohsim::testing {

// Runs the simulation in slices until `finished` reaches `want` or 10 s of
// simulated time pass.
inline void run_until_done(const unsigned& finished, unsigned want) {
    for (int i = 0; i < 10'000 && finished < want; ++i) run_for_fs(1'000'000'000'000ULL);
}

// Lost update: every core of the platform (`sets` applied to the test
// platform: 2 + 2 cores unless they say otherwise) makes `per_core`
// increments of one counter, by LDXR/STXR loops (`llsc`) or LDADD. The
// counter must end at cores x per_core and the old values the increments saw
// must be exactly {0 .. cores x per_core - 1}.
constexpr std::uint64_t counter_addr = 0x4000;
inline void lost_update(bool llsc, unsigned per_core, const std::vector<std::string>& sets = {}) {
    system_model sys(test_platform(sets));
    sys.memory().check_invariants(true);
    std::vector<std::uint64_t> olds;
    unsigned finished = 0;
    const auto n = static_cast<unsigned>(sys.cores().size());
    for (const auto& cp : sys.cores()) {
        const_cast<core*>(cp.get())->set_program([&, llsc, per_core](core& c) {
            for (unsigned i = 0; i < per_core; ++i) {
                if (llsc) {
                    std::uint64_t v;
                    do {
                        v = c.load_exclusive(counter_addr);
                    } while (!c.store_exclusive(counter_addr, v + 1));
                    olds.push_back(v);
                } else {
                    olds.push_back(c.atomic(atomic_op::add, counter_addr, 1));
                }
                c.work(cycles{20});
            }
            ++finished;
        });
    }
    run_until_done(finished, n);
    ASSERT_EQ(finished, n) << "a core never finished: deadlock or livelock";
    EXPECT_EQ(sys.memory().peek(counter_addr, 8), std::uint64_t{n} * per_core);
    std::sort(olds.begin(), olds.end());
    std::vector<std::uint64_t> expect(std::size_t{n} * per_core);
    std::iota(expect.begin(), expect.end(), 0);
    EXPECT_EQ(olds, expect);
}

struct random_result {
    std::string failure;
    unsigned finished = 0;
    std::uint64_t ops = 0;
    memory_system::transition_counts transitions;  // the protocol cells the run executed
};

// 4 + 4 cores, 1 KiB 2-way L1s, 16 KiB L2s; 6 counters packed two to a line
// on 3 lines, plus conflict lines that force evictions. With `plain_stores`,
// some of the conflict loads become plain stores of each core's own count to
// its own word of one shared line (false sharing), each followed by a read
// of it: the core must read its own latest write, and the line must end
// with every core's last.
inline random_result run_random_tester(unsigned ops_per_core, std::uint64_t seed,
                                       const std::vector<std::string>& extra = {}, bool plain_stores = false) {
    std::vector<std::string> sets = {"clusters.little.cores=4", "clusters.big.cores=4",  // `extra` may change them
                                     "clusters.little.l1={size: 1KiB, ways: 2, hit_latency: 3cycles}",
                                     "clusters.big.l1={size: 1KiB, ways: 2, hit_latency: 3cycles}",
                                     "clusters.little.l2={size: 16KiB, ways: 4, latency: 6cycles}",
                                     "clusters.big.l2={size: 16KiB, ways: 4, latency: 14cycles}"};
    sets.insert(sets.end(), extra.begin(), extra.end());
    system_model sys(test_platform(sets));
    sys.memory().check_invariants(true);
    random_result res;
    constexpr unsigned n_counters = 6;
    auto addr = [](unsigned i) { return 0x8000 + (i / 2) * 64 + (i % 2) * 8; };
    std::vector<std::uint64_t> increments(n_counters, 0);
    std::vector<std::uint64_t> written(sys.cores().size(), 0);
    auto own = [](unsigned agent) { return 0x9000 + agent * 8; };  // 8 cores: one line
    for (const auto& cp : sys.cores()) {
        core* cptr = const_cast<core*>(cp.get());
        const std::uint64_t core_seed = seed * 1000 + cptr->agent();
        cptr->set_program([&, core_seed, ops_per_core](core& c) {
            std::mt19937_64 rng(core_seed);
            std::vector<std::uint64_t> seen(n_counters, 0);
            for (unsigned i = 0; i < ops_per_core && res.failure.empty(); ++i) {
                const unsigned k = static_cast<unsigned>(rng() % n_counters);
                const unsigned what = static_cast<unsigned>(rng() % 10);
                try {
                    if (what < 3) {
                        const std::uint64_t v = c.load(addr(k));
                        if (v < seen[k]) res.failure = "a read went backwards on counter " + std::to_string(k);
                        seen[k] = v;
                    } else if (what < 6) {
                        std::uint64_t v;
                        do {
                            v = c.load_exclusive(addr(k));
                        } while (!c.store_exclusive(addr(k), v + 1));
                        ++increments[k];
                    } else if (what < 8) {
                        c.atomic(atomic_op::add, addr(k), 1);
                        ++increments[k];
                    } else if (what < 9) {
                        std::uint64_t v = c.load(addr(k));
                        while (c.atomic(atomic_op::cas, addr(k), v + 1, 8, v) != v) v = c.load(addr(k));
                        ++increments[k];
                    } else if (plain_stores && (rng() & 1)) {
                        c.store(own(c.agent()), ++written[c.agent()]);
                        c.work(cycles{rng() % 20});
                        c.store(own(c.agent()), ++written[c.agent()]);  // a second store to the line in flight
                        // A plain load (forwarded from the buffer when the store is in flight), then a blocking one.
                        if (c.load_result(c.load_async(own(c.agent()))) != written[c.agent()] ||
                            c.load(own(c.agent())) != written[c.agent()])
                            res.failure = "core " + c.id() + " did not read its own last store";
                    } else {
                        c.load(0x10000 + (rng() % 64) * 512);  // conflict misses: evictions
                    }
                } catch (const std::exception& e) {
                    res.failure = e.what();
                }
                ++res.ops;
                c.work(cycles{rng() % 50});
            }
            ++res.finished;
        });
    }
    try {
        run_until_done(res.finished, static_cast<unsigned>(sys.cores().size()));
    } catch (const std::exception& e) {
        res.failure = e.what();
    }
    for (unsigned k = 0; k < n_counters && res.failure.empty(); ++k)
        if (sys.memory().peek(addr(k), 8) != increments[k])
            res.failure = "counter " + std::to_string(k) + " is " + std::to_string(sys.memory().peek(addr(k), 8)) +
                          " after " + std::to_string(increments[k]) + " increments";
    for (unsigned a = 0; a < written.size() && res.failure.empty(); ++a)
        if (sys.memory().peek(own(a), 8) != written[a])
            res.failure = "core " + std::to_string(a) + "'s word is " + std::to_string(sys.memory().peek(own(a), 8)) +
                          " after its last store of " + std::to_string(written[a]);
    res.transitions = sys.memory().transitions();
    return res;
}

}  // namespace cohsim::testing

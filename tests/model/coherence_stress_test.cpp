// Whole-system checks that a protocol or timing bug would break:
//  - lost update: K cores x L increments of one counter, by LDXR/STXR loops
//    and by LDADD, end at exactly K*L, and the old values the increments
//    returned are exactly {0 .. K*L-1};
//  - a random tester: many cores, few lines with false sharing, tiny caches,
//    random delays; single-writer/multiple-reader is checked on every L1
//    state change, reads never go backwards, and every counter ends at the
//    number of increments made. A core that never finishes is a deadlock.
// Each runs twice: accelerated (the default) and exact (run.exact: the
// reference timing, no running ahead): the checks must hold both ways.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "platform_fixture.h"
#include "stress.h"

using namespace cohsim;
using namespace cohsim::testing;

namespace {

// Accelerated (false) and exact (true).
class BothWays : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override { exact_runs() = GetParam(); }
};
using LostUpdate = BothWays;
using RandomTester = BothWays;
std::string way(const ::testing::TestParamInfo<bool>& i) { return i.param ? "Exact" : "Accelerated"; }

}  // namespace

TEST_P(LostUpdate, LoadExclusiveStoreExclusive) { lost_update(true, 500); }
TEST_P(LostUpdate, Ldadd) { lost_update(false, 500); }

TEST_P(RandomTester, DynamiqTopology) {
    // The other topologies and options, each exercised by the same checks.
    const auto r = run_random_tester(6'000, 7,
                                     {"dsus={dsu0: {freq: 1.2GHz, l3: {size: 64KiB, ways: 4, latency: 20cycles}}}",
                                      "clusters.little.dsu=dsu0", "clusters.big.dsu=dsu0"});
    EXPECT_EQ(r.failure, "");
    EXPECT_EQ(r.finished, 8u);
}

TEST_P(RandomTester, DynamiqFarAtomicsAtTheL3OverlappedLookup) {
    const auto r = run_random_tester(6'000, 9,
                                     {"dsus={dsu0: {freq: 1.2GHz, far_atomics: true, overlapped_lookup: true, snoop_latency: 5cycles, "
                                      "transfer_latency: 3cycles, l3: {size: 64KiB, ways: 4, latency: 20cycles}}}",
                                      "clusters.little.dsu=dsu0", "clusters.big.dsu=dsu0"});
    EXPECT_EQ(r.failure, "");
    EXPECT_EQ(r.finished, 8u);
}

TEST_P(RandomTester, SnoopFilterFarAtomicsTwoSocketsHoldWindow) {
    const auto r = run_random_tester(6'000, 8,
                                     {"interconnect.snoop_filter=true", "interconnect.far_atomics=true",
                                      "clusters.big.socket=1", "clusters.little.exclusive.hold_window=30cycles",
                                      "clusters.big.exclusive.load_unique=true", "interconnect.arbitration=round_robin"});
    EXPECT_EQ(r.failure, "");
    EXPECT_EQ(r.finished, 8u);
}

TEST_P(RandomTester, EightCoresFalseSharingTinyCaches) {
    const auto r = run_random_tester(12'500, 1);
    EXPECT_EQ(r.failure, "");
    EXPECT_EQ(r.finished, 8u);
    EXPECT_GE(r.ops, 100'000u);
}

TEST_P(RandomTester, StoreBuffersWithPlainStores) {
    // Buffered plain stores to a falsely shared line among the RMW traffic:
    // every invariant still holds, each core reads its own writes, and the
    // line ends with each core's last store.
    const auto r = run_random_tester(6'000, 3, {"clusters.little.timing.store_buffer=4", "clusters.big.timing.store_buffer=2"}, true);
    EXPECT_EQ(r.failure, "");
    EXPECT_EQ(r.finished, 8u);
}

// Four cores add 1 300 times each with far atomics: no update lost, each old
// value seen once, and (no core ever holds the line) every add performed far,
// at least `at_l3` of them in the DSU's L3.
void far_ldadd(std::vector<std::string> sets, std::uint64_t at_l3) {
    system_model sys(test_platform(sets));
    std::vector<std::uint64_t> olds;
    unsigned finished = 0;
    for (const char* id : {"little.0", "little.1", "big.0", "big.1"})
        sys.find_core(id)->set_program([&](core& c) {
            for (int i = 0; i < 300; ++i) olds.push_back(c.atomic(atomic_op::add, counter_addr, 1));
            ++finished;
        });
    run_until_done(finished, 4);
    ASSERT_EQ(finished, 4u);
    EXPECT_EQ(sys.memory().peek(counter_addr, 8), 1200u);
    std::sort(olds.begin(), olds.end());
    for (std::uint64_t i = 0; i < olds.size(); ++i) ASSERT_EQ(olds[i], i);
    std::uint64_t far = 0, l3 = 0;
    for (const stat_group* g : sys.memory().stat_groups()) {
        if (g->name() == "interconnect") far += counter_of(*g, "far_atomics");
        if (g->name() == "dsu0.l3") l3 = counter_of(*g, "far_atomics");
    }
    EXPECT_EQ(far + l3, 1200u);
    EXPECT_GE(l3, at_l3);
}

TEST_P(LostUpdate, FarLdadd) { far_ldadd({"interconnect.far_atomics=true"}, 0); }
TEST_P(LostUpdate, FarLdaddAtTheL3) {
    far_ldadd({"dsus={dsu0: {freq: 1.2GHz, far_atomics: true, l3: {size: 64KiB, ways: 4, latency: 20cycles}}}",
               "clusters.little.dsu=dsu0", "clusters.big.dsu=dsu0"},
              1100);  // all but the first few, which fetch the line through the interconnect
}

TEST_P(LostUpdate, TwoSocketsLlsc) {
    system_model sys(test_platform({"clusters.big.socket=1"}));
    sys.memory().check_invariants(true);
    unsigned finished = 0;
    for (const char* id : {"little.0", "little.1", "big.0", "big.1"})
        sys.find_core(id)->set_program([&](core& c) {
            for (int i = 0; i < 300; ++i) {
                std::uint64_t v;
                do {
                    v = c.load_exclusive(counter_addr + 64);  // homed on socket 1
                } while (!c.store_exclusive(counter_addr + 64, v + 1));
            }
            ++finished;
        });
    run_until_done(finished, 4);
    ASSERT_EQ(finished, 4u);
    EXPECT_EQ(sys.memory().peek(counter_addr + 64, 8), 1200u);
}

INSTANTIATE_TEST_SUITE_P(, LostUpdate, ::testing::Bool(), way);
INSTANTIATE_TEST_SUITE_P(, RandomTester, ::testing::Bool(), way);

namespace {
// big.0 takes line A first; little.1 then little.0 (later) queue behind it at
// the interconnect. Returns the value left by the last writer.
std::uint64_t last_writer(const char* policy) {
    system_model sys(test_platform({std::string("interconnect.arbitration=") + policy}));
    sys.find_core("big.0")->set_program([](core& c) { c.store(counter_addr, 100); });
    sys.find_core("little.1")->set_program([](core& c) { c.store(counter_addr, 1); });
    sys.find_core("little.0")->set_program([](core& c) {
        c.work(cycles{20});  // arrives after little.1
        c.store(counter_addr, 0);
    });
    run_for_fs(100'000'000'000ULL);
    return sys.memory().peek(counter_addr, 8);
}
}  // namespace

// FIFO serves little.1 (earlier) before little.0: little.0 writes last.
TEST(Arbitration, FifoServesInArrivalOrder) { EXPECT_EQ(last_writer("fifo"), 0u); }
// Fixed priority serves core 0 first whatever the arrival: little.1 writes last.
TEST(Arbitration, FixedPriorityServesTheLowerCoreFirst) { EXPECT_EQ(last_writer("fixed_priority"), 1u); }

// The printed protocol table is the one the simulator runs: every cell the
// random tester drives appears in `cohsim protocol` as an executable
// cell (never "—") with its count, and the run drives a good part of the table.
TEST(ProtocolTable, EveryDrivenCellIsPrintedAsExecutable) {
    const auto r = run_random_tester(3000, 11, {"interconnect.far_atomics=false"});
    ASSERT_EQ(r.failure, "");
    const std::string md = protocol::cache_table_markdown(&r.transitions.cache);
    std::size_t driven = 0, possible = 0;
    for (std::size_t s = 0; s < r.transitions.cache.size(); ++s)
        for (std::size_t e = 0; e < r.transitions.cache[s].size(); ++e) {
            const auto& cell = protocol::cache_transition(static_cast<protocol::cstate>(s), static_cast<protocol::cevent>(e));
            possible += cell.kind != protocol::outcome::impossible;
            if (!r.transitions.cache[s][e]) continue;
            ++driven;
            EXPECT_NE(cell.kind, protocol::outcome::impossible)
                << protocol::name(static_cast<protocol::cstate>(s)) << " x " << protocol::name(static_cast<protocol::cevent>(e));
            // The count is printed in that cell.
            const std::string printed = protocol::cell_text(cell) + " ×" + std::to_string(r.transitions.cache[s][e]);
            EXPECT_NE(md.find("| " + printed + " |"), std::string::npos) << printed;
        }
    EXPECT_GT(driven, possible / 3) << driven << " of " << possible;  // the protocol-level tester reaches them all
    for (std::size_t s = 0; s < r.transitions.home.size(); ++s)
        for (std::size_t e = 0; e < r.transitions.home[s].size(); ++e) {
            if (r.transitions.home[s][e]) {
                EXPECT_NE(protocol::home_transition(static_cast<protocol::hstate>(s), static_cast<protocol::hevent>(e)).kind,
                          protocol::outcome::impossible);
            }
        }
}

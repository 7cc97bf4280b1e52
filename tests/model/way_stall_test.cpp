// More accesses in flight to one set than it has ways: the L1 makes the
// extra misses wait for a way instead of stopping the run ("no way to
// evict"), on the platforms and settings that used to crash.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "platform_fixture.h"

using namespace cohsim;
using namespace cohsim::testing;

namespace {
constexpr std::uint64_t base = 0x10000000;
constexpr std::uint64_t us = 1'000'000'000;

std::uint64_t l1_counter(const system_model& sys, const std::string& group, const std::string& name) {
    for (const stat_group* g : sys.memory().stat_groups())
        if (g->name() == group) return group_stats(*g).counters[name];
    return ~0ULL;
}
}  // namespace

TEST(WayStall, FiveLoadsToOneFourWaySetAllComplete) {
    // A 32 KiB 4-way L1 (128 sets): lines 8 KiB apart share a set. Eight
    // loads may be in flight (the A75 preset); five go out at once.
    system_model sys(test_platform({"clusters.big.core=cortex-a75", "clusters.big.l1={size: 32KiB, ways: 4, hit_latency: 3cycles}"}));
    for (int i = 0; i < 5; ++i) sys.memory().poke(base + i * 8192, 8, 100 + i);
    std::vector<std::uint64_t> got;
    sys.find_core("big.0")->set_program([&](core& c) {
        std::vector<unsigned> tickets;
        for (int i = 0; i < 5; ++i) tickets.push_back(c.load_async(base + i * 8192));
        for (unsigned t : tickets) got.push_back(c.load_result(t));
    });
    run_for_fs(50 * us);
    ASSERT_EQ(got.size(), 5u);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(got[i], 100u + i);
    EXPECT_EQ(l1_counter(sys, "big.0.l1", "way_stalls"), 1u);  // the fifth waited
}

TEST(WayStall, BufferedStoresToOneDirectMappedSetAllPerform) {
    system_model sys(test_platform({"clusters.little.l1={size: 1KiB, ways: 1, hit_latency: 3cycles}",
                                    "clusters.little.timing.store_buffer=2"}));
    sys.find_core("little.0")->set_program([](core& c) {
        c.store(base, 7);
        c.store(base + 1024, 8);
        c.barrier();  // waits for both
    });
    run_for_fs(50 * us);
    EXPECT_EQ(sys.memory().peek(base, 8), 7u);
    EXPECT_EQ(sys.memory().peek(base + 1024, 8), 8u);
    EXPECT_EQ(l1_counter(sys, "little.0.l1", "way_stalls"), 1u);
}

TEST(WayStall, TwoOutstandingLoadsToOneDirectMappedSet) {
    system_model sys(test_platform({"clusters.little.l1={size: 1KiB, ways: 1, hit_latency: 3cycles}",
                                    "clusters.little.timing.outstanding_misses=2"}));
    sys.memory().poke(base + 1024, 8, 5);
    std::uint64_t v = 0;
    sys.find_core("little.0")->set_program([&](core& c) {
        const unsigned a = c.load_async(base);
        const unsigned b = c.load_async(base + 1024);
        c.load_result(a);
        v = c.load_result(b);
    });
    run_for_fs(50 * us);
    EXPECT_EQ(v, 5u);
    EXPECT_EQ(l1_counter(sys, "little.0.l1", "way_stalls"), 1u);
}

// Exact cycles: the second miss to a direct-mapped set starts when the first
// completes (its way frees as the data arrives), so it completes one solo
// miss later, less the one issue cycle of its ldr, which it spent while
// waiting. The oracle is the same model's solo miss to another set, measured
// first in the same run (issue cycle + miss): in little.0's cycles (832 MHz,
// a period of 1201923.08 fs, so times are compared after rounding to cycles),
// t(a) = t(solo) and t(b) = 2 t(solo) - 1.
TEST(WayStall, TheWaitingMissStartsTheCycleTheWayFrees) {
    system_model sys(test_platform({"clusters.little.l1={size: 1KiB, ways: 1, hit_latency: 3cycles}",
                                    "clusters.little.timing.outstanding_misses=2"}));
    std::uint64_t solo = 0, first = 0, second = 0, waits_before = ~0ULL;
    sys.find_core("little.0")->set_program([&](core& c) {
        std::uint64_t t = c.local_time().fs;
        c.load_result(c.load_async(base + 512));  // set 8 of 16, alone
        solo = c.local_time().fs - t;
        waits_before = l1_counter(sys, "little.0.l1", "way_stalls");
        t = c.local_time().fs;
        const unsigned a = c.load_async(base);         // set 0
        const unsigned b = c.load_async(base + 1024);  // set 0 too: waits for a's way
        c.load_result(a);
        first = c.local_time().fs - t;
        c.load_result(b);
        second = c.local_time().fs - t;
    });
    run_for_fs(50 * us);
    ASSERT_GT(solo, 0u);
    EXPECT_EQ(waits_before, 0u);
    EXPECT_EQ(l1_counter(sys, "little.0.l1", "way_stalls"), 1u);
    const auto cycles = [](std::uint64_t fs) { return std::llround(static_cast<double>(fs) * 832e6 / 1e15); };
    EXPECT_EQ(cycles(first), cycles(solo));           // the first miss is not slowed by the one waiting behind it
    EXPECT_EQ(cycles(second), 2 * cycles(solo) - 1);  // the second: a whole miss after the way frees, its issue hidden
}

// The store buffer (clusters.<c>.timing.store_buffer): a store is issued and
// the core goes on; stores perform in the background, a later store that
// hits may perform before an earlier one that missed (Armv8 allows it), a
// store-release waits for everything before it, a full buffer stalls, and
// the core always reads its own writes. Values are checked in the functional
// memory at chosen instants; times exactly where they are the core's own.
#include <gtest/gtest.h>

#include "platform_fixture.h"

using namespace cohsim;
using namespace cohsim::testing;

namespace {
constexpr std::uint64_t D = 0x1000, F = 0x2000;  // data and flag, one line each
constexpr std::uint64_t us = 1'000'000'000ULL, ns = 1'000'000ULL;  // fs

// big.0 owns D (Modified) and little.0 owns F (Modified) from early on;
// at ~5 us little.0 stores D (a cross-cluster miss) and then F (a hit).
struct message_passing {
    system_model sys;
    duration issued, after_both;
    explicit message_passing(bool release, unsigned entries)
        : sys(test_platform({"clusters.little.timing.store_buffer=" + std::to_string(entries)})) {
        sys.find_core("big.0")->set_program([](core& c) { c.store(D, 9); });
        sys.find_core("little.0")->set_program([this, release](core& c) {
            c.store(F, 5);
            while (c.local_time().fs < 5 * us) c.work(cycles{1});  // issued within a cycle (1.2 ns) of 5 us
            issued = c.local_time();
            c.store(D, 1);
            c.store(F, 1, 8, release);
            after_both = c.local_time();
        });
    }
};
}  // namespace

TEST(StoreBuffer, ALaterHitPerformsBeforeAnEarlierMiss) {
    message_passing mp(false, 2);
    run_for_fs(5 * us + 30 * ns);
    ASSERT_GE(mp.issued.fs, 5 * us);
    ASSERT_LT(mp.issued.fs, 5 * us + 2 * ns);  // the probe comes 28 ns after the stores' issue
    EXPECT_EQ(mp.after_both.fs, mp.issued.fs);  // neither store held the core up
    EXPECT_EQ(mp.sys.memory().peek(F, 8), 1u);  // the flag is out ...
    EXPECT_EQ(mp.sys.memory().peek(D, 8), 9u);  // ... before the data: no barrier, no order
    run_for_fs(2 * us);
    EXPECT_EQ(mp.sys.memory().peek(D, 8), 1u);
    const group_stats g(mp.sys.find_core("little.0")->stats());
    EXPECT_EQ(g.counters.at("stores_buffered"), 3u);
    EXPECT_EQ(g.counters.at("store_buffer_full"), 0u);
}

TEST(StoreBuffer, AStoreReleaseWaitsForTheStoresBeforeIt) {
    message_passing mp(true, 2);
    run_for_fs(5 * us + 30 * ns);
    ASSERT_GE(mp.issued.fs, 5 * us);
    ASSERT_LT(mp.issued.fs, 5 * us + 2 * ns);  // the probe comes 28 ns after the stores' issue
    EXPECT_EQ(mp.sys.memory().peek(D, 8), 9u);  // the data miss is still on its way
    EXPECT_EQ(mp.sys.memory().peek(F, 8), 5u);  // so the release has not been issued
    run_for_fs(2 * us);
    EXPECT_EQ(mp.sys.memory().peek(D, 8), 1u);
    EXPECT_EQ(mp.sys.memory().peek(F, 8), 1u);
    // The core waited for the data store: at least a cross-cluster transfer
    // (four interconnect hops of 26-27 cycles at 533 MHz, ~197 ns).
    EXPECT_GT(mp.after_both.fs, mp.issued.fs + 150 * ns);
}

TEST(StoreBuffer, WithoutABufferStoresCompleteInOrder) {
    message_passing mp(false, 0);
    run_for_fs(5 * us + 30 * ns);
    ASSERT_GE(mp.issued.fs, 5 * us);
    ASSERT_LT(mp.issued.fs, 5 * us + 2 * ns);  // the probe comes 28 ns after the stores' issue
    EXPECT_EQ(mp.sys.memory().peek(F, 8), 5u);
    run_for_fs(2 * us);
    EXPECT_EQ(mp.sys.memory().peek(F, 8), 1u);
    EXPECT_GT(mp.after_both.fs, mp.issued.fs + 150 * ns);
    EXPECT_EQ(group_stats(mp.sys.find_core("little.0")->stats()).counters.at("stores_buffered"), 0u);
}

TEST(StoreBuffer, TheCoreGoesOnThenReadsItsOwnWrite) {
    system_model sys(test_platform({"clusters.little.timing.store_buffer=1"}));
    duration t0, t1, t2;
    std::uint64_t seen = 0;
    sys.find_core("big.0")->set_program([](core& c) { c.store(D, 9); });
    sys.find_core("little.0")->set_program([&](core& c) {
        c.work(cycles{4000});
        t0 = c.local_time();
        c.store(D, 7);      // a miss: big.0 has the line
        c.work(cycles{100});
        t1 = c.local_time();
        seen = c.load(D);   // waits for its own store, then hits
        t2 = c.local_time();
    });
    run_for_fs(20 * us);
    // 100 cycles of compute right after the store, exactly.
    EXPECT_EQ(t1.fs, sys.find_core("little.0")->clock().edge_after(t0, cycles{100}).fs);
    EXPECT_EQ(seen, 7u);
    EXPECT_GT(t2.fs, t0.fs + 150 * ns);  // the load waited for the store's miss
}

TEST(StoreBuffer, AFullBufferStalls) {
    system_model sys(test_platform({"clusters.little.timing.store_buffer=1"}));
    duration t0, t1;
    sys.find_core("big.0")->set_program([](core& c) {
        c.store(D, 9);
        c.store(F, 9);
    });
    sys.find_core("little.0")->set_program([&](core& c) {
        c.work(cycles{4000});
        t0 = c.local_time();
        c.store(D, 1);  // both miss; the second waits for the only entry
        c.store(F, 1);
        t1 = c.local_time();
    });
    run_for_fs(20 * us);
    EXPECT_GT(t1.fs, t0.fs + 150 * ns);
    const group_stats g(sys.find_core("little.0")->stats());
    EXPECT_EQ(g.counters.at("stores_buffered"), 2u);
    EXPECT_EQ(g.counters.at("store_buffer_full"), 1u);
    EXPECT_EQ(sys.memory().peek(D, 8), 1u);
    EXPECT_EQ(sys.memory().peek(F, 8), 1u);
}

TEST(StoreBuffer, APlainLoadTakesItsBytesFromAStoreInFlight) {
    // Store-to-load forwarding: a load the store wholly covers gets the bytes
    // in l1.hit_latency (3 cycles here) without waiting for the store's miss;
    // a load reaching past the store waits for it.
    system_model sys(test_platform({"clusters.little.timing.store_buffer=2"}));
    duration t0, t1, t2, t3;
    std::uint64_t whole = 0, part = 0, past = 0;
    sys.find_core("big.0")->set_program([](core& c) {
        c.store(D, 9);
        c.store(F, 9);
    });
    sys.find_core("little.0")->set_program([&](core& c) {
        c.work(cycles{4000});
        c.store(D, 0x1122334455667788ULL);  // misses: big.0 has the line
        t0 = c.local_time();
        whole = c.load_result(c.load_async(D, 8));
        t1 = c.local_time();
        part = c.load_result(c.load_async(D + 2, 2));  // bytes 2..3, little-endian
        c.store(F + 8, 0xabcd, 2);                      // misses too
        t2 = c.local_time();
        past = c.load_result(c.load_async(F + 8, 4));   // 4 bytes from a 2-byte store: waits
        t3 = c.local_time();
    });
    run_for_fs(20 * us);
    const clock_domain& clk = sys.find_core("little.0")->clock();
    EXPECT_EQ(whole, 0x1122334455667788ULL);
    EXPECT_EQ(t1.fs, clk.edge_after(t0, cycles{3}).fs);
    EXPECT_EQ(part, 0x5566u);
    EXPECT_EQ(past, 0xabcdu);
    EXPECT_GT(t3.fs, t2.fs + 150 * ns);
    EXPECT_EQ(group_stats(sys.find_core("little.0")->stats()).counters.at("loads_forwarded"), 2u);
}

// One test per monitor rule (see models/exclusive_monitor.h).
#include <gtest/gtest.h>

#include "models/exclusive_monitor.h"

using cohsim::exclusive_monitor;

TEST(ExclusiveMonitor, LoadExclusiveArmsTheGranule) {
    exclusive_monitor m;
    EXPECT_FALSE(m.armed());
    m.load_exclusive(0x1004);
    EXPECT_TRUE(m.holds(0x1000));
    EXPECT_TRUE(m.holds(0x103f));
    EXPECT_FALSE(m.holds(0x1040));
}

TEST(ExclusiveMonitor, StoreExclusiveSucceedsWhileTheReservationHolds) {
    exclusive_monitor m;
    m.load_exclusive(0x1000);
    EXPECT_TRUE(m.store_exclusive(0x1008));  // same 64-byte granule
}

TEST(ExclusiveMonitor, AnotherCoresStoreClears) {
    exclusive_monitor m;
    m.load_exclusive(0x1000);
    EXPECT_TRUE(m.other_write(0x1020));
    EXPECT_FALSE(m.store_exclusive(0x1000));
}

TEST(ExclusiveMonitor, AnotherCoresStoreElsewhereDoesNotClear) {
    exclusive_monitor m;
    m.load_exclusive(0x1000);
    EXPECT_FALSE(m.other_write(0x1040));
    EXPECT_TRUE(m.store_exclusive(0x1000));
}

// DC ZVA writes a whole line: with 16-byte granules a reservation at
// 0x1030 is cleared by the zeroing of 0x1000's line, not by a store to 0x1000,
// nor by the zeroing of the next line.
TEST(ExclusiveMonitor, AWholeLineWriteClearsEveryGranuleOfTheLine) {
    exclusive_monitor m(16);
    m.load_exclusive(0x1030);
    EXPECT_FALSE(m.other_write(0x1000));
    EXPECT_FALSE(m.other_write(0x1040, 64));
    EXPECT_TRUE(m.other_write(0x1000, 64));
    EXPECT_FALSE(m.store_exclusive(0x1030));
}

TEST(ExclusiveMonitor, OwnPlainStoreDoesNotClear) {
    // The core's own stores never reach its monitor as "other" writes: the
    // model calls other_write only for other observers. Nothing to call here,
    // so the reservation must still be there for the STXR.
    exclusive_monitor m;
    m.load_exclusive(0x2000);
    EXPECT_TRUE(m.store_exclusive(0x2000));
}

TEST(ExclusiveMonitor, StoreExclusiveToAnotherAddressFails) {
    exclusive_monitor m;
    m.load_exclusive(0x1000);
    EXPECT_FALSE(m.store_exclusive(0x2000));
    EXPECT_FALSE(m.armed());  // and the monitor is open afterwards
}

TEST(ExclusiveMonitor, SecondStoreExclusiveWithoutNewLoadFails) {
    exclusive_monitor m;
    m.load_exclusive(0x1000);
    EXPECT_TRUE(m.store_exclusive(0x1000));
    EXPECT_FALSE(m.store_exclusive(0x1000));
}

TEST(ExclusiveMonitor, NewLoadExclusiveMovesTheReservation) {
    exclusive_monitor m;
    m.load_exclusive(0x1000);
    m.load_exclusive(0x3000);
    EXPECT_FALSE(m.holds(0x1000));
    EXPECT_TRUE(m.store_exclusive(0x3000));
}

TEST(ExclusiveMonitor, LosingTheLineClears) {
    exclusive_monitor m;
    m.load_exclusive(0x1010);
    EXPECT_FALSE(m.line_lost(0x1040, 64));  // another line
    EXPECT_TRUE(m.armed());
    EXPECT_TRUE(m.line_lost(0x1000, 64));
    EXPECT_FALSE(m.store_exclusive(0x1010));
}

TEST(ExclusiveMonitor, ClrexOpens) {
    exclusive_monitor m;
    m.load_exclusive(0x1000);
    m.clrex();
    EXPECT_FALSE(m.store_exclusive(0x1000));
}

TEST(ExclusiveMonitor, GranuleIsConfigurable) {
    exclusive_monitor m(128);
    m.load_exclusive(0x1000);
    EXPECT_TRUE(m.holds(0x107f));
    EXPECT_TRUE(m.line_lost(0x1040, 64));  // the second line of a 128-byte granule
    EXPECT_THROW(exclusive_monitor(48), std::invalid_argument);
    EXPECT_THROW(exclusive_monitor(4), std::invalid_argument);
}

// The shared count of armed monitors follows every way a monitor arms and
// opens (a write asks the other cores' monitors only while it is above
// zero, so a miscount would let a write leave a reservation standing).
TEST(ExclusiveMonitor, TheSharedTallyCountsArmedMonitors) {
    unsigned armed = 0;
    exclusive_monitor a, b;
    a.tally_into(&armed);
    b.tally_into(&armed);
    a.load_exclusive(0x1000);
    EXPECT_EQ(armed, 1u);
    a.load_exclusive(0x2000);  // re-armed elsewhere: still one
    EXPECT_EQ(armed, 1u);
    b.load_exclusive(0x2000);
    EXPECT_EQ(armed, 2u);
    EXPECT_FALSE(b.other_write(0x3000));  // another granule: no change
    EXPECT_EQ(armed, 2u);
    EXPECT_TRUE(b.other_write(0x2008));
    EXPECT_EQ(armed, 1u);
    EXPECT_FALSE(b.other_write(0x2008));  // already open: no change
    EXPECT_FALSE(b.line_lost(0x2000, 64));
    b.clrex();
    EXPECT_EQ(armed, 1u);
    EXPECT_TRUE(a.store_exclusive(0x2000));
    EXPECT_EQ(armed, 0u);
    EXPECT_FALSE(a.store_exclusive(0x2000));  // a failing STXR on an open monitor
    EXPECT_EQ(armed, 0u);
    b.load_exclusive(0x40);
    EXPECT_TRUE(b.line_lost(0x40, 64));
    a.load_exclusive(0x80);
    a.clrex();
    EXPECT_EQ(armed, 0u);
}

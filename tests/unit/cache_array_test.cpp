#include <gtest/gtest.h>

#include "models/cache_array.h"

using namespace cohsim;

namespace {
struct payload {
    int tag = 0;
};
const auto any = [](const cache_array<payload>::entry&) { return true; };
}  // namespace

TEST(CacheArray, GeometryIsChecked) {
    EXPECT_EQ((cache_geometry{32 * 1024, 4, 64}.sets()), 128u);
    EXPECT_EQ((cache_geometry{32 * 1024, 4, 64}.problem()), "");
    EXPECT_NE((cache_geometry{48 * 1024, 4, 64}.problem()), "");  // 192 sets
    EXPECT_NE((cache_geometry{32 * 1024, 0, 64}.problem()), "");
    EXPECT_NE((cache_geometry{32 * 1024, 4, 48}.problem()), "");
    EXPECT_THROW(cache_array<payload>(cache_geometry{1000, 4, 64}), std::invalid_argument);
}

TEST(CacheArray, FindsWhatWasInstalledByLine) {
    cache_array<payload> a({1024, 2, 64});  // 8 sets
    EXPECT_EQ(a.find(0x1000), nullptr);
    auto* v = a.victim(0x1000, any);
    ASSERT_NE(v, nullptr);
    a.install(*v, 0x1008).payload.tag = 7;
    ASSERT_NE(a.find(0x1030), nullptr);  // same 64-byte line
    EXPECT_EQ(a.find(0x1030)->payload.tag, 7);
    EXPECT_EQ(a.find(0x1040), nullptr);
    EXPECT_EQ(a.set_of(0x1000), a.set_of(0x1000 + 8 * 64));  // 8 sets apart
}

TEST(CacheArray, EvictsTheLeastRecentlyUsedWay) {
    cache_array<payload> a({1024, 2, 64});
    const std::uint64_t x = 0x0, y = 0x200, z = 0x400;  // all in set 0
    a.install(*a.victim(x, any), x);
    a.install(*a.victim(y, any), y);
    a.touch(*a.find(x));  // y is now least recently used
    auto* v = a.victim(z, any);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->line, y);
    a.install(*v, z);
    EXPECT_NE(a.find(x), nullptr);
    EXPECT_EQ(a.find(y), nullptr);
}

TEST(CacheArray, VictimSkipsWaysThatMayNotBeEvicted) {
    cache_array<payload> a({1024, 2, 64});
    a.install(*a.victim(0x0, any), 0x0).payload.tag = 1;  // busy (e.g. transient)
    a.install(*a.victim(0x200, any), 0x200).payload.tag = 1;
    EXPECT_EQ(a.victim(0x400, [](const auto& e) { return e.payload.tag == 0; }), nullptr);
    a.find(0x200)->payload.tag = 0;
    EXPECT_EQ(a.victim(0x400, [](const auto& e) { return e.payload.tag == 0; })->line, 0x200u);
}

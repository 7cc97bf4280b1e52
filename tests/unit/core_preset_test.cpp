// The core presets: every core type has one row, its name parses, and the
// architecture gates LSE as the Arm architecture does (Armv8.1 and later).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "models/core.h"
#include "models/memory_system.h"

namespace cohsim {
namespace {

constexpr int last_type = static_cast<int>(core_type::neoverse_v2);

TEST(CorePresets, EveryCoreTypeHasOneRowWithItsOwnName) {
    std::set<std::string> names;
    for (int i = 0; i <= last_type; ++i) {
        const auto t = static_cast<core_type>(i);
        const core_preset& p = preset_of(t);
        EXPECT_EQ(p.type, t) << i;
        EXPECT_TRUE(names.insert(p.name).second) << p.name << " twice";
        EXPECT_GE(p.outstanding_misses, 1u) << p.name;
        EXPECT_LE(p.outstanding_misses, memory_system::max_outstanding) << p.name;
    }
    EXPECT_EQ(cfg::enum_names<core_type>::list().size(), names.size());
}

TEST(CorePresets, LseFromArmv81) {
    // By hand, from the cores' TRMs: Armv7 and Armv8.0 cores have only the
    // exclusives; every core from Armv8.1 on has CAS/LDADD/SWP.
    for (core_type t : {core_type::cortex_a7, core_type::cortex_a15, core_type::cortex_a53, core_type::cortex_a73})
        EXPECT_FALSE(has_lse(t)) << preset_of(t).name;
    for (core_type t : {core_type::cortex_a55, core_type::cortex_a75, core_type::thunderx2, core_type::cortex_a76,
                        core_type::cortex_a77, core_type::cortex_a78, core_type::cortex_x1, core_type::neoverse_n1,
                        core_type::cortex_a510, core_type::cortex_a710, core_type::cortex_x2, core_type::neoverse_v1,
                        core_type::neoverse_v2})
        EXPECT_TRUE(has_lse(t)) << preset_of(t).name;
    // LDAPR from Armv8.3, LDAPUR (FEAT_LRCPC2) from Armv8.4: the V1 (Armv8.4)
    // has both, the N1 (Armv8.2) only the first.
    EXPECT_TRUE(has_lrcpc2(core_type::neoverse_v1));
    EXPECT_TRUE(has_lrcpc2(core_type::neoverse_v2));
    EXPECT_FALSE(has_lrcpc2(core_type::neoverse_n1));
    EXPECT_TRUE(has_rcpc(core_type::neoverse_n1));
}

TEST(CorePresets, AnUnsetTimingTakesThePresetAndASetOneStays) {
    core_params p{};
    p.apply_preset(core_type::neoverse_n1);
    EXPECT_EQ(*p.outstanding_misses, preset_of(core_type::neoverse_n1).outstanding_misses);
    EXPECT_EQ(p.alu->n, 1u);
    core_params q{};
    q.outstanding_misses = 2;
    q.apply_preset(core_type::cortex_x2);
    EXPECT_EQ(*q.outstanding_misses, 2u);
}

}  // namespace
}  // namespace cohsim

// The random program tester (random_program.h), short: 40 random platforms,
// 4000 operations per core each, every check of the header. The long run
// is in soak_test.cpp (label "soak").
#include <gtest/gtest.h>

#include "random_program.h"

using namespace cohsim::testing;

class RandomProgram : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(RandomProgram, InvariantsAndDataHoldOnARandomPlatform) {
    const auto r = run_random_program(GetParam(), 4000);
    EXPECT_EQ(r.failure, "") << "platform:" << r.platform;
    EXPECT_EQ(r.finished, r.cores);
    EXPECT_GE(r.instructions, 4000u * r.cores);
    RecordProperty("instructions", std::to_string(r.instructions));
    RecordProperty("way_stalls", std::to_string(r.way_stalls));
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomProgram, ::testing::Range<std::uint64_t>(1, 41));

// The shape of the "no way to evict" crash on purpose: direct-mapped L1s and
// 8 loads in flight on every random platform of a few seeds. The extra
// misses must wait for a way (way_stalls counts them) and all checks hold.
class RandomProgramWayStalls : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(RandomProgramWayStalls, MoreMissesInFlightThanWays) {
    unsigned n_cores = 0, n_clusters = 0;
    random_platform(GetParam(), n_cores, n_clusters);
    std::vector<std::string> extra;
    for (unsigned k = 0; k < n_clusters; ++k)
        for (const char* s : {".l1={size: 1KiB, ways: 1, hit_latency: 3cycles}", ".timing.outstanding_misses=8"})
            extra.push_back("clusters.c" + std::to_string(k) + s);
    const auto r = run_random_program(GetParam(), 1500, extra);
    EXPECT_EQ(r.failure, "") << "platform:" << r.platform;
    EXPECT_GT(r.way_stalls, 0u) << "platform:" << r.platform;
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomProgramWayStalls, ::testing::Values(3, 4, 5));

// The same random platforms with every cluster under one coherent mesh
// (dsu.h, mesh.h): 2 cores to a crosspoint, a home node on every one, and
// the hop, link occupancy, direct transfer and far atomics at the home node
// varied by seed; every check of the header holds.
class RandomProgramOnAMesh : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(RandomProgramOnAMesh, InvariantsAndDataHold) {
    const std::uint64_t seed = GetParam();
    unsigned n_cores = 0, n_clusters = 0;
    random_platform(seed, n_cores, n_clusters);
    std::vector<std::string> extra = {
        "dsus={d0: {freq: 1.2GHz, snoop_latency: " + std::to_string(seed % 7) + "cycles, transfer_latency: " +
        std::to_string(seed % 5) + "cycles, l3: {size: 64KiB, ways: 4, latency: 20cycles}, mesh: {width: " +
        std::to_string(2 + seed % 2) + ", height: 2, cores_per_xp: 2, hop_latency: " + std::to_string(1 + seed % 3) +
        "cycles, link_occupancy: " + std::to_string(seed % 3) + "cycles, direct_transfer: " + (seed % 2 ? "true" : "false") +
        "}, far_atomics: " + (seed % 4 < 2 ? "true" : "false") + "}}"};
    for (unsigned k = 0; k < n_clusters; ++k) {
        extra.push_back("clusters.c" + std::to_string(k) + ".dsu=d0");
        extra.push_back("clusters.c" + std::to_string(k) + ".socket=0");
    }
    const auto r = run_random_program(seed, 3000, extra);
    EXPECT_EQ(r.failure, "") << "platform:" << r.platform;
    EXPECT_EQ(r.finished, r.cores);
    EXPECT_GE(r.instructions, 3000u * r.cores);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomProgramOnAMesh, ::testing::Range<std::uint64_t>(1, 17));

// Two sockets, each a coherent mesh of its clusters (the first half of the
// random platform's clusters on socket 0, the rest on socket 1), each with
// its gateway to the link on a crosspoint varied by seed, the lines placed
// by first touch or interleaved: every check of the header holds.
class RandomProgramOnTwoMeshSockets : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(RandomProgramOnTwoMeshSockets, InvariantsAndDataHold) {
    // The first platform from the parameter on, 100 seeds apart, with two clusters or more.
    std::uint64_t seed = GetParam();
    unsigned n_cores = 0, n_clusters = 0;
    for (random_platform(seed, n_cores, n_clusters); n_clusters < 2; random_platform(seed, n_cores, n_clusters)) seed += 100;
    auto mesh = [seed](unsigned gateway) {
        return "{freq: 1.2GHz, snoop_latency: " + std::to_string(seed % 7) + "cycles, transfer_latency: " +
               std::to_string(seed % 5) + "cycles, l3: {size: 64KiB, ways: 4, latency: 20cycles}, mesh: {width: 3, height: 2, "
               "cores_per_xp: 2, hop_latency: " + std::to_string(1 + seed % 3) + "cycles, link_occupancy: " +
               std::to_string(seed % 3) + "cycles, direct_transfer: " + (seed % 2 ? "true" : "false") +
               ", gateway: " + std::to_string(gateway) + "}, far_atomics: " + (seed % 4 < 2 ? "true" : "false") + "}";
    };
    std::vector<std::string> extra = {"dsus={d0: " + mesh(seed % 6) + ", d1: " + mesh((seed / 6) % 6) + "}",
                                      "interconnect.link_latency=" + std::to_string(20 + seed % 50) + "ns",
                                      std::string("interconnect.placement=") + (seed % 3 ? "first_touch" : "interleave")};
    for (unsigned k = 0; k < n_clusters; ++k) {
        const unsigned s = k < n_clusters / 2 ? 0 : 1;
        extra.push_back("clusters.c" + std::to_string(k) + ".dsu=d" + std::to_string(s));
        extra.push_back("clusters.c" + std::to_string(k) + ".socket=" + std::to_string(s));
    }
    const auto r = run_random_program(seed, 3000, extra);
    EXPECT_EQ(r.failure, "") << "platform:" << r.platform;
    EXPECT_EQ(r.finished, r.cores);
    EXPECT_GE(r.instructions, 3000u * r.cores);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomProgramOnTwoMeshSockets, ::testing::Range<std::uint64_t>(1, 17));

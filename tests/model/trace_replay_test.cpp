// Trace replay: recorded operations run in order; bad traces name the line.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <map>

#include "platform_fixture.h"
#include "stress.h"
#include "workloads/interpreter.h"
#include "workloads/scenario.h"
#include "workloads/trace.h"

using namespace cohsim;
using namespace cohsim::testing;

TEST(TraceReplay, ReplaysEachCoresOperationsInOrder) {
    system_model sys(test_platform({"clusters.little.cores=3", "clusters.big.cores=4",
                                    std::string("workload.trace=") + COHSIM_SOURCE_DIR +
                                        "/workloads/traces/two_core_lock.trace",
                                    "workload.threads=[]"}));
    run_for_fs(1'000'000'000'000ULL);
    ASSERT_EQ(sys.threads().size(), 2u);
    std::uint64_t acquisitions = 0;
    for (const auto& t : sys.threads()) acquisitions += t->metrics().acquisitions();
    EXPECT_EQ(acquisitions, 2u);
    // The stores and atomics were replayed with their recorded values. The
    // big core's CAS expected 0: it succeeds if little.2 had released by then,
    // so the lock ends released by big.3's swap either way.
    EXPECT_EQ(sys.memory().peek(0x10000000, 4), 0u);
    EXPECT_EQ(sys.memory().peek(0x10000040, 8), 2u);  // each core added 1
    EXPECT_EQ(sys.memory().peek(0x10000080, 8), 0x100u);
}

// A replayed zva zeroes its whole line, and only it.
TEST(TraceReplay, ZvaZeroesTheLine) {
    const std::string path = std::filesystem::temp_directory_path() / ("cohsim_zva_" + std::to_string(::getpid()) + ".trace");
    std::ofstream(path) << "little.0 0 st 0x10000000 8 5\nlittle.0 0 st 0x10000038 8 6\nlittle.0 0 st 0x10000040 8 7\n"
                           "big.0 10000 zva 0x10000000 64\n";  // long after the stores
    system_model sys(test_platform({std::string("workload.trace=") + path, "workload.threads=[]"}));
    run_for_fs(1'000'000'000'000ULL);
    std::filesystem::remove(path);
    EXPECT_EQ(sys.memory().peek(0x10000000, 8), 0u);
    EXPECT_EQ(sys.memory().peek(0x10000038, 8), 0u);
    EXPECT_EQ(sys.memory().peek(0x10000040, 8), 7u);  // the next line
    EXPECT_EQ(sys.memory().l1_state(2, 0x10000000), protocol::cstate::M);
}

TEST(TraceReplay, ErrorsNameTheLine) {
    const std::string path = std::filesystem::temp_directory_path() / ("cohsim_bad_" + std::to_string(::getpid()) + ".trace");
    auto error_of = [&](const std::string& text) {
        std::ofstream(path) << text;
        try {
            read_trace(path);
        } catch (const cfg::config_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(error_of("little.0 0 frob 0x10 8\n").find(":1:12: little.0 0 frob 0x10 8: unknown operation 'frob'"),
              std::string::npos);
    EXPECT_NE(error_of("# c\nlittle.0 x ld 0x10 8\n").find(":2:10: little.0 x ld 0x10 8: 'x' is not a delay in cycles"),
              std::string::npos);
    EXPECT_NE(error_of("little.0 0 ld 0x11 8\n").find("address not aligned"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 st 0x10 8\n").find("missing value"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 ld 0x10 3\n").find("bad size"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 zva 0x40 8\n").find("bad size (expected 64: zva zeroes a whole line)"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 zva 0x48 64\n").find("address not aligned"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 ld 0x40 64\n").find("bad size"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 wfe extra\n").find("unexpected 'extra'"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 mark lock_held\n").find("unknown mark 'lock_held'"), std::string::npos);
    std::filesystem::remove(path);
}

// End-to-end, `cohsim scale`: a lock's throughput, fairness and events per
// acquisition against the threads contending, per placement; each figure
// recomputed here from the points' own result.json.
#include <algorithm>
#include <cmath>

#include "app/scaling.h"
#include "e2e/cli_fixture.h"

namespace {

// The lock acquisitions of each contending core of one run, and its time.
struct run_counts {
    std::vector<double> acquisitions;
    double seconds = 0, events = 0;
};
run_counts counts_of(const json& res) {
    run_counts c;
    for (const auto& core : res["cores"])
        if (core.contains("lock")) c.acquisitions.push_back(core["lock"]["acquisitions"].get<double>());
    c.seconds = res["simulated_ns"].get<double>() / 1e9;
    c.events = res["sim_events"].get<double>();
    return c;
}
double sum(const std::vector<double>& xs) {
    double s = 0;
    for (double x : xs) s += x;
    return s;
}

}  // namespace

TEST(Scale, PlacementsPickTheirCores) {
    // Five cores over two sockets: a0 a1 a2 on 0, b0 b1 on 1.
    const std::vector<std::string> cores = {"a0", "a1", "a2", "b0", "b1"};
    const std::vector<unsigned> sockets = {0, 0, 0, 1, 1};
    using v = std::vector<std::string>;
    EXPECT_EQ(cohsim::placed_cores(cores, sockets, "compact", 3), (v{"a0", "a1", "a2"}));
    EXPECT_EQ(cohsim::placed_cores(cores, sockets, "spread", 2), (v{"a0", "a2"}));  // cores 0 and 5/2
    EXPECT_EQ(cohsim::placed_cores(cores, sockets, "spread", 5), cores);
    EXPECT_EQ(cohsim::placed_cores(cores, sockets, "sockets", 4), (v{"a0", "b0", "a1", "b1"}));
    EXPECT_EQ(cohsim::placed_cores(cores, sockets, "sockets", 5), (v{"a0", "b0", "a1", "b1", "a2"}));
}

TEST_F(Cli, ScaleRunsEveryPlacementAndCountAndReportsWhatItsRunsMeasured) {
    const auto r = run({"scale", "rk3588_4xa55_4xa76", "--threads", "1,2,8", "--placement", "compact,spread", "--duration",
                        "50us", "-j", "2", "--out", "s"});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const json j = read_json("s/scale.json");
    ASSERT_EQ(j["points"].size(), 6u);
    EXPECT_EQ(j["members"], 1);
    // The cores: compact takes the platform's first ones, spread every fourth of 8 for 2.
    EXPECT_EQ(j["points"][1]["cores"], json({"little.0", "little.1"}));
    EXPECT_EQ(j["points"][4]["cores"], json({"little.0", "big.0"}));
    EXPECT_EQ(j["points"][5]["cores"].size(), 8u);
    for (std::size_t k = 0; k < 6; ++k) {
        const json& p = j["points"][k];
        EXPECT_EQ(p["placement"], k < 3 ? "compact" : "spread");
        EXPECT_EQ(p["threads"], (std::vector<int>{1, 2, 8})[k % 3]);
        const run_counts c = counts_of(read_json("s/points/000" + std::to_string(k) + "/result.json"));
        ASSERT_EQ(c.acquisitions.size(), p["threads"].get<std::size_t>());
        const double total = sum(c.acquisitions);
        ASSERT_GT(total, 0);
        EXPECT_DOUBLE_EQ(p["throughput_per_s"]["p50"].get<double>(), total / c.seconds);
        double squares = 0;
        for (double a : c.acquisitions) squares += a * a;
        EXPECT_DOUBLE_EQ(p["fairness"]["p50"].get<double>(), total * total / (c.acquisitions.size() * squares));
        EXPECT_DOUBLE_EQ(p["events_per_acquisition"]["p50"].get<double>(), c.events / total);
    }
    // One thread alone: fair to itself, and faster than any two contending.
    EXPECT_EQ(j["points"][0]["fairness"]["p50"], 1.0);
    EXPECT_GT(j["points"][0]["throughput_per_s"]["p50"].get<double>(), j["points"][1]["throughput_per_s"]["p50"].get<double>());
    // The CSV has a row per point; --report prints the table again.
    const std::string csv = slurp(m_dir / "s" / "scale.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
    EXPECT_EQ(csv.rfind("placement,threads,runs,throughput_per_s,", 0), 0u) << csv;
    const auto again = run({"scale", "--report", "s"});
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.out.find("spread           8"), std::string::npos) << again.out;
    EXPECT_NE(r.out.find(again.out.substr(0, again.out.size() - 1)), std::string::npos);
}

TEST_F(Cli, ScaleWithMembersGivesEachPointItsBand) {
    const auto r = run({"scale", "rk3588_4xa55_4xa76", "--threads", "4", "--members", "3", "--duration", "50us", "-j", "2",
                        "--out", "m"});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const json p = read_json("m/scale.json")["points"][0];
    EXPECT_EQ(p["runs"], 3);
    std::vector<double> tp;
    for (int m = 0; m < 3; ++m) {
        const run_counts c = counts_of(read_json("m/points/000" + std::to_string(m) + "/result.json"));
        tp.push_back(sum(c.acquisitions) / c.seconds);
    }
    std::sort(tp.begin(), tp.end());
    // Three members: the median is the middle one; the 5% and 95% points lie
    // a tenth of the way from the ends (linear between order statistics).
    EXPECT_DOUBLE_EQ(p["throughput_per_s"]["p50"].get<double>(), tp[1]);
    EXPECT_NEAR(p["throughput_per_s"]["p5"].get<double>(), tp[0] + 0.1 * (tp[1] - tp[0]), 1e-6 * tp[1]);
    EXPECT_NEAR(p["throughput_per_s"]["p95"].get<double>(), tp[1] + 0.9 * (tp[2] - tp[1]), 1e-6 * tp[1]);
    EXPECT_NE(r.out.find("3 members per point"), std::string::npos) << r.out;
}

TEST_F(Cli, ScaleCountsALockFreeLoopsSuccessfulUpdates) {
    // lockref marks no acquisition: its operations are the CAS successes its
    // program counts (cores[].program.cas_successes).
    const auto r = run({"scale", "rk3588_4xa55_4xa76", "--program", "locks/lockref.s", "--threads", "2", "--duration", "20us",
                        "--out", "l"});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const json res = read_json("l/points/0000/result.json");
    double successes = 0;
    for (const auto& c : res["cores"])
        if (c.contains("program")) successes += c["program"]["cas_successes"].get<double>();
    ASSERT_GT(successes, 0);
    EXPECT_DOUBLE_EQ(read_json("l/scale.json")["points"][0]["throughput_per_s"]["p50"].get<double>(),
                     successes / (res["simulated_ns"].get<double>() / 1e9));
}

TEST_F(Cli, ScaleAppliesTheUsersSetsToItsProgram) {
    // --set workload.params... reaches the program scale puts in (not replaced by it).
    const auto r = run({"scale", "rk3588_4xa55_4xa76", "--threads", "2", "--duration", "20us", "--set",
                        "workload.params.OUTSIDE=777", "--out", "w"});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const json w = read_json("w/points/0000/result.json")["config"]["workload"];
    EXPECT_EQ(w["params"]["OUTSIDE"].get<int>(), 777);
    EXPECT_NE(w["program"].get<std::string>().find("qspinlock.s"), std::string::npos) << w.dump();
}

TEST_F(Cli, ScaleRefusesWhatThePlatformCannotRun) {
    auto r = run({"scale", "rk3588_4xa55_4xa76", "--threads", "9"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--threads"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("from 1 to 8"), std::string::npos) << r.err;
    r = run({"scale", "rk3588_4xa55_4xa76", "--placement", "sockets"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--placement sockets: the platform has one socket (expected compact or spread)"), std::string::npos) << r.err;
    r = run({"scale", "rk3588_4xa55_4xa76", "--placement", "far"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--placement far: unknown"), std::string::npos) << r.err;
    r = run({"scale", "no_such_platform"});
    EXPECT_EQ(r.status, 2);
}

TEST_F(Cli, ScaleRunsACompiledCLockByItsFunction) {
    if (!*COHSIM_C_WORKLOADS) GTEST_SKIP() << "no aarch64-linux-gnu-gcc: the C workloads are not built";
    const std::string elf = c_elf("pthread_spin-lse");
    // An ELF program needs the function its threads run; an assembly one has none to choose.
    auto r = run({"scale", "graviton2", "--program", elf, "--threads", "2"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("an ELF program, but no --function for the threads to run (expected e.g. --function thread)"),
              std::string::npos) << r.err;
    r = run({"scale", "graviton2", "--program", "locks/ticket_lse.s", "--function", "thread"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--function thread: only an ELF program has functions"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists("cohsim-scale"));
    // glibc's spinlock on two cores: the point's throughput is its runs' acquisitions per second.
    r = run({"scale", "graviton2", "--program", elf, "--function", "thread", "--threads", "2", "--duration", "20us",
             "--out", "c"});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const run_counts c = counts_of(read_json("c/points/0000/result.json"));
    ASSERT_EQ(c.acquisitions.size(), 2u);
    ASSERT_GT(sum(c.acquisitions), 0);
    EXPECT_DOUBLE_EQ(read_json("c/scale.json")["points"][0]["throughput_per_s"]["p50"].get<double>(),
                     sum(c.acquisitions) / c.seconds);
}

TEST_F(Cli, ScalePlotDrawsThroughputAgainstThreads) {
    ASSERT_EQ(run({"scale", "rk3588_4xa55_4xa76", "--threads", "1,2", "--duration", "20us", "--out", "p"}).status, 0);
    const auto r = run({"plot", "p"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_GT(fs::file_size(m_dir / "p" / "scale.png"), 1000u);
    EXPECT_GT(fs::file_size(m_dir / "p" / "scale.svg"), 1000u);
}

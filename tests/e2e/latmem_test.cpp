// End-to-end, `cohsim latmem`: load-to-use curves against the published
// plateaus and a board's file.
#include "e2e/cli_fixture.h"

TEST_F(Cli, LatmemMeasuredRunsAtTheBoardsSizes) {
    // lat_mem_rd's output by hand: 2KiB (below what the model runs without
    // --sizes), 16KiB, 256KiB and 1MiB.
    write("lat.txt", "\"stride=64\n0.00195 1.7\n0.01563 1.8\n0.25000 9.5\n1.00000 15.0\n");
    const auto r = run({"latmem", "asr_4xa53_4xa73", "--core", "big.0", "--measured", "lat.txt", "--loads", "256", "--out", "l"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = read_json("l/latmem.json");
    ASSERT_EQ(j["points"].size(), 3u);  // the board's sizes from 4KiB to 16MiB
    const auto& pts = j["measured"]["points"];
    ASSERT_EQ(pts.size(), 3u);
    EXPECT_EQ(pts[0]["size_bytes"], 16384);  // 0.01563 MB, to whole lines
    EXPECT_DOUBLE_EQ(pts[1]["board_ns"].get<double>(), 9.5);
    EXPECT_DOUBLE_EQ(pts[2]["board_ns"].get<double>(), 15.0);
    EXPECT_DOUBLE_EQ(pts[2]["model_ns"].get<double>(), j["points"][2]["ns"].get<double>());
    EXPECT_NE(r.out.find("against the board (lat.txt, lmbench lat_mem_rd"), std::string::npos) << r.out;
    // With --sizes, the board's curve between its sizes: 512KiB lies halfway
    // from 256KiB to 1MiB in log size: (9.5 + 15) / 2.
    const auto s = run({"latmem", "asr_4xa53_4xa73", "--core", "big.0", "--measured", "lat.txt", "--sizes", "512KiB,2MiB",
                        "--loads", "256", "--out", "l2"});
    const json k = read_json("l2/latmem.json");
    EXPECT_NEAR(k["measured"]["points"][0]["board_ns"].get<double>(), 12.25, 1e-9);
    EXPECT_TRUE(k["measured"]["points"][1]["board_ns"].is_null());  // beyond the board's largest size
}

TEST_F(Cli, LatmemStepsAtEachCacheSizeAndMatchesTheDynamiqPlateaus) {
    // A platform of known sizes: 4 KiB L1 (2 cycles), 64 KiB L2, memory
    // behind. The curve is flat inside a level and steps up past its size.
    write("lat.yaml",
          "clusters:\n  c: {freq: 1GHz, cores: 1, core: cortex-a53, l1: {size: 4KiB, ways: 4, hit_latency: 2cycles},\n"
          "      l2: {size: 64KiB, ways: 8, latency: 10cycles}}\n"
          "timer: {freq: 1.92MHz, evnti: 8}\ninterconnect: {freq: 500MHz}\nmemory: {latency: 100ns}\n");
    auto r = run({"latmem", "lat.yaml", "--sizes", "2KiB,4KiB,16KiB,32KiB,256KiB,1MiB", "-j", "2", "--out", "l"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = read_json("l/latmem.json");
    ASSERT_EQ(j["points"].size(), 6u);
    auto ns = [&](int i) { return j["points"][i]["ns"].get<double>(); };
    // L1: the hit latency, 2 ns at 1 GHz, plus at most the loop's 2
    // instructions per 16 loads (some of which overlap the load in flight).
    EXPECT_GE(ns(0), 2.0);
    EXPECT_LE(ns(0), 2.0 + 2.0 / 16);
    EXPECT_DOUBLE_EQ(ns(0), ns(1));
    // L2 plateau: flat and above the L1's.
    EXPECT_DOUBLE_EQ(ns(2), ns(3));
    EXPECT_GT(ns(2), 4 * ns(0));
    // Memory: flat, and at least the DRAM latency.
    EXPECT_NEAR(ns(4), ns(5), 0.01 * ns(5));
    EXPECT_GT(ns(4), 100.0);
    EXPECT_NEAR(j["points"][0]["cycles"].get<double>(), ns(0), 1e-9);  // 1 GHz
    // The DynamIQ little core against its published plateaus (references.yaml).
    r = run({"latmem", "dynamiq_4xa55_4xa75", "--core", "little.0", "--sizes", "16KiB", "--check", "-j", "2", "--out", "d"});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const json d = read_json("d/latmem.json");
    ASSERT_EQ(d["checks"].size(), 4u);
    for (const auto& c : d["checks"]) EXPECT_TRUE(c["pass"].get<bool>()) << c;
    EXPECT_EQ(d["points"].size(), 4u);  // 16KiB, and the sizes the checks need
    r = run({"plot", "d"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(m_dir / "d" / "latmem.png"));
    // A slower DRAM misses its row: exit 1.
    r = run({"latmem", "dynamiq_4xa55_4xa75", "--core", "little.0", "--sizes", "16KiB", "--check", "-j", "2", "--out", "slow",
             "--set", "memory.latency=400ns"});
    EXPECT_EQ(r.status, 1) << r.out;
    expect_bad({"latmem", "lat.yaml", "--core", "x.0"}, "--core x.0: not a core of this platform");
    expect_bad({"latmem", "lat.yaml", "--sizes", "100B"}, "not a working set of 128B to 128MiB");
    expect_bad({"latmem", "lat.yaml", "--loads", "17"}, "not a multiple of 16");
}

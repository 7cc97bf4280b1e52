// End-to-end, `cohsim c2c`: core-to-core matrices against the published ones
// and a board's file; every platform's reference rows.
#include "e2e/cli_fixture.h"

// ---- core-to-core latency ---------------------------------------------------------

TEST_F(Cli, C2cDynamiqMatchesItsPublishedMatrixThroughTheDsu) {
    // Every pair of the DynamIQ platform, as the core-to-core-latency tool
    // would measure it, against the Snapdragon 850 figures (references.yaml).
    auto go = [&](const std::string& out, const std::vector<std::string>& more) {
        std::vector<std::string> args = {"c2c", "dynamiq_4xa55_4xa75", "--duration", "10us", "-j", "2", "--out", out};
        args.insert(args.end(), more.begin(), more.end());
        return run(args);
    };
    auto r = go("c", {"--check"});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const json j = read_json("c/c2c.json");
    ASSERT_EQ(j["cores"].size(), 8u);
    ASSERT_EQ(j["pairs"].size(), 28u);
    for (std::size_t a = 0; a < 8; ++a)
        for (std::size_t b = 0; b < 8; ++b) {
            if (a == b) {
                EXPECT_TRUE(j["matrix"][a][b].is_null());
                continue;
            }
            EXPECT_EQ(j["matrix"][a][b], j["matrix"][b][a]);
            // Inside the widest allowed band of the three rows (58..73 ns, +-25%).
            EXPECT_GE(j["matrix"][a][b].get<double>(), 58 * 0.75);
            EXPECT_LE(j["matrix"][a][b].get<double>(), 73 * 1.25);
        }
    ASSERT_EQ(j["checks"].size(), 3u);
    for (const auto& c : j["checks"]) EXPECT_TRUE(c["pass"].get<bool>()) << c;
    // The Snapdragon 850 ran the tool's compare_exchange as LDXR/STXR
    // (references.yaml): --check runs the same on every pair.
    EXPECT_EQ(j["instruction"], "llsc");
    for (const auto& p : j["pairs"]) {
        EXPECT_EQ(p["instruction"], "ldxr/stxr");
        EXPECT_EQ(p["kind"], p["a"].get<std::string>().substr(0, 3) == p["b"].get<std::string>().substr(0, 3) ? "same cluster"
                                                                                                                : "same DSU");
    }
    // Each trip through the DSU crosses it once each way: 15 more DSU cycles
    // on each hop (1.5 GHz: 20 ns a trip) add 20 ns to a CAS hand-off (one
    // trip: the CAS takes the line) and 40 ns to an LDXR/STXR hand-off (two:
    // the read, then the upgrade), within one DSU period's alignment (0.67 ns)
    // a trip and the count's granularity (a hand-off more or less in 10 us
    // moves the figure by ns^2 / 10^4 ns).
    for (const auto& [insn, trips] : std::vector<std::pair<std::string, double>>{{"cas", 1}, {"llsc", 2}}) {
        const std::vector<std::string> four = {"--instruction", insn, "--cores", "little.0,little.1,big.0,big.1"};
        r = go(insn, four);
        ASSERT_EQ(r.status, 0) << r.err;
        auto more = four;
        more.insert(more.end(), {"--set", "dsus.dsu.snoop_latency=35cycles", "--set", "dsus.dsu.transfer_latency=35cycles"});
        r = go(insn + "-slow", more);
        ASSERT_EQ(r.status, 0) << r.err;
        const json base = read_json(insn + "/c2c.json"), slow = read_json(insn + "-slow/c2c.json");
        ASSERT_EQ(slow["pairs"].size(), 6u);
        for (std::size_t k = 0; k < 6; ++k) {
            const double a = base["pairs"][k]["one_way_ns"].get<double>(), b = slow["pairs"][k]["one_way_ns"].get<double>();
            EXPECT_NEAR(b - a, 20.0 * trips, 0.67 * trips + (a * a + b * b) / 1e4) << insn << " " << slow["pairs"][k];
            EXPECT_EQ(base["pairs"][k]["instruction"], insn == "cas" ? "cas" : "ldxr/stxr");
        }
    }
    expect_bad({"c2c", "dynamiq_4xa55_4xa75", "--check", "--instruction", "cas"},
               "--instruction cas: dynamiq_4xa55_4xa75's references were measured with llsc");
    expect_bad({"c2c", "asr_4xa53_4xa73", "--instruction", "cas"},
               "--instruction cas: core little.0 (cortex-a53) has no LSE (Armv8.0)");
    expect_bad({"c2c", "asr_4xa53_4xa73", "--instruction", "swp"}, "--instruction swp: not an instruction choice");
    // Without the DSU's hops the transfers are an order of magnitude too fast: the check says so, exit 1.
    r = go("fast", {"--check", "--set", "dsus.dsu.snoop_latency=0cycles", "--set", "dsus.dsu.transfer_latency=0cycles"});
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("FAIL"), std::string::npos) << r.out;
    // --report prints it again; the plot draws the heatmap.
    r = run({"c2c", "--report", "c"});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("big-little  same DSU      16"), std::string::npos) << r.out;
    r = run({"plot", "c"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(m_dir / "c" / "c2c.png"));
}

TEST_F(Cli, C2cPicksTheInstructionByTheCoresAndNamesTheKindOfPair) {
    // Two sockets of one cluster each on Armv8.0 cores: LDXR/STXR, and the
    // pair across sockets is slower than the pair inside a cluster.
    write("two.yaml",
          "clusters:\n  a: {freq: 1GHz, cores: 2, core: cortex-a53}\n  b: {freq: 1GHz, cores: 1, core: cortex-a53, socket: 1}\n"
          "timer: {freq: 1.92MHz, evnti: 8}\ninterconnect: {freq: 500MHz}\n");
    const auto r = run({"c2c", "two.yaml", "--duration", "20us", "-j", "2", "--out", "t"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = read_json("t/c2c.json");
    ASSERT_EQ(j["pairs"].size(), 3u);
    std::map<std::string, double> ns;
    for (const auto& p : j["pairs"]) {
        EXPECT_EQ(p["instruction"], "ldxr/stxr");
        ns[p["kind"].get<std::string>()] = p["one_way_ns"].get<double>();
    }
    ASSERT_EQ(ns.size(), 2u);
    EXPECT_LT(ns["same cluster"], ns["across sockets"]);
    // Bad input: exit 2 with what is wrong.
    expect_bad({"c2c"}, "c2c takes one PLATFORM");
    expect_bad({"c2c", "two.yaml", "--cores", "c"}, "'c' is not a cluster or core of this platform");
    expect_bad({"c2c", "two.yaml", "--cores", "a.0"}, "needs at least two cores");
    expect_bad({"c2c", "nosuch"}, "no such config file");
}

// ---- every shipped platform against its published figures ------------------

// A platform, the cores its c2c check uses (empty: all) and one core per
// cluster for latmem.
struct platform_case {
    const char* name;
    const char* c2c_cores;
    std::vector<std::string> latmem_cores;
};

void PrintTo(const platform_case& c, std::ostream* os) { *os << c.name; }

class PlatformReferences : public Cli, public ::testing::WithParamInterface<platform_case> {
protected:
    // Every row that is not a known miss passes; every known miss still
    // misses (a fix should remove its mark). Returns the rows seen.
    std::size_t expect_rows(const json& checks, const std::string& what) {
        for (const auto& c : checks) {
            if (c.contains("known_miss"))
                EXPECT_FALSE(c["pass"].get<bool>()) << what << ": a known miss now passes; remove its mark: " << c;
            else
                EXPECT_TRUE(c["pass"].get<bool>()) << what << ": " << c;
        }
        return checks.size();
    }
};

TEST_P(PlatformReferences, MatchesItsPublishedCoreToCoreAndMemoryLatencies) {
    const platform_case& pc = GetParam();
    std::vector<std::string> args = {"c2c", pc.name, "--check", "--duration", "10us", "-j", "2", "--out", "c"};
    if (*pc.c2c_cores) args.insert(args.end(), {"--cores", pc.c2c_cores});
    auto r = run(args);
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_GE(expect_rows(read_json("c/c2c.json")["checks"], std::string(pc.name) + " c2c"), 1u) << r.err;
    std::size_t rows = 0;
    for (const auto& core : pc.latmem_cores) {
        const std::string out = "l-" + core;
        r = run({"latmem", pc.name, "--core", core, "--check", "--sizes", "16KiB", "-j", "2", "--out", out});
        ASSERT_EQ(r.status, 0) << r.err << r.out;
        rows += expect_rows(read_json(out + "/latmem.json")["checks"], std::string(pc.name) + " latmem " + core);
    }
    EXPECT_GE(rows, pc.latmem_cores.size());
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, PlatformReferences,
    ::testing::Values(platform_case{"asr_4xa53_4xa73", "little.0,little.1,big.0,big.1", {"little.0", "big.0"}},
                      platform_case{"dynamiq_4xa55_4xa75", "little.0,little.1,big.0,big.1", {"little.0", "big.0"}},
                      platform_case{"exynos5422", "little.0,little.1,big.0,big.1", {"little.0", "big.0"}},
                      platform_case{"rpi2_4xa7", "", {"cpu.0"}},
                      platform_case{"rk3588_4xa55_4xa76", "little.0,little.1,big.0,big.1", {"little.0", "big.0"}},
                      platform_case{"thunderx2_2s", "s0.0,s0.1,s1.0", {"s0.0"}},
                      platform_case{"graviton2", "cpu.0,cpu.1,cpu.30,cpu.63", {"cpu.0"}},
                      platform_case{"altra_q80_26", "cpu.0,cpu.3,cpu.4,cpu.40,cpu.79", {"cpu.0"}},
                      platform_case{"graviton4", "cpu.0,cpu.1,cpu.2,cpu.47,cpu.95", {"cpu.0"}},
                      platform_case{"graviton4_2s", "s0.0,s0.1,s0.47,s1.0,s1.95", {"s0.0"}}),
    [](const ::testing::TestParamInfo<platform_case>& i) { return std::string(i.param.name); });

TEST_F(Cli, EveryShippedPlatformHasReferenceRowsAndATest) {
    // A platform added to configs/platforms/ needs its published figures in
    // references.yaml (and a line in PlatformReferences above).
    const YAML::Node refs = YAML::LoadFile((fs::path(COHSIM_SOURCE_DIR) / "configs" / "references.yaml").string());
    std::set<std::string> tested = {"asr_4xa53_4xa73", "dynamiq_4xa55_4xa75", "exynos5422", "rpi2_4xa7", "rk3588_4xa55_4xa76",
                                    "thunderx2_2s", "graviton2", "altra_q80_26", "graviton4", "graviton4_2s"};
    std::set<std::string> shipped;
    for (const auto& e : fs::directory_iterator(fs::path(COHSIM_SOURCE_DIR) / "configs" / "platforms"))
        if (e.path().extension() == ".yaml") shipped.insert(e.path().stem().string());
    EXPECT_EQ(shipped, tested);
    for (const auto& p : shipped) {
        EXPECT_TRUE(refs[p] && refs[p]["c2c"] && refs[p]["c2c"].size() > 0) << p << " has no c2c rows";
        EXPECT_TRUE(refs[p] && refs[p]["latmem"] && refs[p]["latmem"].size() > 0) << p << " has no latmem rows";
    }
}

// A board's own files beside the model: cas-bench's text for four CPUs
// (written by hand; CPU k is the k-th core of --cores), its figures per
// pair and per kind of pair, and the differences.
TEST_F(Cli, C2cMeasuredPutsTheBoardBesideTheModel) {
    write("board.txt",
          "     0   -  22  230  220\n     1  22   -  222  224\n     2  226  220   -  28\n     3  224  222  27   -\n");
    const auto r = run({"c2c", "asr_4xa53_4xa73", "--cores", "little.0,little.1,big.0,big.1", "--duration", "20us", "--measured",
                        "board.txt", "--out", "m"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = read_json("m/c2c.json");
    const json& m = j["measured"];
    EXPECT_EQ(m["format"], "cas-bench");
    ASSERT_EQ(m["pairs"].size(), 6u);
    std::map<std::string, json> g;
    for (const auto& e : m["groups"]) g[e["clusters"].get<std::string>()] = e;
    // Board means by hand: little 22; big (28 + 27) / 2; big-little the four
    // cross pairs, each the mean of its two directions: (228 + 222 + 221 + 223) / 4.
    EXPECT_DOUBLE_EQ(g["little"]["board_mean_ns"].get<double>(), 22);
    EXPECT_DOUBLE_EQ(g["big"]["board_mean_ns"].get<double>(), 27.5);
    EXPECT_DOUBLE_EQ(g["big-little"]["board_mean_ns"].get<double>(), 223.5);
    for (const auto& e : m["pairs"]) {
        // Each pair's model figure is the matrix's, its difference model - board.
        const double model = e["model_ns"].get<double>(), board = e["board_ns"].get<double>();
        EXPECT_DOUBLE_EQ(e["diff_ns"].get<double>(), model - board);
        EXPECT_NEAR(e["diff_percent"].get<double>(), 100 * (model - board) / board, 1e-9);
    }
    EXPECT_NE(r.out.find("against the board (board.txt, cas-bench, 4 CPUs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("little.0 - little.1"), std::string::npos) << r.out;
    // --report prints it again; a board with more CPUs than cores is refused.
    EXPECT_NE(run({"c2c", "--report", "m"}).out.find("against the board"), std::string::npos);
    expect_bad({"c2c", "asr_4xa53_4xa73", "--cores", "little.0,little.1", "--measured", "board.txt"},
               "the board has 4 CPUs, the cores of --cores 2");
    write("bad.csv", ",,\n41.6,,\n42.4,x,\n");
    expect_bad({"c2c", "asr_4xa53_4xa73", "--measured", "bad.csv"}, "bad.csv:3: 'x' in column 2 is not a latency in ns");
}

// End-to-end, `cohsim compare`: two runs side by side.
#include "e2e/cli_fixture.h"

// `cohsim compare`: two outputs with figures chosen by hand, so that every
// change and flag below is computed here, not read off the program. A run
// over 1 s against one over 2 s: big.0 from 1000 to 3000 acquisitions (rate
// 1000 -> 1500/s, +50%), share 0.5 -> 0.75 (+50%), longest wait 2000 ->
// 2100 ns (+5%), fair -> DOMINANT; little.0 1000 -> 2100 (1050/s, +5%),
// share unchanged, wait +3.3%, fair both: nothing flagged at 10%.
TEST_F(Cli, CompareFlagsWhatChangedAgainstHandComputedFigures) {
    for (const char* d : {"a", "b", "p", "s1", "s2", "s3"}) fs::create_directories(m_dir / d);
    const auto core = [](const std::string& id, int acq, double share, double wait, const std::string& verdict) {
        return R"({"id": ")" + id + R"(", "lock": {"acquisitions": )" + std::to_string(acq) + R"(, "share": )" +
               std::to_string(share) + R"(, "longest_wait_ns": )" + std::to_string(wait) + R"(, "verdict": ")" + verdict + "\"}}";
    };
    write("a/result.json", R"({"description": "A", "simulated_ns": 1e9, "cores": [)" + core("big.0", 1000, 0.5, 2000, "fair") + ", " +
                               core("little.0", 1000, 0.5, 3000, "fair") + R"(, {"id": "little.1"}]})");
    write("b/result.json", R"({"description": "B", "simulated_ns": 2e9, "cores": [)" + core("big.0", 3000, 0.75, 2100, "DOMINANT") +
                               ", " + core("little.0", 2100, 0.5, 3100, "fair") + ", " + core("big.1", 10, 0.01, 1e6, "STARVED") + "]}");
    const auto line_of = [](const std::string& out, const std::string& start) {
        const auto at = out.find("\n" + start);
        return at == std::string::npos ? std::string() : out.substr(at + 1, out.find('\n', at + 1) - at - 1);
    };
    auto r = run({"compare", "a", "b", "--html", "diff.html"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string big = line_of(r.out, "big.0"), little = line_of(r.out, "little.0");
    EXPECT_NE(big.find("1000 -> 1500 (+50.0%)"), std::string::npos) << r.out;
    EXPECT_NE(big.find("50% -> 75% (+50.0%)"), std::string::npos) << r.out;
    EXPECT_NE(big.find("2 us -> 2.1 us (+5.0%)"), std::string::npos) << r.out;
    EXPECT_NE(big.find("fair -> DOMINANT  ! acquisitions/s, share, verdict"), std::string::npos) << r.out;
    EXPECT_NE(little.find("1000 -> 1050 (+5.0%)"), std::string::npos) << r.out;
    EXPECT_NE(little.find("50% -> 50% (=)"), std::string::npos) << r.out;
    EXPECT_EQ(little.find('!'), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("only in B: big.1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 of 2 rows differ where it matters"), std::string::npos) << r.out;
    // The page: self-contained, the flagged changes highlighted, the others not.
    const std::string page = slurp(m_dir / "diff.html");
    EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(page.find("<td class='d'>+50.0%</td>"), std::string::npos);
    EXPECT_NE(page.find("<td>+5.0%</td>"), std::string::npos);
    EXPECT_EQ(page.find("<script"), std::string::npos);
    EXPECT_EQ(page.find("http"), std::string::npos);
    // A threshold above 50%: only the verdict matters; a regression check fails on it, not on a run against itself.
    EXPECT_NE(line_of(run({"compare", "a", "b", "--threshold", "60"}).out, "big.0").find("! verdict"), std::string::npos);
    EXPECT_EQ(run({"compare", "a", "b", "--fail-on-difference"}).status, 1);
    r = run({"compare", "a", "a/result.json", "--fail-on-difference"});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("no difference that matters in 2 rows"), std::string::npos) << r.out;

    // A run against a prediction's bands: big.0's rate 1000/s lies below the
    // band 1100..1300 (median +20%): flagged; its share and wait lie inside:
    // not; the most likely verdict, fair, at 15 of 20 members.
    write("p/prediction.json", R"({"members": {"requested": 20, "done": 20}, "cores": [{"id": "big.0",
        "acquisitions_per_s": {"p5": 1100, "p50": 1200, "p95": 1300}, "share": {"p5": 0.45, "p50": 0.52, "p95": 0.55},
        "longest_wait_ns": {"p5": 1500, "p50": 2500, "p95": 3000}, "verdicts": {"fair": 15, "DOMINANT": 5}}]})");
    r = run({"compare", "a", "p"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string banded = line_of(r.out, "big.0");
    EXPECT_NE(banded.find("1000 -> 1200 [1100..1300] (+20.0%)"), std::string::npos) << r.out;
    EXPECT_NE(banded.find("fair / fair (75%)  ! acquisitions/s"), std::string::npos) << r.out;
    EXPECT_EQ(banded.find("share,"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("only in A: little.0"), std::string::npos) << r.out;

    // Sweeps: points matched by their swept values. At 2GHz little.0's rate
    // falls from 2000 to 500/s (/4) and its verdict to STARVED; 1GHz is unchanged.
    const std::string manifest = R"({"axes": [{"path": "clusters.little.freq", "values": ["1GHz", "2GHz"]}], "summary": {"points": 2, "done": 2}})";
    const std::string head = "point,clusters.little.freq,clusters.little.freq_hz,core,cluster,type,acquisitions,share,verdict,wait_ns_max,simulated_ns\n";
    write("s1/sweep.json", manifest);
    write("s2/sweep.json", manifest);
    write("s1/results.csv", head + "0,1GHz,1000000000,little.0,little,a53,1000,0.5,fair,100,1000000000\n"
                                   "1,2GHz,2000000000,little.0,little,a53,2000,0.5,fair,100,1000000000\n");
    write("s2/results.csv", head + "0,1GHz,1000000000,little.0,little,a53,1000,0.5,fair,100,1000000000\n"
                                   "1,2GHz,2000000000,little.0,little,a53,500,0.01,STARVED,100,1000000000\n");
    r = run({"compare", "s1", "s2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(line_of(r.out, "clusters.little.freq=2GHz").find("2000 -> 500 (/4)"), std::string::npos) << r.out;
    EXPECT_NE(line_of(r.out, "clusters.little.freq=2GHz").find("fair -> STARVED"), std::string::npos) << r.out;
    EXPECT_EQ(line_of(r.out, "clusters.little.freq=1GHz").find('!'), std::string::npos) << r.out;

    // Bad input: a clear error, exit 2.
    write("s3/sweep.json", R"({"axes": [{"path": "run.seed", "values": ["1"]}], "summary": {"points": 1, "done": 1}})");
    write("s3/results.csv", "point,run.seed,core,cluster,type,acquisitions,share,verdict,wait_ns_max,simulated_ns\n");
    r = run({"compare", "s1", "s3"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("A sweeps clusters.little.freq and B run.seed: compare needs the same swept paths"), std::string::npos) << r.err;
    r = run({"compare", "a", "s1"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("A is a run and B a sweep"), std::string::npos) << r.err;
    r = run({"compare", "a", "nowhere"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("nowhere: no such file or directory"), std::string::npos) << r.err;
    r = run({"compare", "a"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("compare needs two outputs"), std::string::npos) << r.err;
    r = run({"compare", "a", "b", "--threshold", "0"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--threshold 0: expected a percentage above 0"), std::string::npos) << r.err;

    // Two real runs of one config with different seeds: the same verdicts.
    ASSERT_EQ(run({"run", "--duration", "1ms", "-q", "--out", "r1"}).status, 0);
    ASSERT_EQ(run({"run", "--duration", "1ms", "--seed", "2", "-q", "--out", "r2"}).status, 0);
    r = run({"compare", "r1", "r2"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("no difference that matters in 2 rows"), std::string::npos) << r.out;
}

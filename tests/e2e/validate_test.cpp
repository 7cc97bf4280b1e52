// End-to-end, `cohsim validate`: the calibration cases, quick and as bands.
#include "e2e/cli_fixture.h"

TEST_F(Cli, ValidateQuickChecksTheDirectionOfEveryCase) {
    const auto r = run({"validate", "--quick", "--out", "v"});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("0 failed"), std::string::npos) << r.out;
    const json j = read_json("v/validate.json");
    EXPECT_EQ(j["quick"], true);
    std::set<std::string> cases;
    for (const auto& row : j["checks"]) {
        cases.insert(row["case"].get<std::string>());
        EXPECT_NE(row["result"], "FAIL") << row.dump();
    }
    EXPECT_EQ(cases, (std::set<std::string>{"asr_freq_skew_no_backoff", "asr_freq_skew_wfe_backoff", "asr_equal_freq",
                                            "lockref_many_threads"}));
    EXPECT_EQ(j["runs"].size(), 5u);  // lockref compares two configs
    for (const auto& run : j["runs"]) EXPECT_EQ(run["exit_status"], 0) << run.dump();
    // Each run's own results are kept.
    EXPECT_TRUE(fs::exists(m_dir / "v" / "asr_equal_freq" / "asr_equal_freq" / "result.json"));
}

TEST_F(Cli, ValidateBadInputs) {
    expect_bad({"validate", "--cases", "nope"}, "--cases: no case 'nope'");
    const std::string f = write("cases.yaml", "cases:\n  - {id: a, config: x.yaml, quick: 1ms, checks: [{kind: bogus}]}\n");
    expect_bad({"validate", "--file", f}, "cases.yaml:2:57: cases.0.checks.0.kind: unknown check 'bogus'");
    const std::string g = write("g.yaml", "cases:\n  - {id: a, config: missing.yaml, quick: 1ms, checks: []}\n");
    expect_bad({"validate", "--file", g}, "config '" + (m_dir / "missing.yaml").string() + "' does not exist");
}

// `cohsim validate --bands`: an ensemble per case, each check judged on its band.
TEST_F(Cli, ValidateBandsJudgesEachCheckOnAnEnsemble) {
    const auto r = run({"validate", "--bands", "-n", "4", "--duration", "2ms", "-j", "2", "--out", "vb", "--cases", "asr_equal_freq"});
    EXPECT_NE(r.out.find("bands: 5-95% of 4 members"), std::string::npos) << r.out << r.err;
    const json v = read_json("vb/validate.json");
    EXPECT_TRUE(v["bands"].get<bool>());
    ASSERT_EQ(v["member_values"].size(), 4u);
    // The share row's median is the median of the members' shares (type 7: the mean of the middle two).
    std::vector<double> shares;
    for (const auto& mv : v["member_values"]) shares.push_back(mv[0].get<double>());
    std::sort(shares.begin(), shares.end());
    EXPECT_NEAR(v["checks"][0]["value"].get<double>(), (shares[1] + shares[2]) / 2, 1e-12);
    EXPECT_EQ(v["checks"][1]["result"], "skip");  // longest wait: members shorter than 20 s
    // Each member ran its own seed and draw: four points of one sweep.
    EXPECT_TRUE(fs::exists(m_dir / "vb" / "asr_equal_freq" / "asr_equal_freq" / "points" / "0003" / "result.json"));
    expect_bad({"validate", "--bands", "--quick"}, "--quick and --bands do not go together");
    expect_bad({"validate", "-n", "8"}, "-n needs --bands");
}

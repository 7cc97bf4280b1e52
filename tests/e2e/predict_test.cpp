// End-to-end, `cohsim predict`: ensembles, what the outcome depends on, the
// margin.
#include "e2e/cli_fixture.h"

// ---- cohsim predict -----------------------------------------------------------

TEST_F(Cli, PredictFindsTheParameterWithAKnownEffect) {
    // One core alone on the lock, with no jitter: its acquisitions per second
    // grow with its clock and nothing else in the config matters (the lock
    // line stays in its L1; memory is touched once). So the sensitivity must
    // name the clock first, with a rank correlation of +1, and every member
    // must call the lone core fair (nobody to lose to).
    const std::string cfg = write("alone.yaml", std::string(good) + R"(workload:
  program: locks/ticket_llsc.s
  params: {INSIDE: 200, INSIDE_JITTER: 0, OUTSIDE: 300, OUTSIDE_JITTER: 0}
  threads: [{core: little.0}]
)");
    const std::vector<std::string> args = {"predict", cfg, "-n", "6", "-j", "2", "--duration", "2ms",
                                           "--set", "clusters.little.freq=1GHz ~ 500MHz..2GHz",
                                           "--set", "memory.latency=100ns ~ 50ns..200ns"};
    const auto r = run(with(args, {"--out", "p"}));
    ASSERT_EQ(r.status, 0) << r.err;
    const json p = read_json("p/prediction.json");
    EXPECT_EQ(p["members"]["done"], 6);
    ASSERT_EQ(p["sensitivity"].size(), 2u);
    EXPECT_EQ(p["sensitivity"][0]["path"], "clusters.little.freq");
    EXPECT_NEAR(p["sensitivity"][0]["spearman"].get<double>(), 1.0, 1e-9);
    EXPECT_EQ(p["sensitivity"][0]["range"], "500MHz..2GHz");
    ASSERT_EQ(p["cores"].size(), 1u);
    EXPECT_EQ(p["cores"][0]["verdicts"]["fair"], 6);
    const auto& rate = p["cores"][0]["acquisitions_per_s"];
    EXPECT_LE(rate["p5"].get<double>(), rate["p50"].get<double>());
    EXPECT_LE(rate["p50"].get<double>(), rate["p95"].get<double>());
    // The draws: one per stratum of each range (6 strata of 1.5 GHz / 6 = 250 MHz).
    const json e = read_json("p/ensemble.json");
    std::set<long> strata;
    for (const auto& row : e["draws"]) strata.insert((row[0].get<long>() - 500'000'000) / 250'000'000);
    EXPECT_EQ(strata, (std::set<long>{0, 1, 2, 3, 4, 5}));
    // Each member ran its own seed and its own draw, written in its effective config.
    const json m3 = read_json("p/points/0003/result.json");
    EXPECT_EQ(m3["seed"], 4);
    EXPECT_EQ(e["uncertain"][0]["type"], "frequency");
    EXPECT_EQ(m3["config"]["clusters"]["little"]["freq"], read_json("p/sweep.json")["axes"][1]["values"][3]);
    EXPECT_NE(r.out.find("what little.0's rate depends on most"), std::string::npos) << r.out;
    // The same command again runs nothing and reports the same; --report reprints it.
    const std::string before = slurp(m_dir / "p" / "prediction.json");
    const auto again = run(with(args, {"--out", "p"}));
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.err.find("6 already done, 0 to run"), std::string::npos) << again.err;
    EXPECT_EQ(slurp(m_dir / "p" / "prediction.json"), before);
    const auto plot = run({"plot", "p"});
    EXPECT_EQ(plot.status, 0) << plot.err;
    EXPECT_TRUE(fs::exists(m_dir / "p" / "prediction.png"));
    EXPECT_NEAR(read_json("p/prediction.json")["chance_level"].get<double>(), 2 / std::sqrt(6.0), 1e-12);
    const auto rep = run({"predict", "--report", "p"});
    EXPECT_EQ(rep.status, 0);
    EXPECT_NE(rep.out.find("6 of 6 members"), std::string::npos) << rep.out;
    // A different ensemble in the same directory is refused; bad input is exit 2.
    std::vector<std::string> seven = args;
    seven[3] = "7";  // -n 7
    expect_bad(with(seven, {"--out", "p"}), "holds another sweep");
    expect_bad({"predict", "-n", "2"}, "--members");
    expect_bad({"predict", "--set", "clusters.little.freq=900MHz ~ 1GHz..2GHz"}, "does not hold 900MHz");
}

TEST_F(Cli, PredictMarginBracketsTheFlip) {
    // The default scenario along the big core's clock: the little core is
    // STARVED at 1.8 GHz and shares the lock somewhat below it (docs/guide/predictions.md).
    // Whatever the margin reports must hold when run directly:
    // the last value kept gives the nominal verdict, the flip value another,
    // and the two are within 1/512 of the searched side (300 MHz) apart.
    const auto r = run({"predict", "-n", "3", "-j", "2", "--duration", "20ms", "--set",
                        "clusters.big.freq=1.8GHz ~ 1.5GHz..2.1GHz", "--margin", "clusters.big.freq", "--out", "m"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json m = read_json("m/prediction.json")["margin"];
    EXPECT_EQ(m["focus_core"], "little.2");
    EXPECT_EQ(m["nominal_verdict"], "STARVED");
    ASSERT_FALSE(m["down"].is_null()) << m.dump();
    auto verdict_at = [&](const std::string& f) {
        const auto d = run({"run", "--duration", "20ms", "--set", "clusters.big.freq=" + f, "-q", "--out", "at"});
        EXPECT_EQ(d.status, 0) << d.err;
        return read_json("at/result.json")["cores"][2]["lock"]["verdict"].get<std::string>();
    };
    auto parse_hz = [](const std::string& f) {  // "1.784766GHz", "900MHz"
        const double scale = f.find("GHz") != std::string::npos ? 1e9 : f.find("MHz") != std::string::npos ? 1e6 : 1e3;
        return std::stod(f) * scale;
    };
    const std::string kept = m["down"]["last_kept"], flip = m["down"]["flips_at"];
    EXPECT_EQ(verdict_at(kept), "STARVED");
    EXPECT_EQ(verdict_at(flip), m["down"]["verdict_beyond"].get<std::string>());
    EXPECT_NE(m["down"]["verdict_beyond"], "STARVED");
    const double gap = parse_hz(kept) - parse_hz(flip);
    EXPECT_GT(gap, 0);
    EXPECT_LE(gap, 300e6 / 512 + 1e3);
    EXPECT_NE(r.out.find("margin along clusters.big.freq"), std::string::npos) << r.out;
    expect_bad({"predict", "--margin", "clusters.big.freq"}, "--margin clusters.big.freq: not an uncertain value");
}

// A prediction whose members cannot differ (no uncertain value, noise off)
// says so instead of stating certainty, and every verdict count carries its
// 95% interval: 4 of 4 is 51-100% (Wilson: centre (1 + z^2/2n)/(1 + z^2/n),
// half-width z sqrt(z^2/4n^2)/(1 + z^2/n), z = 1.96, n = 4: 0.755 -+ 0.245).
TEST_F(Cli, APredictionOfIdenticalMembersSaysItMeasuresNoUncertainty) {
    write("flat.yaml", "clusters:\n  c: {freq: 1GHz, cores: 2, core: cortex-a53}\ntimer: {freq: 1.92MHz, evnti: 8}\n"
                       "interconnect: {freq: 533MHz}\nrun: {duration: 200us, noise: false}\nworkload:\n"
                       "  program: locks/ticket_llsc.s\n  params: {INSIDE: 200, OUTSIDE: 300}\n"
                       "  threads: [{core: c.0}, {core: c.1}]\n");
    const auto r = run({"predict", "flat.yaml", "-n", "4", "--out", "p", "-j", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("4/4 (95%: 51-100%)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("warning: the 4 members gave identical results"), std::string::npos) << r.out;
    // The default scenario's members differ: no such warning.
    const auto d = run({"predict", "-n", "4", "--out", "d", "-j", "2", "--duration", "2ms"});
    ASSERT_EQ(d.status, 0) << d.err;
    EXPECT_EQ(d.out.find("gave identical results"), std::string::npos) << d.out;
}

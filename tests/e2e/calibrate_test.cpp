// End-to-end, `cohsim calibrate`: draws kept against cases and published
// figures, written back.
#include "e2e/cli_fixture.h"

// `cohsim calibrate` recovers a known parameter (approximate Bayesian
// computation's own test): a "measurement" made by the simulator at a chosen
// clock, 1GHz, then a prior of 500MHz..1.5GHz for that clock. Two cores of one
// cluster, everything they share timed in their own cycles, so the lock's rate
// scales with the clock: the draws kept (rate within x/1.1 of the measured)
// lie around 1GHz, within about +-10%, and the prior's ends are excluded.
TEST_F(Cli, CalibrateNarrowsAKnownParameterAroundTheTruthAndWritesItBack) {
    const std::string plat_text =
        "clusters:\n  c: {freq: 1GHz ~ 500MHz..1.5GHz, cores: 2, core: cortex-a53}\n"
        "timer: {freq: 1.92MHz, evnti: 8}\ninterconnect: {freq: 533MHz}\n";
    const std::string plat = write("plat.yaml", plat_text);
    write("case.yaml",
          "include: plat.yaml\nrun: {duration: 1ms, seed: 1}\n"
          "workload:\n  program: locks/ticket_llsc.s\n"
          "  params: {INSIDE: 200, INSIDE_JITTER: 20, OUTSIDE: 300, OUTSIDE_JITTER: 20}\n"
          "  threads: [{core: c.0}, {core: c.1}]\n");
    write_cases_from_truth("known", "{kind: big_rate, factor: 1.1}");
    if (HasFatalFailure()) return;
    // --dry-run reports and leaves the platform alone.
    auto r = run({"calibrate", "plat.yaml", "--file", "cases.yaml", "-n", "16", "--duration", "1ms", "-j", "2", "--out", "cal", "--dry-run"});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_EQ(slurp(plat), plat_text);
    EXPECT_NE(r.out.find("calibrated:\n  clusters.c.freq: "), std::string::npos) << r.out;
    // For real (resumes the same runs): the block is written back.
    r = run({"calibrate", "plat.yaml", "--file", "cases.yaml", "-n", "16", "--duration", "1ms", "-j", "2", "--out", "cal"});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const std::string text = slurp(plat);
    EXPECT_EQ(text.rfind(plat_text, 0), 0u) << "the platform's own lines stay as they were";
    std::smatch m;
    const std::string f = R"(([0-9.]+)(MHz|GHz))";
    ASSERT_TRUE(std::regex_search(text, m, std::regex("clusters\\.c\\.freq: " + f + " ~ " + f + "\\.\\." + f))) << text;
    auto mhz = [&](int i) { return std::stod(m[i]) * (m[i + 1] == "GHz" ? 1000 : 1); };
    const double nominal = mhz(1), lo = mhz(3), hi = mhz(5);
    EXPECT_LE(lo, nominal);
    EXPECT_LE(nominal, hi);
    EXPECT_GE(lo, 800);   // far below the truth: excluded
    EXPECT_LE(hi, 1200);  // far above: excluded
    EXPECT_LE(lo, 1040);  // near the truth: kept
    EXPECT_GE(hi, 960);
    EXPECT_NE(text.find("conditioned on the cases of cases.yaml: known."), std::string::npos) << text;
    const json report = read_json("cal/calibration.json");
    EXPECT_EQ(report["draws"], 16);
    EXPECT_GE(report["kept"].get<int>(), 1);
    EXPECT_LT(report["kept"].get<int>(), 16);
    // How likely the narrowing is by chance: the extent of k uniform draws
    // within the kept width, k w^(k-1) - (k-1) w^k (Beta(k-1, 2)).
    {
        const double k = report["kept"].get<double>(), w = report["narrowed"][0]["width_kept"].get<double>();
        const double p = k < 2 ? 1.0 : k * std::pow(w, k - 1) - (k - 1) * std::pow(w, k);
        EXPECT_NEAR(report["narrowed"][0]["by_chance"].get<double>(), p, 1e-9);
        EXPECT_NE(r.out.find("by chance"), std::string::npos) << r.out;
    }
    // The calibrated range is what configs including the platform now use.
    r = run({"params", "--ranges", "case.yaml"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("before calibration"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("500MHz..1.5GHz"), std::string::npos) << r.out;
    // An ensemble of the case takes the clock from the kept draws, in turn.
    std::set<std::string> kept_freqs;
    for (const auto& mm : report["members"])
        if (mm["kept"].get<bool>()) kept_freqs.insert(mm["draws"]["clusters.c.freq"].get<std::string>());
    r = run({"predict", "case.yaml", "-n", "4", "-j", "2", "--out", "pred"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json ens = read_json("pred/ensemble.json");
    ASSERT_EQ(ens["uncertain"][0]["path"], "clusters.c.freq");
    std::set<std::uint64_t> kept_hz;
    for (const auto& k : kept_freqs) kept_hz.insert(static_cast<std::uint64_t>(std::llround(std::stod(k) * (k.find("GHz") != std::string::npos ? 1e9 : 1e6))));
    for (const auto& row : ens["draws"]) EXPECT_EQ(kept_hz.count(row[0].get<std::uint64_t>()), 1u) << row[0];
    // Members sharing a draw count once for the sensitivity's chance level.
    const json pred = read_json("pred/prediction.json");
    const std::size_t distinct = std::min<std::size_t>(4, kept_hz.size());
    EXPECT_EQ(pred["distinct_draws"].get<std::size_t>(), distinct);
    EXPECT_NEAR(pred["chance_level"].get<double>(), 2 / std::sqrt(static_cast<double>(distinct)), 1e-12);
    // A value drawn per member beside it has its own level: every member counts.
    r = run({"predict", "case.yaml", "-n", "4", "-j", "2", "--out", "pred2", "--set",
             "interconnect.request_latency=4cycles ~ 2cycles..40cycles"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json pred2 = read_json("pred2/prediction.json");
    ASSERT_EQ(pred2["sensitivity"].size(), 2u);
    for (const auto& e : pred2["sensitivity"]) {
        const std::size_t k = e["path"] == "clusters.c.freq" ? distinct : 4;
        EXPECT_EQ(e["distinct_draws"].get<std::size_t>(), k) << e;
        EXPECT_NEAR(e["chance_level"].get<double>(), 2 / std::sqrt(static_cast<double>(k)), 1e-12) << e;
    }
    EXPECT_EQ(pred2["distinct_draws"].get<std::size_t>(), distinct);
    if (distinct < 4) {
        EXPECT_NE(r.out.find(" for the calibrated values, shared by the members in turn, 4 for those drawn per member"),
                  std::string::npos) << r.out;
    }
    // Calibrating again replaces the block: one `calibrated:` key.
    r = run({"calibrate", "plat.yaml", "--file", "cases.yaml", "-n", "16", "--duration", "1ms", "-j", "2", "--out", "cal"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string again = slurp(plat);
    EXPECT_EQ(again.find("calibrated:"), again.rfind("calibrated:"));
    // Bad input: exit 2, before running anything.
    expect_bad({"calibrate"}, "calibrate takes one PLATFORM file, got 0");
    expect_bad({"calibrate", "nothere.yaml"}, "nothere.yaml: no such platform file");
    expect_bad({"calibrate", "plat.yaml", "--file", "cases.yaml", "-n", "2"}, "--draws");
    write("other.yaml", plat_text);
    expect_bad({"calibrate", "other.yaml", "--file", "cases.yaml"}, "no case of cases.yaml uses other.yaml");
}

// `cohsim calibrate` checks the platform's core-to-core figures
// (references.yaml) per draw beside its cases. A value the lock case cannot
// see (its two cores' SCU snoop hop, with a check of x/10 that every draw
// passes) is pinned by the hand-off time alone: a "measurement" made by
// `cohsim c2c` at a known hop of 8 cycles, then a prior of 1..16 cycles.
// The kept draws lie around 8 and exclude the prior's ends; without the
// references (--no-references) every draw is kept.
TEST_F(Cli, CalibrateKeepsOnlyTheDrawsThatMatchTheCoreToCoreFigures) {
    write_loose_lock_case("c: {freq: 1GHz, cores: 2, core: cortex-a53,\n"
                          "      scu: {request_latency: 2cycles, snoop_latency: 8cycles ~ 1cycle..16cycles}}");
    if (HasFatalFailure()) return;
    // The synthetic measurement: the hand-off time at the true hop.
    auto r = run({"c2c", "plat.yaml", "-j", "2", "--out", "c2c-truth"});
    ASSERT_EQ(r.status, 0) << r.err;
    const double ns = read_json("c2c-truth/c2c.json")["groups"][0]["mean_ns"].get<double>();
    ASSERT_GT(ns, 0);
    // references.yaml in the working directory is the one c2c --check reads.
    write("references.yaml", "plat:\n  c2c:\n    - {pairs: c, measured: " + std::to_string(ns) + "ns.." + std::to_string(ns) +
                                 "ns, tolerance: 10%, source: \"the simulator at 8 cycles\"}\n");
    auto kept_range = [&](const std::vector<std::string>& extra) {
        std::vector<std::string> args = {"calibrate", "plat.yaml", "--file", "cases.yaml", "-n", "16", "--duration", "1ms",
                                         "-j", "2", "--out", "cal", "--dry-run"};
        args.insert(args.end(), extra.begin(), extra.end());
        auto res = run(args);
        EXPECT_EQ(res.status, 0) << res.err << res.out;
        std::smatch m;
        EXPECT_TRUE(std::regex_search(res.out, m, std::regex(R"(snoop_latency: (\d+)cycles? ~ (\d+)cycles?\.\.(\d+)cycles?)")))
            << res.out;
        return m.empty() ? std::pair<int, int>{0, 0} : std::pair<int, int>{std::stoi(m[2]), std::stoi(m[3])};
    };
    const auto [lo, hi] = kept_range({});
    EXPECT_GT(lo, 1) << "a hop far below the truth is excluded";
    EXPECT_LT(hi, 16) << "a hop far above the truth is excluded";
    EXPECT_LE(lo, 8);
    EXPECT_GE(hi, 8);
    const json report = read_json("cal/calibration.json");
    EXPECT_LT(report["kept"].get<int>(), 16);
    EXPECT_EQ(report["members"][0]["references"][0]["check"], "c2c c");
    const auto [lo_all, hi_all] = kept_range({"--no-references"});
    EXPECT_LE(lo_all, 2);
    EXPECT_GE(hi_all, 15);
    EXPECT_EQ(read_json("cal/calibration.json")["kept"].get<int>(), 16);
}

// `cohsim calibrate` checks the platform's load-to-use figures too, and runs
// the cases only for the draws that match the published figures: a value the
// lock case hardly sees (the L2's latency, with a case check every draw
// passes) is pinned by a latmem "measurement" made at 10 cycles, then a prior
// of 1..32 cycles. Oracle for the screening: a run without the references
// runs every draw's cases, and the draws kept with them are exactly those
// kept without them whose figures matched, with the same case results.
TEST_F(Cli, CalibrateChecksTheLoadToUseFiguresBeforeRunningTheCases) {
    write_loose_lock_case("c: {freq: 1GHz, cores: 2, core: cortex-a53, l1: {size: 16KiB},\n"
                          "      l2: {size: 512KiB, latency: 10cycles ~ 1cycle..32cycles}}");
    if (HasFatalFailure()) return;
    auto r = run({"latmem", "plat.yaml", "--sizes", "128KiB", "-j", "1", "--out", "lm-truth"});
    ASSERT_EQ(r.status, 0) << r.err;
    const double ns = read_json("lm-truth/latmem.json")["points"][0]["ns"].get<double>();
    ASSERT_GT(ns, 10.0) << "an L2 hit: more than the L1's 3 cycles at 1 GHz";
    write("references.yaml", "plat:\n  latmem:\n    - {core: c, size: 128KiB, measured: " + std::to_string(ns) + "ns.." +
                                 std::to_string(ns) + "ns, tolerance: 5%, source: \"the simulator at 10 cycles\"}\n");
    const std::vector<std::string> args = {"calibrate", "plat.yaml", "--file", "cases.yaml", "-n", "16", "--duration", "1ms",
                                           "-j", "2", "--dry-run"};
    auto with = args, without = args;
    with.insert(with.end(), {"--out", "cal"});
    without.insert(without.end(), {"--out", "cal-all", "--no-references"});
    r = run(with);
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_NE(r.err.find("latmem --check --core c.0"), std::string::npos) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(l2\.latency: (\d+)cycles? ~ (\d+)cycles?\.\.(\d+)cycles?)"))) << r.out;
    EXPECT_GT(std::stoi(m[2]), 1) << "an L2 far faster than measured is excluded";
    EXPECT_LT(std::stoi(m[3]), 32) << "an L2 far slower than measured is excluded";
    EXPECT_LE(std::stoi(m[2]), 10);
    EXPECT_GE(std::stoi(m[3]), 10);
    const json screened = read_json("cal/calibration.json");
    // Run again into the same --out, as after an interruption: nothing
    // finished runs again (each draw's latmem finds its point done, and so
    // do the case's runs) and the report is the same.
    r = run(with);
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const std::string log = slurp(m_dir / "cal" / "latmem-c" / "0000.log");
    EXPECT_NE(log.find("1 already done, 0 to run"), std::string::npos) << log;
    EXPECT_FALSE(std::regex_search(r.err, std::regex("[^0-9]0 already done"))) << r.err;
    EXPECT_NE(r.err.find(" already done, 0 to run"), std::string::npos) << r.err;
    EXPECT_EQ(read_json("cal/calibration.json")["members"], screened["members"]);
    r = run(without);
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const json all = read_json("cal-all/calibration.json");
    ASSERT_EQ(screened["members"].size(), 16u);
    std::size_t ran = 0;
    for (std::size_t i = 0; i < 16; ++i) {
        const json& s = screened["members"][i];
        const json& a = all["members"][i];
        ASSERT_EQ(s["draws"], a["draws"]) << "the same hypercube";
        ASSERT_EQ(s["references"].size(), 1u);
        EXPECT_EQ(s["references"][0]["check"], "latmem c 128KiB");
        const bool matched = s["references"][0]["result"] == "PASS";
        EXPECT_EQ(s["cases_run"].get<int>(), matched ? 1 : 0) << "member " << i;
        EXPECT_EQ(s["runs"].size(), matched ? 3u : 0u) << "member " << i;
        EXPECT_EQ(a["cases_run"].get<int>(), 1);
        EXPECT_EQ(s["kept"].get<bool>(), matched && a["kept"].get<bool>()) << "member " << i;
        if (matched) {
            EXPECT_EQ(s["runs"], a["runs"]) << "member " << i << ": the same runs, the same results";
        }
        ran += matched;
    }
    EXPECT_GT(ran, 0u);
    EXPECT_LT(ran, 16u);
    EXPECT_NE(r.out.find("16 of 16 draws pass every check"), std::string::npos) << r.out;
}

// `cohsim calibrate` runs a case only for the draws that passed every case
// before it (rejection: a draw that failed one cannot be kept). Two cases on
// one lock run: `known` (the big core's rate within x/1.1 of a measurement
// made at 1GHz, which rejects most of a 500MHz..1.5GHz prior) before `loose`
// (x10, which every draw passes). Oracle: calibrating on each case alone,
// where every draw runs it; the two-case run keeps exactly the draws both
// keep, and runs `loose` for exactly the draws `known` alone keeps.
TEST_F(Cli, CalibrateRunsALaterCaseOnlyForTheDrawsThatPassedTheEarlierOnes) {
    write("plat.yaml",
          "clusters:\n  c: {freq: 1GHz ~ 500MHz..1.5GHz, cores: 2, core: cortex-a53}\n"
          "timer: {freq: 1.92MHz, evnti: 8}\ninterconnect: {freq: 533MHz}\n");
    write("case.yaml",
          "include: plat.yaml\nrun: {duration: 1ms, seed: 1}\n"
          "workload:\n  program: locks/ticket_llsc.s\n  params: {INSIDE: 200, OUTSIDE: 300}\n"
          "  threads: [{core: c.0}, {core: c.1}]\n");
    write_cases_from_truth("known", "{kind: big_rate, factor: 1.1}");
    if (HasFatalFailure()) return;
    const std::string known = slurp(m_dir / "cases.yaml");
    const std::string entry = known.substr(known.find("  - id: known"));
    std::string loose = std::regex_replace(entry, std::regex("id: known"), "id: loose");
    loose = std::regex_replace(loose, std::regex("factor: 1\\.1"), "factor: 10");
    write("known.yaml", known);
    write("loose.yaml", "cases:\n" + loose);
    write("both.yaml", known + loose);
    auto kept = [&](const std::string& file) {
        const auto r = run({"calibrate", "plat.yaml", "--file", file, "-n", "16", "--duration", "1ms", "-j", "2", "--out",
                            "cal-" + file, "--dry-run"});
        EXPECT_EQ(r.status, 0) << r.err << r.out;
        std::set<int> k;
        const json report = read_json("cal-" + file + "/calibration.json");
        for (const auto& mb : report["members"])
            if (mb["kept"].get<bool>()) k.insert(mb["member"].get<int>());
        return k;
    };
    const std::set<int> k_known = kept("known.yaml"), k_loose = kept("loose.yaml"), k_both = kept("both.yaml");
    EXPECT_GT(k_known.size(), 0u);
    EXPECT_LT(k_known.size(), 16u) << "the early case rejects some draws, or the test shows nothing";
    EXPECT_EQ(k_loose.size(), 16u);
    std::set<int> expect;
    for (int i : k_known)
        if (k_loose.count(i)) expect.insert(i);
    EXPECT_EQ(k_both, expect);
    const json both = read_json("cal-both.yaml/calibration.json");
    std::size_t ran_loose = 0;
    for (const auto& mb : both["members"]) {
        const bool passed_known = k_known.count(mb["member"].get<int>()) > 0;
        EXPECT_EQ(mb["cases_run"].get<int>(), passed_known ? 2 : 1) << mb.dump();
        ran_loose += passed_known;
    }
    std::size_t points = 0;
    for (const auto& e : fs::directory_iterator(m_dir / "cal-both.yaml" / "loose" / "case" / "points"))
        points += fs::exists(e.path() / "result.json");
    EXPECT_EQ(points, 3 * ran_loose) << "three runs of each draw that passed `known`, no more";
}

// End-to-end, `cohsim sweep`: grids, members, resuming after a kill, failing
// points, job arrays.
#include "e2e/cli_fixture.h"

#include "app/sweep.h"

// ---- cohsim sweep ----------------------------------------------------------

TEST_F(Cli, SweepGridIsDeterministicAtAnyParallelism) {
    ASSERT_EQ(run(with(small_sweep, {"-j", "1", "--out", "a"})).status, 0);
    ASSERT_EQ(run(with(small_sweep, {"-j", "2", "--out", "b"})).status, 0);
    const std::string a = slurp(m_dir / "a" / "results.csv");
    EXPECT_EQ(a, slurp(m_dir / "b" / "results.csv"));
    // 4 points x 2 busy cores, a header; the swept values first (a frequency also in Hz).
    EXPECT_EQ(std::count(a.begin(), a.end(), '\n'), 9);
    EXPECT_EQ(a.rfind("point,clusters.little.freq,clusters.little.freq_hz,workload.threads.1.cpu_relax,core,", 0), 0u) << a;
    EXPECT_NE(a.find("\n3,1248MHz,1248000000,wfe_backoff,big.3,big,cortex-a73,1800,"), std::string::npos) << a;
    const json m = read_json("a/sweep.json");
    EXPECT_EQ(m["summary"]["done"], 4);
    EXPECT_EQ(m["points"][1]["values"]["workload.threads.1.cpu_relax"], "wfe_backoff");
    // Each point keeps its own results and effective config.
    EXPECT_EQ(read_json("a/points/0003/result.json")["config"]["clusters"]["little"]["freq"], "1.248GHz");
    // The same command again runs nothing.
    const auto again = run(with(small_sweep, {"-j", "2", "--out", "a"}));
    EXPECT_EQ(again.status, 0);
    EXPECT_NE(again.err.find("4 already done, 0 to run"), std::string::npos) << again.err;
    EXPECT_EQ(slurp(m_dir / "a" / "results.csv"), a);
    // Another sweep in the same directory is refused.
    expect_bad({"sweep", "--vary", "run.seed=1,2", "--out", "a"}, "holds another sweep");
}

// The same command after a file its config includes changed: the finished
// points ran another platform, so they are not taken as this sweep's. An
// edit no run sees (a comment, a value the sweep sets) changes nothing.
TEST_F(Cli, SweepRefusesPointsThatRanAnEarlierVersionOfItsConfig) {
    write("silicon.yaml", slurp(fs::path(COHSIM_SOURCE_DIR) / "configs" / "platforms" / "rpi2_4xa7.yaml"));
    write("case.yaml", "include: silicon.yaml\nrun: {duration: 20us}\n");
    const std::vector<std::string> sweep = {"sweep", "case.yaml", "--vary", "run.seed=1,2"};
    const auto args = with(sweep, {"--out", "s"});
    ASSERT_EQ(run(args).status, 0);
    const std::string digest = read_json("s/sweep.json")["config_digest"];
    EXPECT_EQ(digest.size(), 16u);
    EXPECT_NE(run(args).err.find("2 already done, 0 to run"), std::string::npos);
    // A comment, or a value every run sets, changes no run: they resume.
    write("silicon.yaml", slurp(m_dir / "silicon.yaml") + "# checked against the board\nrun: {seed: 99}\n");
    EXPECT_NE(run(args).err.find("2 already done, 0 to run"), std::string::npos);
    EXPECT_EQ(read_json("s/sweep.json")["config_digest"], digest);
    // The included file's L1 gets slower: the config the points ran is gone.
    std::string silicon = slurp(m_dir / "silicon.yaml");
    const auto at = silicon.find("hit_latency: 3cycles");
    ASSERT_NE(at, std::string::npos);
    silicon.replace(at, 20, "hit_latency: 4cycles");
    write("silicon.yaml", silicon);
    const auto r = run(args);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("ran with another version of"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("config_digest differs"), std::string::npos) << r.err;
    // Into a new directory it runs, with another digest.
    ASSERT_EQ(run(with(sweep, {"--out", "t"})).status, 0);
    EXPECT_NE(read_json("t/sweep.json")["config_digest"], digest);
}

// The same for the program a workload names: an edited file under the same
// name is another program (here a spin loop that gains an unreached line).
TEST_F(Cli, SweepRefusesPointsThatRanAnEarlierVersionOfItsProgram) {
    const std::string prog = ".text\nmain:\nspin:\n    add x1, x1, #1\n    b spin\n";
    write("lock.s", prog);
    const std::vector<std::string> args = {"sweep",         "--set",  "workload={program: lock.s, threads: [{core: little.0}]}",
                                           "--set",         "run.duration=20us",
                                           "--vary",        "run.seed=1,2",
                                           "--out",         "p"};
    ASSERT_EQ(run(args).status, 0);
    EXPECT_NE(run(args).err.find("2 already done, 0 to run"), std::string::npos);
    write("lock.s", prog + "    halt\n");
    const auto r = run(args);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("config_digest differs"), std::string::npos) << r.err;
}

// A CSV file as rows of column -> field.
std::vector<std::map<std::string, std::string>> csv_rows(const std::string& text) {
    std::vector<std::vector<std::string>> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(cohsim::csv_split(line));
    std::vector<std::map<std::string, std::string>> rows;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::map<std::string, std::string> r;
        for (std::size_t j = 0; j < lines[0].size() && j < lines[i].size(); ++j) r[lines[0][j]] = lines[i][j];
        rows.push_back(r);
    }
    return rows;
}

// A frequency sweep as bands, where a closed form knows the answer: a lone
// core whose iteration is INSIDE + OUTSIDE cycles of work (and a few dozen
// cycles of lock code, L1 hits) runs f / (INSIDE + OUTSIDE) iterations a
// second. INSIDE is uncertain (10000 ~ 5000..15000), OUTSIDE 10000: at f the
// rate lies in f/25000..f/15000, the nominal f/20000; each point's band must
// contain the nominal and stay inside the range's extremes, with every
// member drawing the same INSIDE at every point (so the band scales with f).
TEST_F(Cli, SweepWithMembersGivesEachPointItsBand) {
    const std::vector<std::string> args = {
        "sweep", "--vary", "clusters.big.freq=500MHz,1GHz,2GHz", "--members", "8", "--set", "workload.threads=[{core: big.0}]",
        "--set", "workload.params={INSIDE: 10000 ~ 5000..15000, OUTSIDE: 10000}", "--set", "activity={}",
        "--set", "run.noise=false", "--set", "run.duration=20ms", "--out", "bands"};
    const auto r = run(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto rows = csv_rows(slurp(m_dir / "bands" / "results.csv"));
    ASSERT_EQ(rows.size(), 3u);  // one row per point (one core)
    for (const auto& row : rows) {
        const double f = std::stod(row.at("clusters.big.freq_hz"));
        const double med = std::stod(row.at("acq_per_s")), lo = std::stod(row.at("acq_per_s_p5")),
                     hi = std::stod(row.at("acq_per_s_p95"));
        EXPECT_EQ(row.at("members"), "8");
        EXPECT_LE(lo, f / 20000) << row.at("clusters.big.freq");
        EXPECT_GE(hi, f / 20000) << row.at("clusters.big.freq");
        EXPECT_GE(lo, f / 25000 * 0.99);  // the lock code's cycles and the rate's whole count: under 1%
        EXPECT_LE(hi, f / 15000 * 1.01);
        // The median member draws INSIDE from the middle two of 8 strata: 8750..11250.
        EXPECT_GE(med, f / 21250 * 0.99);
        EXPECT_LE(med, f / 18750 * 1.01);
        EXPECT_EQ(row.at("verdict"), "fair");
        EXPECT_EQ(row.at("p_fair"), "1");
        EXPECT_EQ(row.at("p_STARVED"), "0");
    }
    // Twice the clock, twice the rate, member by member (the same draws).
    EXPECT_NEAR(std::stod(rows[2].at("acq_per_s")) / std::stod(rows[1].at("acq_per_s")), 2.0, 0.02);
    const auto members = csv_rows(slurp(m_dir / "bands" / "members.csv"));
    ASSERT_EQ(members.size(), 24u);
    for (const auto& m : members) {
        const auto& same = members[std::stoul(m.at("member"))];  // that member at point 0
        EXPECT_EQ(m.at("workload.params.INSIDE"), same.at("workload.params.INSIDE"));
        EXPECT_EQ(m.at("run.seed"), same.at("run.seed"));
        EXPECT_EQ(std::stoul(m.at("run")), std::stoul(m.at("point")) * 8 + std::stoul(m.at("member")));
    }
    EXPECT_EQ(read_json("bands/sweep.json")["summary"]["grid_points"], 3);
    // Resumable like any sweep; a swept seed and members do not mix.
    const auto again = run(args);
    EXPECT_NE(again.err.find("24 already done, 0 to run"), std::string::npos) << again.err;
    expect_bad({"sweep", "--vary", "run.seed=1,2", "--members", "4", "--out", "x"}, "--members gives each member its own seed");
    expect_bad({"sweep", "--vary", "run.seed=1,2", "--members", "1", "--out", "x"}, "--members");
}

TEST_F(Cli, SweepKilledAndResumedEqualsUninterrupted) {
    const auto args = std::vector<std::string>{"sweep", "--vary", "run.seed=1:6:1", "--set", "run.duration=30ms", "-j", "1"};
    ASSERT_EQ(run(with(args, {"--out", "whole"})).status, 0);
    const pid_t pid = spawn(COHSIM_BINARY, with(args, {"--out", "cut"}));
    // Kill it with SIGKILL once some points are done and the next is running.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(m_dir / "cut" / "points" / "0001") && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ::kill(pid, SIGKILL);
    wait_for(pid);
    std::map<std::string, fs::file_time_type> finished;
    for (const auto& e : fs::directory_iterator(m_dir / "cut" / "points"))
        if (fs::is_directory(e) && e.path().extension().empty()) finished[e.path().filename()] = fs::last_write_time(e.path() / "cores.csv");
    ASSERT_GE(finished.size(), 2u);
    ASSERT_LT(finished.size(), 6u) << "the sweep finished before the kill";
    for (const auto& [name, t] : finished) EXPECT_TRUE(fs::exists(m_dir / "cut" / "points" / name / "result.json")) << name;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // its orphaned run, if any, dies with it
    const auto resumed = run(with(args, {"--out", "cut"}));
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.err.find(std::to_string(finished.size()) + " already done"), std::string::npos) << resumed.err;
    for (const auto& [name, t] : finished)  // no finished point ran twice
        EXPECT_EQ(fs::last_write_time(m_dir / "cut" / "points" / name / "cores.csv"), t) << name;
    EXPECT_EQ(slurp(m_dir / "cut" / "results.csv"), slurp(m_dir / "whole" / "results.csv"));
    for (const auto& e : fs::directory_iterator(m_dir / "cut" / "points"))
        EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

TEST_F(Cli, SweepRecordsAFailingPointAndGoesOn) {
    // The watchdog turns point 1 (a 100000-cycle hold window) into a failure.
    const auto r = run({"sweep", "--vary", "clusters.little.exclusive.hold_window=0cycles,100000cycles,0cycles", "--set",
                        "run.duration=1ms", "--set", "run.deadlock_after=1us", "--out", "f"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("2 of 3 points done, 1 failed"), std::string::npos) << r.out;
    EXPECT_TRUE(fs::exists(m_dir / "f" / "points" / "0001.error"));
    EXPECT_NE(slurp(m_dir / "f" / "points" / "0001.error").find("protocol deadlock"), std::string::npos);
    const json m = read_json("f/sweep.json");
    EXPECT_EQ(m["points"][1]["state"], "failed");
    EXPECT_EQ(m["points"][2]["state"], "done");
}

TEST_F(Cli, SweepChecksEveryPointBeforeRunningAny) {
    // A typo in a swept path: exit 2 at once, naming the point and the key,
    // with no point run; the corrected sweep then runs in the same directory.
    expect_bad({"sweep", "--vary", "clusters.little.frq=1GHz,2GHz", "--set", "run.duration=1ms", "--out", "t"},
               "point 0 (clusters.little.frq=1GHz) is not a valid config, so no point ran: --vary clusters.little.frq:1:1: "
               "clusters.little.frq: unknown key 'frq'; did you mean 'freq'?");
    EXPECT_FALSE(fs::exists(m_dir / "t" / "points" / "0000.error"));
    // A value only one point gets wrong is found too (here the second).
    expect_bad({"sweep", "--vary", "clusters.little.l1.size=32KiB,48KiB", "--set", "run.duration=1ms", "--out", "t"},
               "point 1 (clusters.little.l1.size=48KiB) is not a valid config");
    const auto ok = run({"sweep", "--vary", "clusters.little.freq=1GHz,2GHz", "--set", "run.duration=1ms", "--out", "t"});
    EXPECT_EQ(ok.status, 0) << ok.err;
    // A directory whose points all failed can hold another sweep; one with a
    // finished point cannot.
    const auto bad = run({"sweep", "--vary", "clusters.little.exclusive.hold_window=100000cycles", "--set", "run.duration=1ms",
                          "--set", "run.deadlock_after=1us", "--out", "g"});
    EXPECT_EQ(bad.status, 1);
    const auto reuse = run({"sweep", "--vary", "run.seed=1,2", "--set", "run.duration=1ms", "--out", "g"});
    EXPECT_EQ(reuse.status, 0) << reuse.err;
    EXPECT_EQ(read_json("g/sweep.json")["summary"]["done"], 2);
    EXPECT_FALSE(fs::exists(m_dir / "g" / "points" / "0000.error"));
    expect_bad({"sweep", "--vary", "run.seed=3", "--set", "run.duration=1ms", "--out", "g"}, "with finished points");
}

TEST_F(Cli, SweepPointsOneByOneThenMerge) {
    // What a Slurm array does: --emit writes the script, each task runs --point K, --merge aggregates.
    const auto e = run(with(small_sweep, {"--out", "s", "--emit", "slurm"}));
    ASSERT_EQ(e.status, 0) << e.err;
    const std::string sb = slurp(m_dir / "s" / "sweep.sbatch");
    EXPECT_NE(sb.find("#SBATCH --array=0-3"), std::string::npos) << sb;
    EXPECT_NE(sb.find("--point \"$SLURM_ARRAY_TASK_ID\""), std::string::npos) << sb;
    for (int k = 0; k < 4; ++k) ASSERT_EQ(run(with(small_sweep, {"--out", "s", "--point", std::to_string(k)})).status, 0);
    const auto m = run({"sweep", "--merge", "s"});
    EXPECT_EQ(m.status, 0) << m.err;
    ASSERT_EQ(run(with(small_sweep, {"--out", "local"})).status, 0);
    EXPECT_EQ(slurp(m_dir / "s" / "results.csv"), slurp(m_dir / "local" / "results.csv"));
    expect_bad(with(small_sweep, {"--out", "s", "--point", "9"}), "--point 9: the sweep has points 0 to 3");
    expect_bad({"sweep"}, "sweep needs at least one --vary");
    expect_bad({"sweep", "--vary", "a=2GHz:1GHz:1MHz"}, "the range starts above its end");
}

// ---- analysis-ready results (finding 8) and unfinished regions (finding 9) -

TEST_F(Cli, ResultsHaveNullsNumericSweptColumnsAndNoIdleRows) {
    ASSERT_EQ(run({"run", "--duration", "2ms", "-q", "--set", little_starts_late, "--out", "r"}).status, 0);
    const json j = read_json("r/result.json");
    for (const auto& c : j["cores"]) {
        if (c["id"] != "little.2") continue;
        ASSERT_EQ(c["lock"]["acquisitions"], 0);  // starved: no wait ended, so no statistic of the waits exists
        for (const char* k : {"min", "p50", "p99", "max", "mean", "sd"}) EXPECT_TRUE(c["lock"]["wait_ns"][k].is_null()) << k;
        EXPECT_GT(c["lock"]["longest_wait_ns"].get<double>(), 1.9e6);
    }
    // cores.csv: a row per core that runs a thread (the default runs little.2 and big.3 of 8 cores).
    const std::string csv = slurp(m_dir / "r" / "cores.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3) << csv;
    EXPECT_NE(csv.find("\nlittle.2,"), std::string::npos);
    EXPECT_NE(csv.find("\nbig.3,"), std::string::npos);
    // A swept value with a unit gets a numeric column in the base unit beside it.
    ASSERT_EQ(run({"sweep", "--set", "run.duration=1ms", "--vary", "clusters.little.freq=832MHz,1.248GHz", "--vary",
                   "workload.threads.1.cpu_relax=yield,wfe_backoff", "-j", "2", "--out", "s"}).status, 0);
    const std::string rows = slurp(m_dir / "s" / "results.csv");
    EXPECT_EQ(rows.rfind("point,clusters.little.freq,clusters.little.freq_hz,workload.threads.1.cpu_relax,core,", 0), 0u) << rows;
    EXPECT_NE(rows.find("\n0,832MHz,832000000,yield,little.2,"), std::string::npos) << rows;
    EXPECT_NE(rows.find("\n3,1.248GHz,1248000000,wfe_backoff,big.3,"), std::string::npos) << rows;
    EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 1 + 4 * 2);  // 4 points x 2 busy cores
}

// A sweep stopped by SIGTERM (or Ctrl-C) says so and how to go on, exits
// 130, keeps its finished points and leaves no partial point behind; the same
// command again runs only the missing ones. A sweep with an invalid point
// makes no folder at all.
TEST_F(Cli, AnInterruptedSweepSaysSoKeepsWhatFinishedAndResumes) {
    const std::vector<std::string> args = {"sweep", "--vary", "clusters.little.freq=600MHz:1.8GHz:100MHz", "--set",
                                           "run.duration=50ms", "--out", "s", "-j", "1"};
    const pid_t pid = spawn(COHSIM_BINARY, args);
    // Stop it once its first point is done.
    for (int i = 0; i < 6000 && !fs::exists(m_dir / "s" / "points" / "0000"); ++i) usleep(10'000);
    ASSERT_TRUE(fs::exists(m_dir / "s" / "points" / "0000"));
    kill(pid, SIGTERM);
    const result r = wait_for(pid);
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_NE(r.err.find("interrupted (SIGINT or SIGTERM): "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the same command again goes on from there"), std::string::npos) << r.err;
    std::size_t done = 0;
    for (const auto& e : fs::directory_iterator(m_dir / "s" / "points")) {
        EXPECT_NE(e.path().extension(), ".tmp") << e.path();
        done += e.path().extension().empty();
    }
    EXPECT_GE(done, 1u);
    EXPECT_LT(done, 13u);
    const result again = run(args);
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.err.find(std::to_string(done) + " already done, " + std::to_string(13 - done) + " to run"), std::string::npos)
        << again.err;
    const auto bad = run({"sweep", "--vary", "clusters.little.freq=1kHz,832MHz", "--out", "bad"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_FALSE(fs::exists(m_dir / "bad"));
}

// End-to-end, `cohsim run`: the table and the result files, determinism, bad
// input, interrupts, the watchdog, noise and interrupts, faults in both
// timings, --help and --version.
#include "e2e/cli_fixture.h"

TEST_F(Cli, DefaultRunPrintsTableAndWritesDocumentedJson) {
    const auto r = run({"run"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("acquisitions"), std::string::npos) << r.out;
    for (const char* id : {"little.2", "big.3"})  // the two cores of the default workload
        EXPECT_NE(r.out.find(id), std::string::npos) << id << "\n" << r.out;
    EXPECT_NE(r.out.find("simulated 100 ms"), std::string::npos) << r.out;
    // Times in words, rounded: 2^9 ticks of 1.92 MHz = 266.67 us.
    EXPECT_NE(r.out.find("event stream every 267 us, "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("e+0"), std::string::npos) << r.out;  // no exponents in the reasons

    const json j = read_json("cohsim-out/result.json");
    for (const char* key : {"cohsim_version", "seed", "config", "simulated_ns", "host_seconds", "sim_events", "cores"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["simulated_ns"].get<double>(), 1e8);
    EXPECT_EQ(j["seed"], 1);
    EXPECT_EQ(j["completed"], true);
    ASSERT_EQ(j["cores"].size(), 8u);
    EXPECT_EQ(j["cores"][0]["id"], "little.0");
    EXPECT_EQ(j["cores"][0]["cluster"], "little");
    EXPECT_EQ(j["cores"][0]["freq_mhz"].get<double>(), 832.0);
    EXPECT_EQ(j["cores"][7]["id"], "big.3");
    EXPECT_EQ(j["cores"][7]["freq_mhz"].get<double>(), 1800.0);
    EXPECT_EQ(j["config"]["clusters"]["big"]["freq"], "1.8GHz");
    // A run covers [0, 100 ms): stream events k * 266.67 us for k = 1..374
    // (event 375 falls exactly at 100 ms, the first instant after the run).
    // Every core hears each of them.
    EXPECT_EQ(j["components"]["timer"]["event_stream_ticks"], 374);
    EXPECT_EQ(j["cores"][3]["wakes_event_stream"], 374);  // little.3 is idle
    // The default is the 2017 starvation case: the big core takes the lock
    // about 1.75 M times a second, the little core is starved (docs/guide/calibration.md);
    // the per-core parts are nested.
    EXPECT_GT(j["cores"][7]["lock"]["acquisitions"].get<std::uint64_t>(), 100'000u);
    EXPECT_LT(j["cores"][2]["lock"]["acquisitions"].get<std::uint64_t>(), 100u);
    EXPECT_EQ(j["cores"][2]["lock"]["verdict"], "STARVED");
    EXPECT_EQ(j["cores"][7]["lock"]["verdict"], "DOMINANT");  // it shuts the little core out: not "fair"
    EXPECT_NE(r.out.find("little.2 STARVED"), std::string::npos) << r.out;
    EXPECT_EQ(j["cores"][2]["lock"]["wait_ns"]["count"], j["cores"][2]["lock"]["acquisitions"]);
    EXPECT_TRUE(j["cores"][2]["l1"].contains("misses"));
    for (const char* k : {"min", "p25", "p50", "p75", "p90", "p99", "max", "mean", "sd"})
        EXPECT_TRUE(j["cores"][2]["lock"]["wait_ns"].contains(k)) << k;
    const double share = j["cores"][2]["lock"]["share"].get<double>() + j["cores"][7]["lock"]["share"].get<double>();
    EXPECT_NEAR(share, 1.0, 1e-12);
    EXPECT_TRUE(j["cores"][2]["lock"].contains("verdict"));
    EXPECT_GE(j["fairness"]["jain"].get<double>(), 0.5);  // two cores: 0.5 = one takes everything
    EXPECT_LT(j["fairness"]["jain"].get<double>(), 0.51);
    // The CSV: a header and one row per core that runs a thread (idle cores
    // are left out), the acquisitions as in the JSON.
    const std::string csv = slurp(m_dir / "cohsim-out" / "cores.csv");
    EXPECT_EQ(csv.rfind("core,cluster,type,freq_mhz,acquisitions,share,verdict,", 0), 0u) << csv;
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
    EXPECT_EQ(csv.find("\nlittle.0,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",asleep_fraction,simulated_ns,seed\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",100000000,1\n"), std::string::npos) << csv;  // every row: the run's length and seed
    // Undefined figures are empty fields (NaN to pandas), not zeros: a core
    // that never got the lock has no wait percentiles.
    ASSERT_EQ(run({"run", "-q", "--set", little_starts_late, "--out", "late"}).status, 0);
    const std::string late = slurp(m_dir / "late" / "cores.csv");
    EXPECT_NE(late.find("\nlittle.2,little,cortex-a53,832,0,0,STARVED,,,"), std::string::npos) << late;
    EXPECT_NE(csv.find("\nlittle.2,little,cortex-a53,832," +
                       std::to_string(j["cores"][2]["lock"]["acquisitions"].get<std::uint64_t>()) + ","),
              std::string::npos)
        << csv;
    EXPECT_TRUE(j["components"].contains("interconnect"));
    // The busiest line is the lock's: the little core's reads, the big core's
    // upgrades, the little core's failed STXR upgrades.
    ASSERT_FALSE(j["lines"].empty());
    const json& lock = j["lines"][0];
    EXPECT_EQ(lock["symbol"], "lock");
    EXPECT_EQ(lock["address"], "0x10000040");
    EXPECT_EQ(lock["requests"].get<std::uint64_t>(),
              lock["gets"].get<std::uint64_t>() + lock["getm"].get<std::uint64_t>() + lock["upgrades"].get<std::uint64_t>());
    EXPECT_GT(lock["exclusive_fails"].get<std::uint64_t>(), 1000u);
    EXPECT_GT(lock["cross_cluster_transfers"].get<std::uint64_t>(), 1000u);
    EXPECT_NE(r.out.find("busiest lines"), std::string::npos);
    // The effective config is written beside the results and loads again.
    const auto c = run({"config", "cohsim-out/config.yaml"});
    ASSERT_EQ(c.status, 0) << c.err;
    const auto d = run({"config"});
    EXPECT_EQ(c.out, d.out);
}

TEST_F(Cli, SameConfigAndSeedGiveIdenticalResults) {
    const auto f = write("a.yaml", good);
    ASSERT_EQ(run({"run", f, "--json", "1.json", "-q"}).status, 0);
    ASSERT_EQ(run({"run", f, "--json", "2.json", "-q"}).status, 0);
    json a = read_json("1.json"), b = read_json("2.json");
    for (json* j : {&a, &b}) j->erase("host_seconds"), j->erase("command_line");
    EXPECT_EQ(a.dump(), b.dump());
    // The default scenario, with its lock loop and scheduler-free cores racing.
    ASSERT_EQ(run({"run", "--duration", "2ms", "--json", "3.json", "-q"}).status, 0);
    ASSERT_EQ(run({"run", "--duration", "2ms", "--json", "4.json", "-q"}).status, 0);
    json c = read_json("3.json"), d = read_json("4.json");
    for (json* j : {&c, &d}) j->erase("host_seconds"), j->erase("command_line");
    EXPECT_EQ(c.dump(), d.dump());
    EXPECT_GT(c["cores"][7]["lock"]["acquisitions"].get<std::uint64_t>(), 100u);
}

TEST_F(Cli, BadInputsExitTwoWithALocatedMessage) {
    const auto unknown = write("unknown.yaml", std::string(good) + "frequency: 1GHz\n");
    expect_bad({"run", unknown}, "unknown.yaml:7:1: frequency: unknown key 'frequency'");
    const auto type = write("type.yaml", std::string(good) + "description: [a, b]\n");
    expect_bad({"run", type}, "type.yaml:7:14: description: found a list (expected a string)");
    const auto unit = write("unit.yaml", "clusters: {little: {freq: 832}}\ntimer: {freq: 1.92MHz, evnti: 8}\n");
    expect_bad({"run", unit}, "unit.yaml:1:27: clusters.little.freq: '832' has no unit");
    const auto range = write("range.yaml", "clusters: {little: {freq: 0MHz}}\ntimer: {freq: 1.92MHz, evnti: 8}\n");
    expect_bad({"run", range}, "range.yaml:1:27: clusters.little.freq: '0MHz' is out of range");
    const auto missing = write("missing.yaml", "clusters: {little: {cores: 2}}\ntimer: {freq: 1.92MHz, evnti: 8}\n");
    expect_bad({"run", missing}, "missing.yaml:1:20: clusters.little.freq: required key is missing");
    expect_bad({"run", "nosuch.yaml"}, "nosuch.yaml: no such config file, neither from here nor among the shipped configs");
    const auto malformed = write("malformed.yaml", "clusters: {little: [}\n");
    expect_bad({"run", malformed}, "malformed.yaml:1:");
    write("cyc_b.yaml", "include: cyc_a.yaml\n");
    const auto cyc = write("cyc_a.yaml", "include: cyc_b.yaml\n");
    expect_bad({"run", cyc}, "include cycle: cyc_a.yaml -> cyc_b.yaml -> cyc_a.yaml");
    expect_bad({"run", "--duration", "0s"}, "--duration:1:14: run.duration: '0s' is out of range");
    expect_bad({"run", "--duration", "20"}, "run.duration: '20' has no unit");
    expect_bad({"run", "--seed", "-1"}, "run.seed: '-1' is not a whole number");
    expect_bad({"run", "--set", "clusters.little.freq=fast"}, "--set #1:1:22: clusters.little.freq: 'fast'");
    expect_bad({"run", "--frobnicate"}, "unrecognised option '--frobnicate'");
    expect_bad({"run", "a.yaml", "b.yaml"}, "takes at most one CONFIG");
    expect_bad({"simulate"}, "unknown command 'simulate'");
    expect_bad({"run", "-q", "-v"}, "contradict");
    const auto prog = write("bad.s", "main:\n    ldxr w1, [w0]\n");
    expect_bad({"run", "--set", "workload.program=" + prog, "--set", "workload.params={}"}, "bad.s:2:15: ldxr w1, [w0]: the base must be an x register");
    expect_bad({"run", "--set", "workload.program=nosuch.s"}, "nosuch.s: workload.program: no such program: looked in ., the built-in library");
    expect_bad({"run", "--set", "workload.threads.0.params={NOPE: 1}"}, "NOPE: the program has no .equ NOPE to set");
}

TEST_F(Cli, HelpTeachesEveryCommand) {
    const auto top = run({"--help"});
    EXPECT_EQ(top.status, 0);
    EXPECT_NE(top.out.find("examples:"), std::string::npos);
    for (const char* cmd : {"run", "config", "params", "validate", "plot", "sweep", "protocol", "litmus", "compare", "report", "predict", "c2c", "latmem"}) {
        const auto r = run({cmd, "--help"});
        EXPECT_EQ(r.status, 0) << cmd;
        EXPECT_NE(r.out.find("usage: cohsim " + std::string(cmd)), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("example"), std::string::npos) << r.out;
        // Each heading once (a help text and the option table both printing "options:" read badly).
        const auto first = r.out.find("\noptions:\n");
        if (first != std::string::npos) {
            EXPECT_EQ(r.out.find("\noptions:\n", first + 1), std::string::npos) << cmd;
        }
    }
    const auto run_help = run({"run", "--help"});
    for (const char* opt : {"--set", "--duration", "--seed", "--json", "--out", "--verbose", "--quiet"})
        EXPECT_NE(run_help.out.find(opt), std::string::npos) << opt;
    EXPECT_EQ(run({}).status, 2);  // no command: usage on stdout, exit 2
}

TEST_F(Cli, InterruptKeepsTheResultsSoFar) {
    // A stream event every 2 ns on 8 cores: an hour of simulated time would take
    // hours, so the run is certainly still going when SIGINT arrives.
    const pid_t pid = spawn(COHSIM_BINARY, {"run", "--set", "timer.freq=1GHz", "--set", "timer.evnti=0",
                                            "--duration", "3600s", "-q"});
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    kill(pid, SIGINT);
    const auto r = wait_for(pid);
    EXPECT_EQ(r.status, 130) << r.err;
    const json j = read_json("cohsim-out/result.json");
    EXPECT_EQ(j["completed"], false);
    EXPECT_GT(j["simulated_ns"].get<double>(), 0.0);
    EXPECT_LT(j["simulated_ns"].get<double>(), 3.6e12);
    // The counts are those of the time simulated, [0, T): one tick every 2 ns,
    // at 2k ns for k >= 1 and 2k < T.
    const double ticks = j["components"]["timer"]["event_stream_ticks"].get<double>();
    EXPECT_EQ(ticks, std::ceil(j["simulated_ns"].get<double>() / 2.0) - 1);
    EXPECT_TRUE(fs::exists(m_dir / "cohsim-out" / "config.yaml"));
}

TEST_F(Cli, DeadlockWatchdogStopsWithADiagnostic) {
    // A 100000-cycle hold window keeps big.3's request waiting ~120 us; with
    // deadlock_after at 1 us the watchdog must call that a deadlock.
    const auto r = run({"run", "--duration", "1ms", "-q", "--set", "clusters.little.exclusive.hold_window=100000cycles",
                        "--set", "run.deadlock_after=1us"});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("protocol deadlock: core "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" for line 0x10000040: its L1 holds it in "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("; the home has it in "), std::string::npos) << r.err;
    const json j = read_json("cohsim-out/result.json");  // what was simulated is kept
    EXPECT_EQ(j["completed"], false);
    EXPECT_NE(j["error"].get<std::string>().find("protocol deadlock"), std::string::npos);
}

TEST_F(Cli, ADeadlockStopsWhenTheAccessHasWaitedDeadlockAfterInBothTimingModes) {
    // The watchdog decides at the moment the access has been outstanding for
    // run.deadlock_after, not where a slice of host time ended: the message
    // says exactly 1 us, and the exact timing stops at the same moment with
    // the same partial results.
    const std::vector<std::string> args = {"run", "--duration", "1ms", "-q", "--set",
                                           "clusters.little.exclusive.hold_window=100000cycles", "--set",
                                           "run.deadlock_after=1us"};
    auto with = [&](std::vector<std::string> extra, const std::string& out) {
        std::vector<std::string> a = args;
        a.insert(a.end(), extra.begin(), extra.end());
        a.insert(a.end(), {"--out", out});
        return run(a);
    };
    const auto fast = with({}, "fast"), exact = with({"--set", "run.exact=true"}, "exact");
    EXPECT_EQ(fast.status, 1) << fast.err;
    EXPECT_NE(fast.err.find("protocol deadlock: core big.3 has waited 1us for line "), std::string::npos) << fast.err;
    EXPECT_EQ(fast.err, exact.err);
    json a = read_json("fast/result.json"), b = read_json("exact/result.json");
    for (json* j : {&a, &b})
        for (const char* k : {"host_seconds", "command_line", "sim_events", "config", "host_seconds_per_simulated_second"})
            j->erase(k);
    EXPECT_EQ(a.dump(), b.dump());
}

TEST_F(Cli, StarvationIsLoggedAtEachDoublingOfTheWaitAndTheSameRunLogsTheSameLines) {
    // The starved little core's wait is reported when it reaches 1 ms and at
    // each doubling: in 20 ms at 1, 2, 4, 8 and 16 ms exactly, whatever the
    // host's speed (the slices end at those moments).
    const std::string cfg = std::string(COHSIM_SOURCE_DIR) + "/configs/calibration/asr_freq_skew_no_backoff.yaml";
    const auto r1 = run({"run", cfg, "--duration", "20ms", "--out", "a"});
    const auto r2 = run({"run", cfg, "--duration", "20ms", "--out", "b"});
    EXPECT_EQ(r1.status, 0) << r1.err;
    for (const char* ms : {"1.0", "2.0", "4.0", "8.0", "16.0"})
        EXPECT_NE(r1.err.find(std::string("little.2 has waited ") + ms + " ms for the lock so far"), std::string::npos)
            << ms << "\n" << r1.err;
    EXPECT_EQ(r1.err.find("has waited 32.0 ms"), std::string::npos) << r1.err;
    EXPECT_EQ(r1.err, r2.err);
}

TEST_F(Cli, ALoopThatCostsNoTimeStopsInsteadOfHanging) {
    const auto prog = write("spin.s", ".text\nmain:\nspin:\n    add x1, x1, #1\n    b spin\n");
    const auto r = run({"run", "--duration", "1ms", "-q", "--set", "workload.program=" + prog, "--set",
                        "workload.threads=[{core: big.0}]", "--set", "workload.params={}", "--set",
                        "clusters.big.timing.alu=0cycles", "--set", "clusters.big.timing.branch=0cycles"});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("spin.s:5:5: b spin: 2^20 instructions without simulated time passing"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("clusters.big.timing.alu/branch/hint"), std::string::npos) << r.err;
    // One cycle per branch is enough for time to pass.
    const auto ok = run({"run", "--duration", "1ms", "-q", "--set", "workload.program=" + prog, "--set",
                         "workload.threads=[{core: big.0}]", "--set", "workload.params={}", "--set",
                         "clusters.big.timing.alu=0cycles"});
    EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST_F(Cli, BenchReportsSpeedAndMemory) {
    const auto r = wait_for(spawn(COHSIM_BENCH_BINARY, {"--duration", "10ms"}));
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* key : {"sim_s_per_host_s", "events_per_host_s", "peak_rss_kib"})
        EXPECT_NE(r.out.find(key), std::string::npos) << key;
}

TEST_F(Cli, EveryPlatformRunsTheTicketLock) {
    const std::pair<const char*, const char*> platforms[] = {{"asr_4xa53_4xa73", "[{core: little.2}, {core: big.3}]"},
                                                             {"dynamiq_4xa55_4xa75", "[{core: little.0}, {core: big.0}]"},
                                                             {"rpi2_4xa7", "[{core: cpu.0}, {core: cpu.1}]"},
                                                             {"exynos5422", "[{core: little.0}, {core: big.0}]"},
                                                             {"thunderx2_2s", "[{core: s0.0}, {core: s1.0}]"}};
    for (const auto& [name, threads] : platforms) {
        const std::string file = std::string(COHSIM_SOURCE_DIR) + "/configs/platforms/" + name + ".yaml";
        const auto r = run({"run", file, "--duration", "200us", "-q", "--json", "p.json", "--set",
                            std::string("workload.threads=") + threads});
        ASSERT_EQ(r.status, 0) << name << ": " << r.err;
        const json j = read_json("p.json");
        std::uint64_t total = 0;
        for (const auto& c : j["cores"])
            if (c.contains("lock")) total += c["lock"]["acquisitions"].get<std::uint64_t>();
        EXPECT_GT(total, 20u) << name;
    }
}

TEST_F(Cli, TheDefaultScenarioIsThePhonePlatform) {
    // configs/default.yaml repeats the platform file (it is compiled in and
    // cannot include it); the two must not drift apart.
    const auto a = run({"config"});
    const auto b = run({"config", std::string(COHSIM_SOURCE_DIR) + "/configs/platforms/asr_4xa53_4xa73.yaml"});
    auto platform_part = [](const std::string& yaml) {
        return yaml.substr(yaml.find("clusters:"), yaml.find("workload:") - yaml.find("clusters:"));
    };
    EXPECT_EQ(platform_part(a.out), platform_part(b.out));
    // ... and its workload is the calibration workload of the starvation case.
    const auto c = run({"config", std::string(COHSIM_SOURCE_DIR) + "/configs/calibration/asr_freq_skew_no_backoff.yaml"});
    auto workload_part = [](const std::string& yaml) { return yaml.substr(yaml.find("workload:")); };
    EXPECT_EQ(workload_part(a.out), workload_part(c.out));
}

// `cohsim validate --quick`: every calibration case runs and every comparison
// points the way the measurements do; validate.json records each row.
TEST_F(Cli, RareInterruptsLetTheStarvedCoreInAndStayDeterministic) {
    // The starvation case's escape mechanism: without interrupts the little
    // core never gets in; with 2 us interrupts every 5 ms on average it gets
    // in a few times per interrupt; the same seed gives the same run, another
    // seed other arrivals.
    const std::string cfg = std::string(COHSIM_SOURCE_DIR) + "/configs/calibration/asr_freq_skew_no_backoff.yaml";
    auto go = [&](const std::string& interval, const std::string& seed, const std::string& out) {
        const auto r = run({"run", cfg, "--duration", "50ms", "--seed", seed, "--set",
                            "activity.random_interrupts.interval=" + interval, "--set",
                            "activity.random_interrupts.handler=2us", "--set",
                            "activity.random_interrupts.handler_spread=0", "--set", little_starts_late,
                            "--json", out, "-q"});
        EXPECT_EQ(r.status, 0) << r.err;
        json j = read_json(out);
        j.erase("host_seconds");
        j.erase("command_line");
        return j;
    };
    auto core_of = [](const json& j, const std::string& id) {
        for (const auto& c : j["cores"])
            if (c["id"] == id) return c;
        return json();
    };
    const json quiet = go("0s", "1", "q.json");
    EXPECT_EQ(core_of(quiet, "little.2")["lock"]["acquisitions"], 0);
    EXPECT_EQ(core_of(quiet, "big.3")["interrupts"], 0);
    const json a = go("5ms", "1", "a.json"), b = go("5ms", "1", "b.json"), c = go("5ms", "2", "c.json");
    EXPECT_EQ(a.dump(), b.dump());
    EXPECT_NE(a.dump(), c.dump());
    const auto little = core_of(a, "little.2")["lock"]["acquisitions"].get<std::uint64_t>();
    const auto irqs = core_of(a, "little.2")["random_interrupts"].get<std::uint64_t>() +
                      core_of(a, "big.3")["random_interrupts"].get<std::uint64_t>();
    EXPECT_GE(irqs, 8u);  // 20 expected (10 per core), sd 4.5
    EXPECT_LE(irqs, 36u);
    EXPECT_GT(little, 0u);
    EXPECT_LE(little, 10 * irqs) << "a 2 us pause lets the little core in a few times, not for good";
}

// The function profile: ftrace's columns in the table and the JSON.
TEST_F(Cli, FunctionProfileInTableAndJson) {
    const auto r = run({"run", "--duration", "1ms", "--set", "workload.program=programs/region_probe.s", "--set",
                        "workload.params={RUNS: 5}", "--set", "workload.threads=[{core: little.0}]"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("function profile"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Hit"), std::string::npos) << r.out;
    const json p = read_json("cohsim-out/result.json")["cores"][0]["regions"]["probe"];
    EXPECT_EQ(p["hit"], 5);
    EXPECT_EQ(p["count"], 5);
    EXPECT_NEAR(p["time_ns"].get<double>(), 5 * p["avg_ns"].get<double>(), 1e-6);
    EXPECT_NEAR(p["s2_ns2"].get<double>(), std::pow(p["sd"].get<double>(), 2), 1e-6);
    EXPECT_FALSE(p["histogram"].empty());
}

TEST_F(Cli, VerdictsHoldAcrossRunLengths) {
    // The 28-thread queued spinlock hands the lock round in order: at 100 us
    // (5 or 6 acquisitions per core) too few samples for any label, and Jain's
    // index at least that of an even split of 5s and 6s (5.5^2 / 30.5 =
    // 0.992); at 3 ms (over 100 per core) every core fair, as the index
    // (0.9999...) says. A longest wait measured against the run's length
    // called all 28 DISADVANTAGED at 100 us.
    const std::string cfg = COHSIM_SOURCE_DIR "/configs/calibration/spinlock_28_threads.yaml";
    std::map<std::string, std::set<std::string>> labels;
    for (const char* d : {"100us", "3ms"}) {
        const bool long_run = std::string(d) == "3ms";
        const auto r = run({"run", cfg, "--duration", d, "-q", "--out", std::string("v") + d});
        ASSERT_EQ(r.status, 0) << r.err;
        const json j = read_json(std::string("v") + d + "/result.json");
        for (const auto& c : j["cores"])
            if (c.contains("lock") && c["lock"].contains("verdict")) labels[d].insert(c["lock"]["verdict"].get<std::string>());
        EXPECT_EQ(j["fairness"]["contending_cores"], 28);
        EXPECT_GT(j["fairness"]["jain"].get<double>(), long_run ? 0.999 : 0.99);
        EXPECT_EQ(j["fairness"]["enough_samples"], long_run);
    }
    EXPECT_EQ(labels["100us"], std::set<std::string>{"too few samples"});
    EXPECT_EQ(labels["3ms"], std::set<std::string>{"fair"});
    // 1 ns: nothing acquired, no label.
    const auto r = run({"run", "--duration", "1ns", "--out", "v1ns"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("too few samples: 0 acquisitions per core"), std::string::npos) << r.out;
    EXPECT_EQ(read_json("v1ns/result.json")["cores"][2]["lock"]["verdict"], "too few samples");
}

// ---- physical timing noise --------------------------------------------------------

TEST_F(Cli, NoiseIsSeededKeyedToEventsAndSwitchable) {
    // The default scenario without the harness's jitter or interrupts: every
    // seed gives the same run. With the synchronizers' aperture on, the seed
    // matters; the accelerated and the reference timing still agree byte for
    // byte; run.noise=false is the run without noise whatever the aperture.
    auto go = [&](const std::string& seed, const std::vector<std::string>& more) {
        std::vector<std::string> args = {"run", "--duration", "5ms", "--seed", seed, "--set",
                                         "workload.params={INSIDE: 200, INSIDE_JITTER: 0, OUTSIDE: 300, OUTSIDE_JITTER: 0}",
                                         "--set", "activity={}"};
        args.insert(args.end(), more.begin(), more.end());
        return simulated(args, "n");
    };
    const std::vector<std::string> quiet = {"--set", "run.noise=false"};
    const std::vector<std::string> noisy = {"--set", "interconnect.cdc_aperture=200ps"};
    EXPECT_EQ(go("1", quiet), go("2", quiet));
    const json a = go("1", noisy), b = go("2", noisy);
    EXPECT_NE(a, b);
    EXPECT_NE(a, go("1", quiet));
    EXPECT_EQ(a, go("1", {"--set", "interconnect.cdc_aperture=200ps", "--set", "run.exact=true"}));
    EXPECT_EQ(go("1", quiet), go("1", {"--set", "interconnect.cdc_aperture=200ps", "--set", "run.noise=false"}));
    // The shipped platform has noise on: the seed matters with nothing else random.
    EXPECT_NE(go("1", {}), go("2", {}));
    // Other agents' traffic (the activity's bus_traffic) delays the lock's
    // messages at the interconnect (background waits), which changes how the
    // two cores' requests race: the lock's count moves (either way: a delayed
    // upgrade can also break a losing pattern; here the alternation speeds up
    // by a few percent). It is seeded, and exact under acceleration too.
    const std::vector<std::string> busy = {"--set", "activity.bus_traffic.load_percent=30"};
    const json c = go("1", busy);
    EXPECT_NE(c["cores"][7]["lock"]["acquisitions"], go("1", {})["cores"][7]["lock"]["acquisitions"]);
    EXPECT_GT(c["components"]["interconnect"]["background_waits"].get<std::uint64_t>(), 0u);
    EXPECT_NE(c, go("2", busy));
    EXPECT_EQ(c, go("1", {"--set", "activity.bus_traffic.load_percent=30", "--set", "run.exact=true"}));
    // Spread-spectrum clocks: each PLL at its own seeded phase; exact under
    // acceleration; off with the noise switch.
    const std::vector<std::string> spread = {"--set", "spread_spectrum={down_spread_ppm: 5000, rate: 33kHz}"};
    const json s = go("1", spread);
    EXPECT_NE(s, go("1", {}));
    EXPECT_NE(s, go("2", spread));
    EXPECT_EQ(s, go("1", {"--set", "spread_spectrum={down_spread_ppm: 5000, rate: 33kHz}", "--set", "run.exact=true"}));
    EXPECT_EQ(go("1", quiet), go("1", {"--set", "spread_spectrum.down_spread_ppm=5000", "--set", "run.noise=false"}));
}

TEST_F(Cli, InterruptVariationIsSeededAndExactUnderAcceleration) {
    // Handler times drawn per invocation, a jittered aligned tick, the
    // timekeeping core's work and softirqs: the seed decides them, the
    // reference timing draws the same, and with each of them at 0 the run
    // is the one with a fixed tick.
    auto go = [&](const std::string& seed, const std::string& tick, const std::vector<std::string>& more = {}) {
        std::vector<std::string> args = {"run", "--duration", "5ms", "--seed", seed, "--set", "activity.tick=" + tick,
                                         "--set", "activity.random_interrupts={interval: 200us, handler: 2us, handler_spread: 60}"};
        args.insert(args.end(), more.begin(), more.end());
        return simulated(args, "v");
    };
    const std::string varied =
        "{period: 500us, handler: 5us, handler_spread: 40, jitter: 1us, timekeeping: 2us, softirq_every: 3, softirq: 10us}";
    const json a = go("1", varied);
    EXPECT_EQ(a, go("1", varied, {"--set", "run.exact=true"}));
    EXPECT_NE(a, go("2", varied));
    EXPECT_NE(a, go("1", "{period: 500us, handler: 5us}"));
    EXPECT_EQ(go("1", "{period: 500us, handler: 5us}"),
              go("1", "{period: 500us, handler: 5us, handler_spread: 0, jitter: 0s, timekeeping: 0s, softirq_every: 0}"));
    // The timekeeper must be a core the tick reaches.
    const auto bad = run({"run", "--duration", "1ms", "--set", "activity.tick={period: 1ms, cores: big, timekeeper: little.0}"});
    EXPECT_NE(bad.status, 0);
    EXPECT_NE(bad.err.find("activity.tick.timekeeper: 'little.0' is not a core that takes the tick"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("one of big.0, big.1, big.2, big.3"), std::string::npos) << bad.err;
}

// ---- input that used to be taken silently or too late -------------------------------

TEST_F(Cli, ZeroCyclesInsideIsAValueNotTheDefault) {
    // `inside: 0cycles` once left the harness's work inside the lock in place
    // (0 meant "unset"). Now 0 is a value: the big core's loop loses the
    // harness's INSIDE cycles (240 in the calibrated default, ~40% of its
    // iteration), so it takes the lock far more often, as with 1 cycle; unset
    // keeps workload.params.INSIDE, the same as giving that value.
    const auto cfg = run({"config"});
    std::smatch m;
    ASSERT_TRUE(std::regex_search(cfg.out, m, std::regex(R"(\n +INSIDE: (\d+))"))) << cfg.out;
    const std::string inside = m[1];
    auto big = [&](const std::vector<std::string>& more) {
        std::vector<std::string> args = {"run", "--duration", "1ms", "--set", "activity={}", "-q", "--json", "i.json"};
        args.insert(args.end(), more.begin(), more.end());
        EXPECT_EQ(run(args).status, 0);
        return read_json("i.json")["cores"][7]["lock"]["acquisitions"].get<double>();
    };
    const double zero = big({"--set", "workload.threads.1.inside=0cycles"});
    const double one = big({"--set", "workload.threads.1.inside=1cycle"});
    const double unset = big({});
    const double given = big({"--set", "workload.threads.1.inside=" + inside + "cycles"});
    EXPECT_EQ(unset, given);
    EXPECT_GT(zero, 1.2 * unset);
    EXPECT_GT(one, 1.2 * unset);
    EXPECT_NEAR(zero, one, 0.02 * one);
}

TEST_F(Cli, AnUnwritableJsonPathFailsBeforeTheRun) {
    // Exit 2 and no results at all: the check comes before the (long) run.
    expect_bad({"run", "--duration", "10s", "--json", "nodir/x.json"}, "--json nodir/x.json: cannot write");
}

TEST_F(Cli, VersionNamesTheCommitAndTheBuild) {
    // Provenance: the version, the git commit the binary was built from
    // ("-dirty" for uncommitted changes, "unknown" outside git) and the build
    // type; result.json records the same commit.
    const auto v = run({"--version"});
    ASSERT_EQ(v.status, 0);
    std::smatch m;
    ASSERT_TRUE(std::regex_match(v.out, m, std::regex(R"(cohsim \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown), (\w+) build\)\n)")))
        << v.out;
    ASSERT_EQ(run({"run", "--duration", "1us", "-q", "--out", "v", "--set", "description=a b"}).status, 0);
    const json r = read_json("v/result.json");
    EXPECT_EQ(r["cohsim_commit"], m[1].str());
    EXPECT_EQ(r["build_type"], m[3].str());
    // The command line, quoted so that a shell runs it again; the host.
    EXPECT_EQ(r["command_line"], std::string(COHSIM_BINARY) + " run --duration 1us -q --out v --set 'description=a b'");
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    EXPECT_EQ(r["host"], host);
    // A sweep's manifest records the same, and a re-run from elsewhere still resumes it.
    ASSERT_EQ(run({"sweep", "--vary", "run.seed=1,2", "--set", "run.duration=1us", "--out", "s"}).status, 0);
    const json sw = read_json("s/sweep.json");
    EXPECT_EQ(sw["provenance"]["cohsim_commit"], m[1].str());
    EXPECT_NE(sw["provenance"]["command_line"].get<std::string>().find(" sweep --vary run.seed=1,2"), std::string::npos);
    const auto again = run({"sweep", "--set", "run.duration=1us", "--vary", "run.seed=1,2", "--out", "s"});
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.err.find("2 already done"), std::string::npos) << again.err;
}

// `--json -`: the result JSON on standard output, instead of the table (for a pipe).
TEST_F(Cli, JsonDashWritesTheResultToStandardOutput) {
    const auto r = run({"run", "--duration", "1ms", "--json", "-", "--out", "j"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);  // the whole of stdout is the JSON
    EXPECT_DOUBLE_EQ(j["simulated_ns"].get<double>(), 1e6);
    EXPECT_FALSE(fs::exists(m_dir / "-"));
    EXPECT_TRUE(fs::exists(m_dir / "j" / "result.json"));  // the output directory as always
    expect_bad({"run", "--json", "-", "--explain", "lock"}, "--json - and --explain both write to standard output");
}

// ---- bad values caught before simulating (finding 4) -----------------------

TEST_F(Cli, WorkBeyondTheTimeRangeIsBadInputNotASimulationError) {
    expect_bad({"run", "--set", "workload.threads.1.inside=99999999999999cycles"},
               "workload.threads.1.inside: '99999999999999cycles' is out of range (expected between 0cycles and 1000000000cycles)");
    // The error names the harness's line that does the work, found here in the source.
    std::ifstream loop(std::string(COHSIM_SOURCE_DIR) + "/workloads/locks/loop.s");
    int line = 0, at = 0;
    for (std::string text; at == 0 && std::getline(loop, text);) {
        ++line;
        if (text == "    work INSIDE") at = line;
    }
    ASSERT_GT(at, 0);
    expect_bad({"run", "--set", "workload.params.INSIDE=99999999999999"},
               "lib:locks/loop.s:" + std::to_string(at) +
                   ":10: work INSIDE: 99999999999999 cycles of work is too long (expected at most 1000000000 cycles)");
    // The largest allowed work runs (one critical section of a second at 1.8 GHz does not fit in 1 ms).
    EXPECT_EQ(run({"run", "--duration", "1ms", "-q", "--set", "workload.threads.1.inside=1000000000cycles"}).status, 0);
}

TEST_F(Cli, ARegionOpenAtTheEndIsReportedNotDropped) {
    // At 1 GHz: `closed` takes exactly 100 cycles = 100 ns; `open` never ends.
    write("regions.s", ".text\nmain:\n    region closed\n    work 100\n    endregion\n    region open\n    work 5000000\n"
                       "    endregion\n    halt\n");
    write("regions.yaml", "clusters:\n  c: {freq: 1GHz, cores: 1, core: cortex-a53}\ntimer: {freq: 1.92MHz, evnti: 8}\n"
                          "interconnect: {freq: 500MHz}\nrun: {duration: 1ms}\n"
                          "workload: {program: regions.s, threads: [{core: c.0}]}\n");
    const auto r = run({"run", "regions.yaml", "--out", "r"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("open (open at the end)"), std::string::npos) << r.out;
    const json c = read_json("r/result.json")["cores"][0];
    EXPECT_EQ(c["regions"]["closed"]["hit"], 1);
    EXPECT_DOUBLE_EQ(c["regions"]["closed"]["avg_ns"].get<double>(), 100.0);
    EXPECT_FALSE(c["regions"].contains("open"));  // not a whole sample of its time
    ASSERT_EQ(c["regions_open_at_end"].size(), 1u);
    EXPECT_EQ(c["regions_open_at_end"][0]["region"], "open");
    // Entered 100 ns in (after `closed`), open until the end at 1 ms.
    EXPECT_DOUBLE_EQ(c["regions_open_at_end"][0]["open_ns"].get<double>(), 1e6 - 100.0);
}

// ---- locks that are broken: the run says so (tests/errors) ----

// A "lock" that lets every core in: each core's critical section is marked
// before the other's is seen (the cores compute ahead), so only a check in
// simulated time finds that they overlap. The run stops at the overlap with
// exit 1, in both timings at the same moment.
TEST_F(Cli, ALockWithoutMutualExclusionStopsTheRunInBothTimings) {
    const std::string cfg = std::string(COHSIM_SOURCE_DIR) + "/tests/errors/nolock.yaml";
    const auto fast = run({"run", cfg, "--duration", "1ms", "--json", "fast.json"});
    const auto exact = run({"run", cfg, "--duration", "1ms", "-q", "--json", "exact.json", "--set", "run.exact=true"});
    EXPECT_EQ(fast.status, 1) << fast.err;
    EXPECT_EQ(exact.status, 1) << exact.err;
    EXPECT_NE(fast.err.find("mutual exclusion violated at "), std::string::npos) << fast.err;
    EXPECT_EQ(fast.err, exact.err);
    EXPECT_NE(fast.err.find("cohsim: the program stopped the run at "), std::string::npos) << fast.err;
    EXPECT_NE(fast.out.find("(STOPPED by the failure reported below)"), std::string::npos) << fast.out;  // not "INTERRUPTED", as by Ctrl-C
    const json a = read_json("fast.json"), b = read_json("exact.json");
    EXPECT_EQ(a["simulated_ns"], b["simulated_ns"]);
    EXPECT_EQ(a["completed"], false);
    // Both cores start at once and the lock costs one load: the overlap is
    // within the first iteration (INSIDE 200 cycles, well under 1 us).
    EXPECT_LT(a["simulated_ns"].get<double>(), 1000.0);
    // With a real lock the same harness runs to the end.
    const auto ok = run({"run", cfg, "--set", "workload.program=locks/ticket_llsc.s", "--duration", "1ms", "-q"});
    EXPECT_EQ(ok.status, 0) << ok.err;
}

// The ticket lock whose unlock lost its store: one core takes ticket 0 and
// "releases" it; every later ticket waits for ever. The run stops once the
// lock has been quiet for run.lock_stuck_after and names that core: the only
// one with an acquisition.
TEST_F(Cli, ALockNeverReleasedStopsTheRunNamingItsLastHolder) {
    const std::string cfg = std::string(COHSIM_SOURCE_DIR) + "/tests/errors/stuck_unlock.yaml";
    const auto r = run({"run", cfg, "--duration", "5ms", "-q", "--json", "r.json"});
    EXPECT_EQ(r.status, 1) << r.err;
    const json j = read_json("r.json");
    std::string holder;
    for (const auto& c : j["cores"])
        if (c.contains("lock") && c["lock"]["acquisitions"].get<int>() == 1) holder = c["id"];
    ASSERT_FALSE(holder.empty()) << j["cores"].dump();
    EXPECT_NE(r.err.find("the lock is stuck: " + holder + " took it last"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("its unlock did not free the lock; 2 cores wait for it"), std::string::npos) << r.err;
    // 1 ms after the last acquisition (within the first microsecond), at the
    // next check of a waiting core (every 4096 instructions or WFE wake-up).
    const double t = j["simulated_ns"].get<double>();
    EXPECT_GE(t, 1e6);
    EXPECT_LT(t, 1.5e6);
    // The bound is the user's: with 3 ms the run stops after 3 ms.
    const auto later = run({"run", cfg, "--duration", "5ms", "-q", "--json", "l.json", "--set", "run.lock_stuck_after=3ms"});
    EXPECT_EQ(later.status, 1);
    EXPECT_GE(read_json("l.json")["simulated_ns"].get<double>(), 3e6);
    const auto never = run({"run", cfg, "--duration", "5ms", "-q", "--set", "run.lock_stuck_after=0s"});
    EXPECT_EQ(never.status, 0) << never.err;
}

// A starved core's summary says what would change it, with the override
// that tries it; each override offered, applied, must lift the starved core
// (the published fixes: back-off in the winner, equal clocks).
TEST_F(Cli, AStarvedCoresSummaryOffersFixesThatWork) {
    const auto r = run({"run", "--duration", "20ms", "--json", "base.json", "--out", "o"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("little.2's exclusive store failed "), std::string::npos) << r.out;
    const std::uint64_t before = [&] {
        const json base = read_json("base.json");  // held: a range-for over a temporary's member dangles
        for (const auto& c : base["cores"])
            if (c["id"] == "little.2") return c["lock"]["acquisitions"].get<std::uint64_t>();
        return std::uint64_t{0};
    }();
    std::vector<std::string> offered;
    const std::regex set("--set ([^ \\n]+)");
    const std::string advice = r.out.substr(r.out.find("what would change it"));
    for (auto it = std::sregex_iterator(advice.begin(), advice.end(), set); it != std::sregex_iterator(); ++it)
        offered.push_back((*it)[1]);
    EXPECT_EQ(offered, (std::vector<std::string>{"workload.threads.1.cpu_relax=wfe_backoff", "clusters.little.freq=1.8GHz"}));
    for (const auto& o : offered) {
        const auto fixed = run({"run", "--duration", "20ms", "-q", "--json", "f.json", "--out", "o", "--set", o});
        ASSERT_EQ(fixed.status, 0) << fixed.err;
        const json f = read_json("f.json");
        for (const auto& c : f["cores"])
            if (c["id"] == "little.2") {
                EXPECT_GE(c["lock"]["acquisitions"].get<std::uint64_t>(), 100 * std::max<std::uint64_t>(before, 1)) << o;
            }
    }
    // A fair run offers nothing.
    const auto fair = run({"run", "--duration", "5ms", "--out", "o", "--set", "clusters.little.freq=1.8GHz"});
    EXPECT_EQ(fair.out.find("what would change it"), std::string::npos) << fair.out;
}

// Output folders and inputs that are not what a command needs are refused
// before any work, with what would be right.
TEST_F(Cli, OutputFoldersAndRunFoldersAreCheckedFirst) {
    write("afile", "x");
    expect_bad({"run", "--out", "afile", "--duration", "1us"}, "--out afile: is a file, not a folder");
    // A run's folder for protocol --counts: its result.json; a folder without one is named.
    ASSERT_EQ(run({"run", "--duration", "10us", "-q", "--out", "r1"}).status, 0);
    const auto counts = run({"protocol", "--counts", "r1"});
    EXPECT_EQ(counts.status, 0) << counts.err;
    fs::create_directories(m_dir / "empty");
    expect_bad({"protocol", "--counts", "empty"}, "a folder without result.json");
    write("broken.json", "{");
    expect_bad({"protocol", "--counts", "broken.json"}, "not a result of cohsim run");
    // A program named by --set is found from the current directory, not the config's folder.
    write("mine.s", ".include \"locks/loop.s\"\n.data\n.shared\n.align 64\nlock: .word 0\n.text\n.include \"locks/ticket_functions.inc\"\n");
    const auto here = run({"run", std::string(COHSIM_SOURCE_DIR) + "/tests/errors/nolock.yaml", "--set",
                           "workload.program=mine.s", "--duration", "10us", "-q", "--out", "r2"});
    EXPECT_EQ(here.status, 0) << here.err;
}

// ---- what waiting cores cost the lock owner (docs/design/waiting-cores.md) --

// A ticket lock whose waiters poll the owner half (yield; ldarh) against the
// kernel's, whose waiters sleep in WFE, on 4 and 8 cores: published, the two
// give the same throughput within the runs' spread (OpenDataPlane's ticket
// lock on Neoverse N1, 4 cores: 3.5-4.5 M rounds/s polling, 4-4.5 M with
// WFE; 8 cores: 2.5-3 M both; DPDK's on ThunderX2, eMAG and N1SDP: "no
// notable performance gain or degradation"), because neither kind of waiter
// takes the line while the owner holds it: both hold a shared copy, read it
// locally, and the release invalidates them alike.
TEST_F(Cli, WaitersThatPollCostTheOwnerWhatWaitersInWfeCost) {
    const std::string big4 = "[{core: big.0}, {core: big.1}, {core: big.2}, {core: big.3}]";
    const std::string all8 = "[{core: big.0}, {core: big.1}, {core: big.2}, {core: big.3}, "
                             "{core: little.0}, {core: little.1}, {core: little.2}, {core: little.3}]";
    struct figures {
        double rate = 0, hold_ns = 0, misses_per_acq = 0, asleep = 0;
        std::uint64_t sleeps = 0;
    };
    auto measure = [&](const std::string& threads, int poll, const std::string& out) {
        const json j = simulated({"run", "rk3588_4xa55_4xa76", "--duration", "2ms", "--set",
                                  "workload={program: locks/ticket_llsc.s, params: {INSIDE: 50, WAIT_POLL: " +
                                      std::to_string(poll) + "}, threads: " + threads + "}"},
                                 out);
        figures f;
        double acq = 0, misses = 0, hold = 0;
        int n = 0;
        for (const auto& c : j["cores"]) {
            if (!c.contains("lock")) continue;
            acq += c["lock"]["acquisitions"].get<double>();
            misses += c["l1"]["misses"].get<double>();
            hold += c["lock"]["hold_ns"]["mean"].get<double>();
            f.asleep += c["asleep_fraction"].get<double>();
            f.sleeps += c["wfe_sleeps"].get<std::uint64_t>();
            ++n;
        }
        f.rate = acq / (j["simulated_ns"].get<double>() * 1e-9);
        f.hold_ns = hold / n;
        f.misses_per_acq = misses / acq;
        f.asleep /= n;
        return f;
    };
    for (const auto& [threads, n] : {std::pair{big4, 4}, std::pair{all8, 8}}) {
        const figures wfe = measure(threads, 0, "wfe" + std::to_string(n));
        const figures poll = measure(threads, 1, "poll" + std::to_string(n));
        SCOPED_TRACE(std::to_string(n) + " cores");
        // The two variants differ where they should: WFE waiters sleep, pollers never do.
        EXPECT_GT(wfe.asleep, 0.3);
        EXPECT_EQ(poll.sleeps, 0u);
        EXPECT_EQ(poll.asleep, 0.0);
        // The same throughput (the published spread: within 15%) ...
        EXPECT_NEAR(wfe.rate / poll.rate, 1.0, 0.15) << wfe.rate << " vs " << poll.rate;
        // ... because the owner's hold is not touched by either kind of waiter,
        EXPECT_NEAR(wfe.hold_ns, poll.hold_ns, 0.01 * poll.hold_ns);
        // and each hand-off costs the same line transfers: one per core (the
        // release's upgrade, then each other core fetching the line back).
        EXPECT_NEAR(wfe.misses_per_acq, n, 0.1);
        EXPECT_NEAR(poll.misses_per_acq, n, 0.1);
    }
}

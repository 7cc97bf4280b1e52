// End-to-end, `cohsim run --trace` and `--explain`: the timeline and the
// message sequence, the teaching examples.
#include "e2e/cli_fixture.h"

// --trace: valid trace-event JSON with the documented tracks; slices have a
// non-negative duration, and on a core's lock track (sorted: the trace is
// streamed in the order events complete) they never overlap; every flow start
// has exactly one end; --trace-window and --trace-lines narrow it.
TEST_F(Cli, TraceIsValidTraceEventJson) {
    expect_bad({"run", "--trace", "x.json", "--trace-window", "5ms:1ms"}, "the window ends before it starts");
    expect_bad({"run", "--trace-lines", "0x40"}, "--trace-window, --trace-lines and --trace-max-events need --trace FILE");
    expect_bad({"run", "--trace", "x.json", "--trace-max-events", "-3"}, "--trace-max-events -3: expected a whole number");
    expect_bad({"run", "--trace", "no/such/dir/x.json"}, "--trace no/such/dir/x.json: cannot write");
    const auto r = run({"run", "--duration", "300us", "--trace", "t.json", "-q", "--set",
                        "workload.threads.1.cpu_relax=wfe_backoff", "--set", "workload.params.THRESHOLD=10", "--set",
                        "activity.random_interrupts={interval: 50us, handler: 1us, cores: big}"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json t = read_json("t.json");
    ASSERT_TRUE(t.contains("traceEvents"));
    std::map<std::pair<int, int>, std::string> names;
    std::map<std::pair<int, int>, double> last_ts;
    std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> slices;  // per track: [ts, ts + dur)
    std::map<std::uint64_t, int> starts, ends;
    std::set<std::string> seen;
    for (const auto& e : t["traceEvents"]) {
        for (const char* k : {"name", "ph", "pid", "tid"}) ASSERT_TRUE(e.contains(k)) << e.dump();
        const std::string ph = e["ph"];
        const auto track = std::make_pair(e["pid"].get<int>(), e["tid"].get<int>());
        if (ph == "M") {
            if (e["name"] == "thread_name") names[track] = e["args"]["name"];
            continue;
        }
        ASSERT_TRUE(e.contains("ts")) << e.dump();
        const double ts = e["ts"];
        EXPECT_GE(ts, 0.0);
        EXPECT_LE(ts, 300.0);
        last_ts[track] = ts;
        if (ph == "X") {
            ASSERT_TRUE(e.contains("dur")) << e.dump();
            EXPECT_GE(e["dur"].get<double>(), 0.0);
            slices[track].emplace_back(ts, ts + e["dur"].get<double>());
            if (e["name"] == "interrupt handler") {
                EXPECT_LE(e["dur"].get<double>(), 1.0 + 1e-9) << e.dump();  // irq_handler (clipped at the run's end)
                if (ts + 1.0 < 300.0) {
                    EXPECT_NEAR(e["dur"].get<double>(), 1.0, 1e-9) << e.dump();
                }
            }
        }
        if (ph == "s") ++starts[e["id"].get<std::uint64_t>()];
        if (ph == "f") ++ends[e["id"].get<std::uint64_t>()];
        seen.insert(e["name"].get<std::string>().substr(0, e["name"].get<std::string>().find(' ')));
    }
    EXPECT_FALSE(starts.empty());
    EXPECT_EQ(starts, ends);  // flows paired
    for (const auto& [id, n] : starts) EXPECT_EQ(n, 1) << id;
    for (const auto& [track, ts] : last_ts) EXPECT_TRUE(names.count(track)) << "a track without a name";
    for (auto& [track, list] : slices) {
        if (names[track] != "big.3" && names[track] != "little.2") continue;  // lock wait, critical section, ...
        std::sort(list.begin(), list.end());
        for (std::size_t i = 1; i < list.size(); ++i) EXPECT_LE(list[i - 1].second, list[i].first + 1e-9) << names[track];
    }
    EXPECT_FALSE(t["otherData"]["truncated"].get<bool>());
    EXPECT_EQ(t["otherData"]["recorded_to_us"].get<double>(), 300.0);
    std::set<std::string> tracks;
    for (const auto& [k, v] : names) tracks.insert(v);
    for (const char* want : {"little.2 memory", "big.3 memory", "big.3", "0x10000040 little.2", "0x10000040 big.3", "event stream",
                             "big.3 interrupts"})
        EXPECT_TRUE(tracks.count(want)) << want;
    for (const char* want : {"lock", "critical", "GetS", "Upg", "snoop", "STXR", "reservation", "asleep", "woken:", "event-stream",
                             "interrupt"})
        EXPECT_TRUE(seen.count(want)) << want;
    // A window and a line narrow it down.
    ASSERT_EQ(run({"run", "--duration", "300us", "--trace", "w.json", "-q", "--trace-window", "100us:150us", "--trace-lines",
                   "0x10000000"})
                  .status,
              0);
    const json w = read_json("w.json");
    for (const auto& e : w["traceEvents"]) {
        if (e["ph"] == "M") {
            if (e["name"] == "thread_name") {
                EXPECT_EQ(e["args"]["name"].get<std::string>().find("0x10000040"), std::string::npos);
            }
            continue;
        }
        EXPECT_GE(e["ts"].get<double>(), 100.0 - 1e-9);
        EXPECT_LE(e["ts"].get<double>(), 150.0);
    }
}

// A trace over its cap: said while the run goes on (a forecast from the events
// so far), in the final warning, and in otherData; the file holds exactly the
// cap and is valid JSON.
TEST_F(Cli, TraceOverItsCapSaysSoAtOnceAndInTheFile) {
    const auto r = run({"run", "--duration", "2ms", "--trace", "t.json", "--trace-max-events", "20000"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto forecast = r.err.find("the trace will hold about");
    const auto stopped = r.err.find("the trace stopped at 20000 events");
    ASSERT_NE(forecast, std::string::npos) << r.err;
    ASSERT_NE(stopped, std::string::npos) << r.err;
    EXPECT_LT(forecast, stopped);
    const json t = read_json("t.json");
    const json& o = t["otherData"];
    EXPECT_TRUE(o["truncated"].get<bool>());
    EXPECT_EQ(o["events"].get<std::size_t>(), 20000u);
    EXPECT_EQ(o["window_to_us"].get<double>(), 2000.0);
    EXPECT_LT(o["recorded_to_us"].get<double>(), 2000.0);
    // Events are written as they complete: the trace holds exactly the events
    // that end before recorded_to_us. Oracle: the same run traced without a
    // cap has exactly as many events ending before it.
    ASSERT_EQ(run({"run", "--duration", "2ms", "--trace", "u.json", "--trace-max-events", "10000000", "-q"}).status, 0);
    const json u = read_json("u.json");
    ASSERT_FALSE(u["otherData"]["truncated"].get<bool>());
    const double to = o["recorded_to_us"].get<double>();
    // An arrow's start ("s") is written with its end ("f"): it ends there.
    auto ends = [](const json& trace) {
        std::vector<double> out;
        std::map<std::uint64_t, double> arrow_end;
        for (const auto& e : trace["traceEvents"])
            if (e["ph"] == "f") arrow_end[e["id"].get<std::uint64_t>()] = e["ts"].get<double>();
        for (const auto& e : trace["traceEvents"])
            if (e["ph"] == "s") out.push_back(arrow_end.at(e["id"].get<std::uint64_t>()));
            else if (e["ph"] != "M") out.push_back(e["ts"].get<double>() + (e.contains("dur") ? e["dur"].get<double>() : 0.0));
        return out;
    };
    auto before = [&](const json& trace) {
        std::size_t k = 0;
        for (double e : ends(trace)) k += e < to - 1e-6;
        return k;
    };
    const std::vector<double> capped = ends(t);
    const std::size_t n = capped.size();
    const double last = *std::max_element(capped.begin(), capped.end());
    EXPECT_EQ(n, 20000u);
    EXPECT_LE(last, to + 1e-6) << "nothing in the trace ends after the point it names";
    EXPECT_EQ(before(t), before(u));
}

// Counts on the command line are whole numbers in range: a sign, a fraction
// or text is refused (it used to wrap: -3 became 4294967293).
TEST_F(Cli, CountsAreWholeNumbersInRange) {
    expect_bad({"run", "--explain", "0x40", "--explain-count", "-3"},
               "--explain-count -3: expected a whole number from 1 to 1000000");
    expect_bad({"run", "--explain", "0x40", "--explain-count", "2.5"}, "--explain-count 2.5: expected a whole number");
    expect_bad({"run", "--trace", "t.json", "--trace-max-events", "0"}, "--trace-max-events 0: expected a whole number from 1");
    expect_bad({"sweep", "--vary", "run.seed=1,2", "-j", "-1"}, "--jobs -1: expected a whole number from 1 to 256");
    expect_bad({"validate", "--quick", "-j", "x"}, "--jobs x: expected a whole number from 1 to 256");
}

TEST_F(Cli, ExplainPrintsTheLinesMessageSequence) {
    expect_bad({"run", "--explain", "0xZZ"}, "--explain: '0xZZ' is not an address");
    // The little thread's first attempt is the starvation's pattern.
    const auto r = run({"run", "--duration", "4us", "--set", little_starts_late, "--explain", "0x10000040",
                        "--explain-count", "4"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string out = r.out.substr(r.out.find("explain 0x10000040"));
    EXPECT_NE(out.find("big.3 LDXR misses in I → IS_D, sends GetS"), std::string::npos) << out;
    EXPECT_NE(out.find("home (interconnect) in I serves GetS from big.3"), std::string::npos) << out;
    EXPECT_NE(out.find("little.2 receives Excl_Fail in IM_D → I: STXR fails"), std::string::npos) << out;
    // Four transactions served, then what follows from the fourth, no more.
    std::size_t served = 0;
    for (std::size_t p = out.find(" serves "); p != std::string::npos; p = out.find(" serves ", p + 1)) ++served;
    EXPECT_EQ(served, 4u) << out;
}

// Every teaching command of the guide runs, and its trace loads as a timeline.
TEST_F(Cli, EveryTeachingExampleRunsAndItsTraceLoads) {
    const std::string readme = slurp(fs::path(COHSIM_SOURCE_DIR) / "docs" / "guide" / "teaching.md");
    const auto from = readme.find("# Teaching"), to = readme.find("## Timelines");
    ASSERT_NE(from, std::string::npos);
    std::istringstream lines(readme.substr(from, to - from));
    int commands = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("cohsim run ", 0) != 0) continue;
        std::vector<std::string> args;
        std::istringstream words(line.substr(7));
        for (std::string w; words >> w;) args.push_back(w == "configs/teaching/" ? w : w);
        for (auto& a : args)
            if (a.rfind("configs/", 0) == 0) a = std::string(COHSIM_SOURCE_DIR) + "/" + a;
        args.push_back("-q");
        const auto r = run(args);
        ASSERT_EQ(r.status, 0) << line << "\n" << r.err;
        const auto t = std::find(args.begin(), args.end(), "--trace");
        ASSERT_NE(t, args.end()) << line;
        const json trace = read_json(*(t + 1));
        EXPECT_GT(trace["traceEvents"].size(), 10u) << line;
        ++commands;
    }
    EXPECT_EQ(commands, 9);
}

TEST_F(Cli, ExplainTakesASymbolAndSaysWhenNothingHappened) {
    // The tables name lines by symbol: --explain takes one, and gives the same
    // story as the address it stands for.
    const auto by_name = run({"run", "--duration", "2us", "--explain", "lock", "--explain-count", "2", "-q", "--out", "a"});
    const auto by_addr = run({"run", "--duration", "2us", "--explain", "0x10000040", "--explain-count", "2", "-q", "--out", "b"});
    ASSERT_EQ(by_name.status, 0) << by_name.err;
    EXPECT_EQ(by_name.out, by_addr.out);
    EXPECT_NE(by_name.out.find("explain 0x10000040: its first 2 transactions"), std::string::npos) << by_name.out;
    // A line no core touches: said in words, not an empty section.
    const auto none = run({"run", "--duration", "2us", "--explain", "0x0", "-q", "--out", "c"});
    EXPECT_NE(none.out.find("explain 0x0: no core touched this line in the run (the program's shared data: counter "
                            "0x10000000, lock 0x10000040)"),
              std::string::npos)
        << none.out;
    expect_bad({"run", "--explain", "lok"},
               "--explain lok: 'lok' is neither an address nor a shared data symbol of the program (expected an address, "
               "e.g. 0x10000040, or one of: counter 0x10000000, lock 0x10000040)");
}

// End-to-end, `cohsim litmus`: herd7 tests, their verdicts, filters and the
// platforms' table.
#include "e2e/cli_fixture.h"

// ---- cohsim litmus -------------------------------------------------------------

// Whether a litmus test's code has an LSE instruction (its columns, not its comments).
bool uses_lse(const fs::path& f) {
    std::ifstream in(f);
    static const std::regex lse(R"((^|\|)\s*(CAS|LDADD|SWP|LDSET)[A-Z]*\s)", std::regex::icase);
    for (std::string l; std::getline(in, l);)
        if (l.find('|') != std::string::npos && std::regex_search(l, lse)) return true;
    return false;
}

// Every shipped litmus test agrees with the verdict its comment derives from
// the Arm ARM (--check exits 1 otherwise), and the counts add up to the runs.
TEST_F(Cli, ShippedLitmusTestsAgreeWithTheirVerdicts) {
    int tests = 0;
    for (const auto& f : fs::directory_iterator(fs::path(COHSIM_SOURCE_DIR) / "workloads" / "litmus")) {
        // A test with LSE instructions runs on a platform whose cores have them.
        // Under the sanitizers a third of the iterations: the same code paths.
        const int iterations = sanitized ? 34 : 100, total = 6 * iterations;
        std::vector<std::string> args = {"litmus", f.path().string(), "--check", "--batches", "6", "--iterations",
                                         std::to_string(iterations), "--json", "l.json"};
        if (uses_lse(f.path())) args.insert(args.end(), {"--platform", "dynamiq_4xa55_4xa75"});
        const auto r = run(args);
        EXPECT_EQ(r.status, 0) << f.path() << "\n" << r.out << r.err;
        EXPECT_NE(r.out.find("(the test's verdict): agrees"), std::string::npos) << r.out;
        const json j = read_json("l.json");
        // Never shown as forbidden: a Never test has no positive run (--check's own rule, asserted here too).
        if (j["expect"] == "Never") {
            EXPECT_EQ(j["positive"].get<int>(), 0) << f.path();
        }
        EXPECT_EQ(j["positive"].get<int>() + j["negative"].get<int>(), total) << f.path();
        int sum = 0;
        for (const auto& s : j["states"]) sum += s["count"].get<int>();
        EXPECT_EQ(sum, total);
        EXPECT_EQ(j["placements"].size(), 6u);
        // With store buffers (a teacher's platform) a forbidden outcome is still never shown.
        if (!uses_lse(f.path())) {
            std::vector<std::string> buffered = args;
            buffered.insert(buffered.end(), {"--set", "clusters.big.timing.store_buffer=8", "--set",
                                             "clusters.little.timing.store_buffer=8"});
            const auto b = run(buffered);
            EXPECT_EQ(b.status, 0) << f.path() << " with store buffers\n" << b.out << b.err;
            if (f.path().stem() == "sb" || f.path().stem() == "mp") {
                EXPECT_NE(b.out.find("this platform shows it Sometimes"), std::string::npos) << b.out;  // relaxed, as allowed
            }
        }
        ++tests;
    }
    EXPECT_EQ(tests, 27);
}

// The check can fail: a plain (not atomic) increment loses updates, so a
// test that claims it never does is contradicted, with exit status 1; and the
// same seed gives the same histogram.
TEST_F(Cli, LitmusCheckCatchesAWrongVerdictAndIsDeterministic) {
    const std::string f = write("plain.litmus", R"(AArch64 PLAIN-INCREMENT
(* expect: Never *)
{ 0:X1=x; 1:X1=x; }
 P0           | P1           ;
 LDR W0,[X1]  | LDR W0,[X1]  ;
 ADD W0,W0,#1 | ADD W0,W0,#1 ;
 STR W0,[X1]  | STR W0,[X1]  ;
exists (x=1)
)");
    const auto a = run({"litmus", f, "--check", "--batches", "4", "--iterations", "200", "--seed", "3"});
    EXPECT_EQ(a.status, 1) << a.out << a.err;
    EXPECT_NE(a.out.find("Observation PLAIN-INCREMENT Sometimes"), std::string::npos) << a.out;
    EXPECT_NE(a.out.find("Expected Never (the test's verdict): CONTRADICTED"), std::string::npos) << a.out;
    EXPECT_NE(a.out.find("*>x=1;"), std::string::npos) << a.out;  // the lost update, marked as the condition's
    const auto b = run({"litmus", f, "--batches", "4", "--iterations", "200", "--seed", "3"});
    EXPECT_EQ(b.status, 0);  // without --check a contradiction is reported, not an error
    EXPECT_EQ(a.out, b.out);
    const auto c = run({"litmus", f, "--batches", "4", "--iterations", "200", "--seed", "3", "--jobs", "1"});
    EXPECT_EQ(a.out, c.out);  // any parallelism
}

// Registers and locations that hold a location's address: named by it, as
// herd7 prints them, and a condition can ask for them. P0 publishes y's
// address in x; P1 reads x: it sees 0 (before) or y's address (after).
TEST_F(Cli, LitmusConditionsCompareWithALocationsAddress) {
    const std::string f = write("pointer.litmus", R"(AArch64 POINTER
{ 0:X1=x; 0:X3=y; 1:X1=x; y=5; }
 P0           | P1           ;
 STR X3,[X1]  | LDR X0,[X1]  ;
exists (1:X0=y /\ x=y)
)");
    const auto a = run({"litmus", f, "--batches", "4", "--iterations", "100", "--seed", "1"});
    EXPECT_EQ(a.status, 0) << a.err;
    EXPECT_NE(a.out.find("*>1:X0=y; x=y;"), std::string::npos) << a.out;  // after P0's store
    EXPECT_NE(a.out.find(":>1:X0=0; x=y;"), std::string::npos) << a.out;  // before it; x ends y in every run
    EXPECT_NE(a.out.find("Observation POINTER Sometimes"), std::string::npos) << a.out;
    const std::string g = write("nowhere.litmus", R"(AArch64 NOWHERE
{ 0:X1=x; }
 P0          ;
 LDR X0,[X1] ;
exists (0:X0=z)
)");
    const auto b = run({"litmus", g});
    EXPECT_NE(b.status, 0);
    EXPECT_NE(b.err.find("z is none of the test's locations"), std::string::npos) << b.err;
    EXPECT_NE(b.err.find("a number, or the name of one of them (x)"), std::string::npos) << b.err;
}

// herd7's filter: the runs it does not hold for are left out. Kept: the
// runs where both threads read 0 (the race), in which x ends 1 every time
// (both store 1); the others are counted as left out: kept + left out =
// every run.
TEST_F(Cli, LitmusFilterLeavesOutTheRunsItDoesNotHoldFor) {
    const std::string f = write("filtered.litmus", R"(AArch64 RACE-ONLY
{ 0:X1=x; 1:X1=x; }
 P0           | P1           ;
 LDR W0,[X1]  | LDR W0,[X1]  ;
 ADD W2,W0,#1 | ADD W2,W0,#1 ;
 STR W2,[X1]  | STR W2,[X1]  ;
filter (0:X0=0 /\ 1:X0=0)
exists (x=1)
)");
    const auto r = run({"litmus", f, "--batches", "4", "--iterations", "200", "--seed", "3", "--json", "f.json"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("Observation RACE-ONLY Always"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(":>"), std::string::npos) << r.out;  // every state kept satisfies the condition
    const json j = read_json("f.json");
    const std::uint64_t kept = j["positive"].get<std::uint64_t>() + j["negative"].get<std::uint64_t>();
    const std::uint64_t left_out = j["filter"]["left_out"].get<std::uint64_t>();
    EXPECT_GT(kept, 0u);
    EXPECT_GT(left_out, 0u);  // the runs where one thread saw the other's store
    EXPECT_EQ(kept + left_out, 800u);
    EXPECT_NE(r.out.find("Filter (0:X0=0 /\\ 1:X0=0): " + std::to_string(left_out) + " runs left out"), std::string::npos)
        << r.out;
    for (const auto& st : j["states"]) EXPECT_EQ(st["values"]["0:X0"], 0) << st;
}

// --set as in the other commands: store buffers on (a teacher's platform)
// let message passing's relaxed outcome appear, which the default platform
// (no store buffer) never shows; with DMBs it stays forbidden, and is never
// seen. The overrides are in each batch's config and the report.
TEST_F(Cli, LitmusSetStoreBuffersShowMessagePassingRelaxed) {
    const std::string mp = write("mp.litmus", R"(AArch64 MP
{ 0:X1=x; 0:X3=y; 1:X1=x; 1:X3=y; }
 P0          | P1          ;
 MOV W0,#1   | LDR W0,[X3] ;
 STR W0,[X1] | LDR W2,[X1] ;
 MOV W2,#1   |             ;
 STR W2,[X3] |             ;
exists (1:X0=1 /\ 1:X2=0)
)");
    const std::vector<std::string> buffers = {"--set", "clusters.big.timing.store_buffer=8", "--set",
                                              "clusters.little.timing.store_buffer=8"};
    auto litmus = [&](const std::string& file, bool with_buffers, const std::string& out) {
        std::vector<std::string> args = {"litmus", file, "--batches", "8", "--iterations", "200", "--seed", "1", "--out", out};
        if (with_buffers) args.insert(args.end(), buffers.begin(), buffers.end());
        return run(args);
    };
    const auto relaxed = litmus(mp, true, "sb");
    ASSERT_EQ(relaxed.status, 0) << relaxed.err;
    EXPECT_NE(relaxed.out.find("Observation MP Sometimes"), std::string::npos) << relaxed.out;
    EXPECT_NE(relaxed.out.find("--set clusters.big.timing.store_buffer=8 --set clusters.little.timing.store_buffer=8"),
              std::string::npos)
        << relaxed.out;
    EXPECT_NE(slurp(m_dir / "sb" / "batch-0" / "config.yaml").find("store_buffer: 8"), std::string::npos);
    const auto plain = litmus(mp, false, "plain");
    ASSERT_EQ(plain.status, 0) << plain.err;
    EXPECT_NE(plain.out.find("Observation MP Never"), std::string::npos) << plain.out;
    const auto fenced = litmus("mp-dmb.litmus", true, "dmb");
    ASSERT_EQ(fenced.status, 0) << fenced.err;
    EXPECT_NE(fenced.out.find("Observation MP+dmb.ish+dmb.ish Never"), std::string::npos) << fenced.out;
    expect_bad({"litmus", mp, "--set", "clusters.big.nope=1"}, "clusters.big.nope: unknown key 'nope'");
}

TEST_F(Cli, LitmusBadInputs) {
    const std::string ok = write("ok.litmus", "AArch64 T\n{ 0:X1=x; }\n P0 ;\n LDR W0,[X1] ;\nexists (0:X0=1)\n");
    expect_bad({"litmus"}, "litmus needs a test file");
    // LSE instructions on the default platform's Armv8.0 cores: refused before any run.
    expect_bad({"litmus", "lse-cas.litmus"}, "the test uses CAS, an LSE instruction (Armv8.1), and these cores have no LSE: "
                                             "little.0 (cortex-a53)");
    expect_bad({"litmus", "nowhere.litmus"}, "nowhere.litmus: no such file (nor a shipped test of that name");
    expect_bad({"litmus", write("x86.litmus", "X86 T\n{ }\n P0 ;\n MOV EAX,1 ;\nexists (0:EAX=1)\n")},
               "x86.litmus:1:1: 'X86' tests are not supported (expected an AArch64 test");
    expect_bad({"litmus", write("cells.litmus", "AArch64 T\n{ 0:X1=x; 1:X1=x; }\n P0 | P1 ;\n LDR W0,[X1] ;\nexists (x=1)\n")},
               "cells.litmus:4:1: a row of 1 cells (expected 2 cells");
    expect_bad({"litmus", write("reg.litmus", "AArch64 T\n{ 0:X1=x; }\n P0 ;\n LDR W21,[X1] ;\nexists (x=1)\n")},
               "P0 uses W21 (expected registers X0 to X19");
    expect_bad({"litmus", write("cond.litmus", "AArch64 T\n{ 0:X1=x; }\n P0 ;\n LDR W0,[X1] ;\nexists (2:X0=1)\n")},
               "cond.litmus:5:1: thread 2 in '2:X0' (expected a thread from 0 to 0)");
    expect_bad({"litmus", write("none.litmus", "AArch64 T\n{ 0:X1=x; }\n P0 ;\n LDR W0,[X1] ;\n")},
               "none.litmus:5:1: no final condition (expected exists (...)");
    expect_bad({"litmus", ok, "--cores", "big.9"}, "--cores: the platform has no core 'big.9'");
    expect_bad({"litmus", ok, "--cores", "big.0,big.1"}, "--cores: 2 cores for 1 threads");
    expect_bad({"litmus", ok, "--iterations", "0"}, "--iterations");
    const auto r = run({"litmus", ok, "--batches", "1", "--iterations", "5"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Positive: 0, Negative: 5"), std::string::npos) << r.out;
    // a shipped test by its name alone, from another directory (the data directory's workloads/litmus/)
    const auto shipped = run({"litmus", "clrex.litmus", "--batches", "1", "--iterations", "5", "--check"});
    EXPECT_EQ(shipped.status, 0) << shipped.err;
    EXPECT_NE(shipped.out.find("Observation CLREX Always 5 0"), std::string::npos) << shipped.out;
}

// `cohsim litmus --platforms`: what each platform shows, per test. The
// architecture's verdicts hold everywhere; an LSE test is n/a on the
// platform whose cores lack LSE (the ASR pair's A53 and A73, Armv8.0) and
// runs on the DynamIQ one (A55, A75: Armv8.2); MP's relaxed outcome (allowed)
// never appears without store buffers, with the reason, and appears with
// them, on the same platform and seed; a test whose verdict a platform
// contradicts makes the table say so and exit 1.
TEST_F(Cli, LitmusPlatformsTableShowsWhatEachPlatformCanProduce) {
    const std::vector<std::string> base = {"litmus", "mp.litmus", "mp-dmb.litmus", "lse-cas.litmus", "--platforms",
                                           "asr_4xa53_4xa73,dynamiq_4xa55_4xa75", "--batches", "4", "--iterations", "50"};
    auto args = base;
    args.insert(args.end(), {"--json", "t.json"});
    auto r = run(args);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto row = [&](const std::string& name) {
        const auto at = r.out.find("\n" + name + " ");
        return at == std::string::npos ? std::string() : r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    };
    EXPECT_NE(row("MP").find("Allowed  Never 0/200 (a)"), std::string::npos) << r.out;
    EXPECT_NE(row("MP+dmb.ish+dmb.ish").find("Never 0/200"), std::string::npos) << r.out;
    EXPECT_NE(row("LSE-CAS").find("n/a (b)"), std::string::npos) << r.out;
    EXPECT_NE(row("LSE-CAS").find("Never 0/200"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(a) every access completes in program order here (timing.store_buffer 0 on every cluster)"),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(b) the test uses CAS, an LSE instruction (Armv8.1), which cores of this platform lack"), std::string::npos)
        << r.out;
    const json j = read_json("t.json");
    ASSERT_EQ(j["cells"].size(), 6u);
    for (const auto& c : j["cells"]) {
        if (c["observation"].is_null()) {
            EXPECT_EQ(c["platform"], "asr_4xa53_4xa73");
            continue;
        }
        EXPECT_EQ(c["positive"].get<int>() + c["negative"].get<int>(), 200);
        EXPECT_TRUE(c["agrees"].get<bool>());
    }
    // With store buffers the relaxed outcome appears (the single-test run agrees), the fenced one still never.
    const std::vector<std::string> buffered = {"--set", "clusters.big.timing.store_buffer=8", "--set", "clusters.little.timing.store_buffer=8"};
    args = {"litmus", "mp.litmus", "mp-dmb.litmus", "--platforms", "asr_4xa53_4xa73", "--batches", "4", "--iterations", "50"};
    args.insert(args.end(), buffered.begin(), buffered.end());
    r = run(args);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(row("MP").find("Allowed  Sometimes"), std::string::npos) << r.out;
    EXPECT_NE(row("MP+dmb.ish+dmb.ish").find("Never 0/200"), std::string::npos) << r.out;
    args = {"litmus", "mp.litmus", "--platform", "asr_4xa53_4xa73", "--batches", "4", "--iterations", "50"};
    args.insert(args.end(), buffered.begin(), buffered.end());
    const auto single = run(args);
    EXPECT_NE(single.out.find("Observation MP Sometimes"), std::string::npos) << single.out;
    // A wrong verdict: MP claimed Never is contradicted where store buffers show it.
    std::string mp = slurp(fs::path(COHSIM_SOURCE_DIR) / "workloads" / "litmus" / "mp.litmus");
    const auto at = mp.find("expect: Allowed");
    ASSERT_NE(at, std::string::npos);
    mp.replace(at, 15, "expect: Never");
    write("mp-never.litmus", mp);
    args = {"litmus", "mp-never.litmus", "--platforms", "asr_4xa53_4xa73", "--batches", "4", "--iterations", "50"};
    args.insert(args.end(), buffered.begin(), buffered.end());
    r = run(args);
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("CONTRADICTED"), std::string::npos) << r.out;
    // Bad input: both --platform and --platforms; an unknown platform.
    EXPECT_EQ(run({"litmus", "mp.litmus", "--platform", "asr_4xa53_4xa73", "--platforms", "all"}).status, 2);
    r = run({"litmus", "mp.litmus", "--platforms", "no_such_platform"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("no_such_platform"), std::string::npos) << r.err;
}

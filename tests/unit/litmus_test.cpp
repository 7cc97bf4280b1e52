// The litmus format (workloads/litmus.h): parsing, conditions, the harness.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/config_tree.h"
#include "workloads/litmus.h"
#include "workloads/program.h"

using namespace cohsim;
using namespace cohsim::litmus;

namespace {

const char* const mp = R"(AArch64 MP
"message passing"
(* expect: Never *)
{ 0:X1=x; 0:X3=y; 1:X1=x; 1:X3=y; y=7; }
 P0          | P1          ;
 MOV W0,#1   | LDR W0,[X3] ;
 STR W0,[X1] | LDR W2,[X1] ;
 MOV W2,#1   | L:          ;
 STR W2,[X3] | CBZ W0,L    ;
locations [y;]
exists (1:X0=1 /\ ~1:X2=1 \/ x=5)
)";

}  // namespace

TEST(Litmus, ParsesTheHerdFormat) {
    const test t = parse(mp, "mp.litmus");
    EXPECT_EQ(t.name, "MP");
    EXPECT_EQ(t.doc, "message passing");
    EXPECT_EQ(t.expect, "Never");
    ASSERT_EQ(t.threads(), 2);
    EXPECT_EQ(t.code[0], (std::vector<std::string>{"MOV W0,#1", "STR W0,[X1]", "MOV W2,#1", "STR W2,[X3]"}));
    EXPECT_EQ(t.code[1], (std::vector<std::string>{"LDR W0,[X3]", "LDR W2,[X1]", "L:", "CBZ W0,L"}));
    EXPECT_EQ(t.locations, (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(t.location_init.at("y"), 7u);
    EXPECT_EQ(t.reg_init[1].at(3), "y");
    EXPECT_EQ(t.q, quantifier::exists);
    // observed: the condition's and `locations`', registers first
    std::vector<std::string> obs;
    for (const auto& o : t.observed) obs.push_back(o.text());
    EXPECT_EQ(obs, (std::vector<std::string>{"1:X0", "1:X2", "x", "y"}));
}

TEST(Litmus, ConditionPrecedenceIsHerds) {
    // /\ binds tighter than \/; ~ tighter than /\ (worked by hand)
    const test t = parse(mp, "mp.litmus");
    auto eval = [&](std::uint64_t x0, std::uint64_t x2, std::uint64_t x, std::uint64_t y) {
        return holds(*t.condition, t, outcome{x0, x2, x, y});
    };
    EXPECT_TRUE(eval(1, 0, 0, 0));   // 1:X0=1 and not 1:X2=1
    EXPECT_FALSE(eval(1, 1, 0, 0));  // 1:X2=1
    EXPECT_FALSE(eval(0, 0, 0, 0));
    EXPECT_TRUE(eval(0, 1, 5, 0));   // x=5 alone
    EXPECT_EQ(state_text(t, outcome{1, 0, 1, 7}), "1:X0=1; 1:X2=0; x=1; y=7;");
}

TEST(Litmus, ErrorsNameTheLine) {
    auto message = [](const std::string& text) {
        try {
            parse(text, "t.litmus");
        } catch (const cfg::config_error& e) {
            return std::string(e.what());
        }
        return std::string("parsed");
    };
    EXPECT_NE(message("").find("t.litmus:1:1: the file is empty"), std::string::npos);
    EXPECT_NE(message("AArch64 T\n P0 ;\n").find("no initial state"), std::string::npos);
    EXPECT_NE(message("AArch64 T\n{ 0:X1=x; }\n P1 ;\n").find("t.litmus:3:1: column 0 is headed 'P1' (expected P0"), std::string::npos);
    EXPECT_NE(message("AArch64 T\n{ 0:X1=x }\n P0 ;\n NOP ;\nexists (x=-1)\n").find("'-1' is not a value"), std::string::npos);
    EXPECT_NE(message("AArch64 T\n(* expect: Maybe *)\n").find("expect: Maybe is no verdict"), std::string::npos);
    EXPECT_NE(message("AArch64 T\n{ 0:X1=x; }\n P0 ;\n NOP ;\nexists (x=1\n").find("never closed"), std::string::npos);
}

// As herd7's own files and the test suites in the wild write them: the
// initial state over several lines, C declarations with and without a value,
// comments in both styles; a bad item named by its own line.
TEST(Litmus, ParsesHerdFilesAsWrittenInTheWild) {
    const char* const sb = R"(AArch64 SB+dmbs
// store buffering, with barriers
{
  int x=0; uint64_t y;   // both zero
  unsigned long z=3;
  0:X1=x; 0:X3=y;
  1:X1=y; 1:X3=x;
}
 P0          | P1          ; (* rows as usual *)
 MOV W0,#1   | MOV W0,#1   ;
 STR W0,[X1] | STR W0,[X1] ;
 DMB SY      | DMB SY      ;
 LDR W2,[X3] | LDR W2,[X3] ;
exists (0:X2=0 /\ 1:X2=0)
)";
    const test t = parse(sb, "sb.litmus");
    EXPECT_EQ(t.name, "SB+dmbs");
    EXPECT_EQ(t.locations, (std::vector<std::string>{"x", "y", "z"}));
    EXPECT_EQ(t.location_init.at("x"), 0u);
    EXPECT_EQ(t.location_init.at("y"), 0u);
    EXPECT_EQ(t.location_init.at("z"), 3u);
    EXPECT_EQ(t.reg_init[0].at(1), "x");
    EXPECT_EQ(t.reg_init[1].at(3), "x");
    EXPECT_EQ(t.code[1], (std::vector<std::string>{"MOV W0,#1", "STR W0,[X1]", "DMB SY", "LDR W2,[X3]"}));
    ASSERT_EQ(t.observed.size(), 2u);  // what the condition reads: 0:X2, 1:X2
    EXPECT_TRUE(holds(*t.condition, t, outcome{0, 0}));
    EXPECT_FALSE(holds(*t.condition, t, outcome{0, 1}));
    // An item the state cannot read is named at its own line (the fourth).
    try {
        parse("AArch64 T\n{\n 0:X1=x;\n int *p;\n}\n P0 ;\n NOP ;\nexists (x=0)\n", "t.litmus");
        ADD_FAILURE() << "parsed";
    } catch (const cfg::config_error& e) {
        EXPECT_NE(std::string(e.what()).find("t.litmus:4:1: 'int *p' in the initial state"), std::string::npos) << e.what();
    }
}

TEST(Litmus, AFilterIsReadBeforeTheCondition) {
    const test t = parse("AArch64 F\n{ 0:X1=x; }\n P0 ;\n LDR W0,[X1] ;\nfilter (0:X0=1 \\/ x=2)\nexists (x=1)\n", "f.litmus");
    EXPECT_EQ(t.filter_text, "(0:X0=1 \\/ x=2)");
    EXPECT_EQ(t.condition_text, "(x=1)");
    ASSERT_TRUE(t.filter);
    ASSERT_EQ(t.observed.size(), 2u);  // 0:X0, x: the filter's values are recorded too
    EXPECT_TRUE(holds(*t.filter, t, outcome{1, 0}));
    EXPECT_TRUE(holds(*t.filter, t, outcome{0, 2}));
    EXPECT_FALSE(holds(*t.filter, t, outcome{0, 1}));
    EXPECT_FALSE(parse(mp, "mp.litmus").filter);  // none: every run counts
}

// Every shipped test's harness assembles, with each thread's labels its own.
TEST(Litmus, ShippedTestsHarnessesAssemble) {
    int n = 0;
    for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(COHSIM_SOURCE_DIR) / "workloads" / "litmus")) {
        std::ifstream in(f.path());
        std::stringstream ss;
        ss << in.rdbuf();
        const test t = parse(ss.str(), f.path().string());
        EXPECT_FALSE(t.expect.empty()) << f.path() << ": every shipped test states its verdict";
        harness_options o;
        o.iterations = 3;
        o.jitter = 10;
        o.prewarm.assign(static_cast<std::size_t>(t.threads()), {});
        for (auto& p : o.prewarm)
            for (const auto& l : t.locations) p[l] = 2;
        const std::string prog = harness_program(t, o);
        const auto p = asmx::assemble_text(prog, f.path().filename().string());
        for (int th = 0; th < t.threads(); ++th)
            EXPECT_TRUE(p.labels.count("litmus_t" + std::to_string(th) + "_loop")) << f.path();
        std::size_t results = 0;
        for (const auto& s : p.symbols)
            if (s.name == "litmus_results") results = 1;
        EXPECT_EQ(results, 1u);
        ++n;
    }
    EXPECT_EQ(n, 27);
}

TEST(Litmus, AConditionCanAskForALocationsAddress) {
    // `1:X0=y`: register X0 of P1 holds y's address, recorded as y's token
    // (locations in first-mention order: x, y); printed by name.
    const test t = parse("AArch64 P\n{ 0:X1=x; 0:X3=y; 1:X1=x; }\n P0 | P1 ;\n STR X3,[X1] | LDR X0,[X1] ;\n"
                         "exists (1:X0=y /\\ x=y)\n",
                         "p.litmus");
    ASSERT_EQ(t.locations, (std::vector<std::string>{"x", "y"}));
    ASSERT_EQ(t.observed.size(), 2u);  // 1:X0, then x
    EXPECT_TRUE(holds(*t.condition, t, {address_token(1), address_token(1)}));
    EXPECT_FALSE(holds(*t.condition, t, {address_token(0), address_token(1)}));  // x's address, not y's
    EXPECT_FALSE(holds(*t.condition, t, {1, address_token(1)}));
    EXPECT_EQ(state_text(t, {address_token(1), 0}), "1:X0=y; x=0;");
}

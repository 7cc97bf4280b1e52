// `cohsim protocol --murphi`: the generated model carries the simulator's
// tables cell for cell, and --mutate changes exactly the cell it names. (The
// model checked by rumur: tests/protocol/model_check.sh.)
#include <gtest/gtest.h>

#include <sstream>

#include "app/murphi.h"

using namespace cohsim;
using namespace cohsim::protocol;

namespace {

// The lines of the generated cache_cell function.
std::vector<std::string> cache_function_lines(const std::string& model) {
    const auto from = model.find("function cache_cell("), to = model.find("function home_cell(");
    std::vector<std::string> lines;
    std::istringstream in(model.substr(from, to - from));
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

// The generated text of cell (s, e): the line after "case ce_E:" inside "case cs_S:".
std::string generated_cell(const std::string& model, cstate s, cevent e) {
    const auto lines = cache_function_lines(model);
    bool in_state = false;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        if (lines[i] == std::string("  case cs_") + name(s) + ":") in_state = true;
        else if (lines[i].rfind("  case cs_", 0) == 0) in_state = false;
        if (in_state && lines[i].rfind(std::string("    case ce_") + name(e) + ":", 0) == 0) return lines[i + 1];
    }
    return "";
}

}  // namespace

TEST(Murphi, EveryCacheCellIsInTheModelWithItsNextStateAndActions) {
    const std::string model = murphi_model(murphi_options{});
    int cells = 0;
    for (int si = 0; si < static_cast<int>(cstate::count); ++si)
        for (int ei = 0; ei < static_cast<int>(cevent::count); ++ei) {
            const auto s = static_cast<cstate>(si);
            const auto e = static_cast<cevent>(ei);
            const cache_cell& c = cache_transition(s, e);
            const std::string text = generated_cell(model, s, e);
            if (c.kind == outcome::impossible) {
                EXPECT_EQ(text, "") << name(s) << " x " << name(e) << " is impossible: no case";
                continue;
            }
            ++cells;
            if (c.kind == outcome::stall) {
                EXPECT_EQ(text, "      c.kind := oc_stall;") << name(s) << " x " << name(e);
                continue;
            }
            EXPECT_NE(text.find(std::string("c.next := cs_") + name(c.next) + ";"), std::string::npos)
                << name(s) << " x " << name(e) << ": " << text;
            // one assignment per action, in the table's bits: count them
            int actions = 0;
            for (std::uint32_t a = c.actions; a; a &= a - 1) ++actions;
            std::size_t trues = 0;
            for (auto p = text.find(":= true"); p != std::string::npos; p = text.find(":= true", p + 1)) ++trues;
            EXPECT_EQ(trues, static_cast<std::size_t>(actions)) << name(s) << " x " << name(e) << ": " << text;
        }
    // Of 15 x 15, counted by hand from models/coherence_protocol.cpp (the rest
    // impossible): 96 before DC ZVA, + the Zero column (5 stable states, 9
    // stalls), + Inv at the 7 owner states (a MakeU's), + IM_A's row (5
    // stalls, Fwd_GetS, Inv, Ack_M) = 96 + 14 + 7 + 8.
    EXPECT_EQ(cells, 125);
}

TEST(Murphi, SizesSnoopModeAndFarAtomicsAreTheModelsConstants) {
    murphi_options o;
    o.caches = 4, o.lines = 1, o.granules = 2, o.broadcast = true;
    const std::string m = murphi_model(o);
    EXPECT_NE(m.find("  NC: 4;"), std::string::npos);
    EXPECT_NE(m.find("  NL: 1;"), std::string::npos);
    EXPECT_NE(m.find("  NG: 2;"), std::string::npos);
    EXPECT_NE(m.find("  BROADCAST: true;"), std::string::npos);
    EXPECT_NE(m.find("  FAR: false;"), std::string::npos);
    o.far_atomics = true;
    EXPECT_NE(murphi_model(o).find("  FAR: true;"), std::string::npos);
    o.caches = 9;
    EXPECT_THROW(murphi_model(o), std::invalid_argument);
}

TEST(Murphi, MutateChangesExactlyTheNamedCell) {
    murphi_options o;
    add_mutation(o, "cache:S:Inv=S+snp_ack");
    const std::string plain = murphi_model(murphi_options{}), mutated = murphi_model(o);
    EXPECT_EQ(generated_cell(plain, cstate::S, cevent::Inv), "      c.kind := oc_ok; c.next := cs_I; c.drop := true; c.snp_ack := true;");
    EXPECT_EQ(generated_cell(mutated, cstate::S, cevent::Inv), "      c.kind := oc_ok; c.next := cs_S; c.snp_ack := true;");
    EXPECT_NE(mutated.find("MUTATED: 1 cache-table cell"), std::string::npos);
    // every other cell is as it was
    const auto a = cache_function_lines(plain), b = cache_function_lines(mutated);
    ASSERT_EQ(a.size(), b.size());
    int differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) differ += a[i] != b[i];
    EXPECT_EQ(differ, 2);  // the case line (marked MUTATED) and the cell's body

    murphi_options st;
    add_mutation(st, "cache:IS_D:Load=impossible");
    EXPECT_EQ(generated_cell(murphi_model(st), cstate::IS_D, cevent::Load), "");
}

TEST(Murphi, BadMutationsSayWhatIsExpected) {
    murphi_options o;
    auto message = [&](const std::string& text) {
        try {
            add_mutation(o, text);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message("home:S:GetS=M").find("expected cache:STATE:EVENT=NEXT"), std::string::npos);
    EXPECT_NE(message("cache:Q:Inv=S").find("no cache state 'Q' (states: I, S, E"), std::string::npos);
    EXPECT_NE(message("cache:S:Snoop=S").find("no cache event 'Snoop' (events: Load, Store"), std::string::npos);
    EXPECT_NE(message("cache:S:Inv=S+jump").find("no action 'jump' (actions: hit, send_GetS"), std::string::npos);
    EXPECT_TRUE(o.cache_overrides.empty());
}

// The protocol tables, cell by cell.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "models/coherence_protocol.h"

using namespace cohsim::protocol;

namespace {
std::vector<cstate> all_cstates() {
    std::vector<cstate> v;
    for (int i = 0; i < static_cast<int>(cstate::count); ++i) v.push_back(static_cast<cstate>(i));
    return v;
}
std::vector<cevent> all_cevents() {
    std::vector<cevent> v;
    for (int i = 0; i < static_cast<int>(cevent::count); ++i) v.push_back(static_cast<cevent>(i));
    return v;
}
bool is_core_event(cevent e) { return e <= cevent::Zero; }
bool is_snoop(cevent e) { return e >= cevent::Fwd_GetS && e <= cevent::Inv; }
bool is_grant(cevent e) { return e >= cevent::Data_S; }
constexpr std::uint32_t sends_request = a_send_GetS | a_send_GetM | a_send_Upg | a_send_MakeU;
constexpr std::uint32_t sends_put = a_send_PutS | a_send_PutE | a_send_PutO | a_send_PutM;
constexpr std::uint32_t snoop_answers = a_snp_ack | a_snp_clean | a_snp_dirty;
int bits(std::uint32_t x) { return __builtin_popcount(x); }
}  // namespace

TEST(ProtocolTable, EveryCacheCellIsDefined) {
    for (cstate s : all_cstates())
        for (cevent e : all_cevents()) EXPECT_TRUE(cache_transition(s, e).defined) << name(s) << " x " << name(e);
}

TEST(ProtocolTable, EveryHomeCellIsDefined) {
    for (int s = 0; s < static_cast<int>(hstate::count); ++s)
        for (int e = 0; e < static_cast<int>(hevent::count); ++e)
            EXPECT_TRUE(home_transition(static_cast<hstate>(s), static_cast<hevent>(e)).defined)
                << name(static_cast<hstate>(s)) << " x " << name(static_cast<hevent>(e));
}

// Rules every cell must obey, checked over the whole table.
TEST(ProtocolTable, CellsObeyTheProtocolRules) {
    for (cstate s : all_cstates()) {
        for (cevent e : all_cevents()) {
            const auto& c = cache_transition(s, e);
            const std::string where = std::string(name(s)) + " x " + name(e);
            if (c.kind == outcome::stall) {
                // Only core events wait; messages from the home are always taken.
                EXPECT_TRUE(is_core_event(e)) << where;
                EXPECT_FALSE(is_stable(s)) << where;
                EXPECT_EQ(c.next, s) << where;
                continue;
            }
            if (c.kind == outcome::impossible) continue;
            // Every snoop is answered exactly once; nothing else answers.
            EXPECT_EQ(bits(c.actions & snoop_answers), is_snoop(e) ? 1 : 0) << where;
            // Only an owner answers with data; a dirty answer comes from a dirty line.
            if (c.actions & (a_snp_clean | a_snp_dirty)) {
                EXPECT_TRUE(is_owner(s)) << where;
            }
            if (c.actions & a_snp_dirty) {
                EXPECT_TRUE(s == cstate::O || s == cstate::M || s == cstate::OM_A || s == cstate::MI_A ||
                            s == cstate::OI_A)
                    << where;
            }
            if (c.actions & a_snp_clean) {
                EXPECT_TRUE(s == cstate::E || s == cstate::EI_A) << where;
            }
            // Requests and puts come only from core events, at most one.
            EXPECT_LE(bits(c.actions & (sends_request | sends_put)), 1) << where;
            if (c.actions & (sends_request | sends_put)) {
                EXPECT_TRUE(is_core_event(e)) << where;
            }
            // A hit needs permission: loads need read, stores write.
            if (c.actions & a_hit) {
                EXPECT_TRUE(is_core_event(e)) << where;
                if (e == cevent::Load) {
                    EXPECT_TRUE(can_read(s)) << where;
                }
                if (e == cevent::Store || e == cevent::Unique || e == cevent::Zero) {
                    EXPECT_TRUE(can_write(s)) << where;
                }
            }
            // A data/ack grant ends in a stable state and unblocks the home.
            if (is_grant(e) && e != cevent::Put_Ack && e != cevent::Excl_Fail) {
                EXPECT_TRUE(is_stable(c.next)) << where;
                EXPECT_TRUE(c.actions & a_unblock) << where;
            }
            if (e == cevent::Put_Ack || e == cevent::Excl_Fail) {
                EXPECT_EQ(c.next, cstate::I) << where;
                EXPECT_FALSE(c.actions & a_unblock) << where;  // the home never blocked for it
            }
            // A grant or a Put_Ack only changes the state (and unblocks).
            if (is_grant(e)) {
                EXPECT_EQ(c.actions & ~std::uint32_t{a_unblock}, 0u) << where;
            }
            // A cache that loses its copy says so.
            if (holds_data(s) && !holds_data(c.next) && c.next != cstate::I) {
                EXPECT_TRUE(c.actions & a_drop) << where;
            }
        }
    }
}

TEST(ProtocolTable, StableStatesServeTheCoreOrAsk) {
    // Spot checks against the Primer-style reading of each row.
    EXPECT_EQ(cache_transition(cstate::I, cevent::Load).next, cstate::IS_D);
    EXPECT_EQ(cache_transition(cstate::I, cevent::Load).actions, a_send_GetS);
    EXPECT_EQ(cache_transition(cstate::I, cevent::Store).actions, a_send_GetM);
    EXPECT_EQ(cache_transition(cstate::S, cevent::Store).next, cstate::SM_A);
    EXPECT_EQ(cache_transition(cstate::S, cevent::Store).actions, a_send_Upg);
    EXPECT_EQ(cache_transition(cstate::E, cevent::Store).next, cstate::M);  // silent E -> M
    EXPECT_EQ(cache_transition(cstate::E, cevent::Store).actions, a_hit);
    EXPECT_EQ(cache_transition(cstate::M, cevent::Fwd_GetS).next, cstate::O);  // dirty sharing, no memory write
    EXPECT_EQ(cache_transition(cstate::M, cevent::Fwd_GetS).actions, a_snp_dirty);
    EXPECT_EQ(cache_transition(cstate::E, cevent::Fwd_GetS).next, cstate::S);
    EXPECT_EQ(cache_transition(cstate::M, cevent::Replacement).actions, a_send_PutM);
    EXPECT_EQ(cache_transition(cstate::S, cevent::Replacement).actions, a_send_PutS);  // explicit clean eviction
    // A full-line write (DC ZVA) needs no data: from I it asks for the line
    // without it (MakeU); a valid copy is upgraded as for a store.
    EXPECT_EQ(cache_transition(cstate::I, cevent::Zero).next, cstate::IM_A);
    EXPECT_EQ(cache_transition(cstate::I, cevent::Zero).actions, a_send_MakeU);
    EXPECT_EQ(cache_transition(cstate::S, cevent::Zero).actions, a_send_Upg);
    EXPECT_EQ(cache_transition(cstate::E, cevent::Zero).next, cstate::M);
    EXPECT_EQ(cache_transition(cstate::IM_A, cevent::Ack_M).next, cstate::M);
    EXPECT_EQ(cache_transition(cstate::IM_A, cevent::Data_M).kind, outcome::impossible);  // never data
    // An owner snooped by another's MakeU invalidates without its data.
    for (cstate s : {cstate::E, cstate::O, cstate::M}) {
        EXPECT_EQ(cache_transition(s, cevent::Inv).next, cstate::I) << name(s);
        EXPECT_EQ(cache_transition(s, cevent::Inv).actions, a_snp_ack | a_drop) << name(s);
    }
    EXPECT_EQ(cache_transition(cstate::MI_A, cevent::Inv).next, cstate::II_A);
}

TEST(ProtocolTable, RacesInTransientStates) {
    // An upgrade overtaken by another writer becomes a miss.
    EXPECT_EQ(cache_transition(cstate::SM_A, cevent::Inv).next, cstate::IM_D);
    EXPECT_EQ(cache_transition(cstate::OM_A, cevent::Fwd_GetM).next, cstate::IM_D);
    EXPECT_EQ(cache_transition(cstate::OM_A, cevent::Fwd_GetM).actions, a_snp_dirty | a_drop);
    // An eviction overtaken by a reader keeps supplying the data.
    EXPECT_EQ(cache_transition(cstate::MI_A, cevent::Fwd_GetS).next, cstate::OI_A);
    EXPECT_EQ(cache_transition(cstate::EI_A, cevent::Fwd_GetS).next, cstate::SI_A);
    EXPECT_EQ(cache_transition(cstate::MI_A, cevent::Fwd_GetM).next, cstate::II_A);
    EXPECT_EQ(cache_transition(cstate::II_A, cevent::Put_Ack).next, cstate::I);
    // Waiting caches answer broadcast snoops as misses and keep waiting.
    EXPECT_EQ(cache_transition(cstate::IS_D, cevent::Inv).next, cstate::IS_D);
    EXPECT_EQ(cache_transition(cstate::IS_D, cevent::Inv).actions, a_snp_ack);
    // Fwd_GetM is for owners only.
    for (cstate s : {cstate::I, cstate::S, cstate::IS_D, cstate::IM_D, cstate::SM_A, cstate::SI_A, cstate::II_A})
        EXPECT_EQ(cache_transition(s, cevent::Fwd_GetM).kind, outcome::impossible) << name(s);
    EXPECT_EQ(cache_transition(cstate::IS_D, cevent::Store).kind, outcome::stall);
    EXPECT_EQ(cache_transition(cstate::SM_A, cevent::Load).actions, a_hit);  // still readable
}

TEST(ProtocolTable, HomeCellsMatchTheirIntent) {
    const auto& i_gets = home_transition(hstate::I, hevent::GetS);
    EXPECT_TRUE(i_gets.mem_read);
    EXPECT_EQ(i_gets.grant_clean, grant::Data_E);  // alone: exclusive
    const auto& m_gets = home_transition(hstate::M, hevent::GetS);
    EXPECT_EQ(m_gets.to_owner, snoop::Fwd_GetS);
    EXPECT_FALSE(m_gets.mem_read);
    EXPECT_EQ(m_gets.next_dirty, hstate::O);
    EXPECT_EQ(m_gets.next_clean, hstate::S);
    const auto& m_getm = home_transition(hstate::M, hevent::GetM);
    EXPECT_EQ(m_getm.grant_dirty, grant::Data_M);  // dirty data moves cache to cache
    EXPECT_FALSE(m_getm.mem_read);
    const auto& s_upg = home_transition(hstate::S, hevent::Upg_sharer);
    EXPECT_EQ(s_upg.to_sharers, snoop::Inv);
    EXPECT_EQ(s_upg.grant_clean, grant::Ack_E);
    EXPECT_EQ(home_transition(hstate::O, hevent::Upg_sharer).grant_clean, grant::Ack_M);
    // An upgrade from a cache that lost its copy is served as a write miss.
    for (int s = 0; s < static_cast<int>(hstate::count); ++s) {
        const auto& a = home_transition(static_cast<hstate>(s), hevent::Upg_other);
        const auto& b = home_transition(static_cast<hstate>(s), hevent::GetM);
        EXPECT_EQ(a.grant_dirty, b.grant_dirty);
        EXPECT_EQ(a.to_owner, b.to_owner);
        EXPECT_EQ(a.mem_read, b.mem_read);
        // A store-exclusive's upgrade that lost its copy fails and changes nothing.
        const auto& x = home_transition(static_cast<hstate>(s), hevent::Upg_lost_excl);
        EXPECT_EQ(x.grant_clean, grant::Excl_Fail);
        EXPECT_EQ(x.next_clean, static_cast<hstate>(s));
        EXPECT_EQ(x.to_owner, snoop::none);
        EXPECT_EQ(x.to_sharers, snoop::none);
        EXPECT_FALSE(x.mem_read);
        // A stale eviction is acknowledged and changes nothing.
        const auto& st = home_transition(static_cast<hstate>(s), hevent::Put_stale);
        EXPECT_EQ(st.grant_clean, grant::Put_Ack);
        EXPECT_EQ(st.next_clean, static_cast<hstate>(s));
        EXPECT_EQ(st.to_owner, snoop::none);
        // A MakeU: every other copy invalidated (the owner's too, without
        // its data), nothing read, the requester the unique dirty owner.
        const auto& mu = home_transition(static_cast<hstate>(s), hevent::MakeU);
        EXPECT_EQ(mu.kind, outcome::ok);
        EXPECT_FALSE(mu.mem_read);
        EXPECT_EQ(mu.grant_clean, grant::Ack_M);
        EXPECT_EQ(mu.grant_dirty, grant::Ack_M);
        EXPECT_EQ(mu.next_clean, hstate::M);
        EXPECT_EQ(mu.requester_after, role::owner);
        EXPECT_EQ(mu.to_owner, static_cast<hstate>(s) == hstate::M || static_cast<hstate>(s) == hstate::O ? snoop::Inv : snoop::none);
        EXPECT_EQ(mu.to_sharers, static_cast<hstate>(s) == hstate::S || static_cast<hstate>(s) == hstate::O ? snoop::Inv : snoop::none);
    }
    // Every grant the home gives is one the waiting cache can take.
    for (int s = 0; s < static_cast<int>(hstate::count); ++s) {
        for (hevent e : {hevent::GetS, hevent::GetM, hevent::Upg_sharer, hevent::Upg_owner, hevent::Upg_other, hevent::MakeU}) {
            const auto& c = home_transition(static_cast<hstate>(s), e);
            if (c.kind != outcome::ok) continue;
            const cstate waiting = e == hevent::GetS ? cstate::IS_D
                                   : e == hevent::MakeU ? cstate::IM_A
                                   : e == hevent::Upg_sharer ? cstate::SM_A
                                   : e == hevent::Upg_owner ? cstate::OM_A
                                                            : cstate::IM_D;
            for (grant g : {c.grant_clean, c.grant_dirty})
                EXPECT_EQ(cache_transition(waiting, as_event(g)).kind, outcome::ok)
                    << name(static_cast<hstate>(s)) << " x " << name(e) << " grants " << name(g);
        }
    }
}

TEST(ProtocolTable, HomeEntryBookkeeping) {
    home_entry h;
    EXPECT_TRUE(h.consistent());
    EXPECT_EQ(h.classify(request::GetS, 1), hevent::GetS);
    h.apply(home_transition(hstate::I, hevent::GetS), 1, false);  // 1 reads alone: owner, unique
    EXPECT_EQ(h.state, hstate::M);
    EXPECT_EQ(h.owner, 1);
    h.apply(home_transition(hstate::M, hevent::GetS), 2, true);  // 2 reads; 1 had written: O + sharer
    EXPECT_EQ(h.state, hstate::O);
    EXPECT_EQ(h.owner, 1);
    EXPECT_EQ(h.sharers, std::vector<int>{2});
    EXPECT_EQ(h.classify(request::Upg, 2), hevent::Upg_sharer);
    EXPECT_EQ(h.classify(request::Upg, 1), hevent::Upg_owner);
    EXPECT_EQ(h.classify(request::Upg, 3), hevent::Upg_other);
    EXPECT_EQ(h.classify(request::Upg, 3, true), hevent::Upg_lost_excl);
    EXPECT_EQ(h.classify(request::Upg, 2, true), hevent::Upg_sharer);  // still a sharer: it may go ahead
    EXPECT_EQ(h.classify(request::PutM, 3), hevent::Put_stale);
    EXPECT_EQ(h.classify(request::MakeU, 3), hevent::MakeU);
    h.apply(home_transition(hstate::O, hevent::Upg_sharer), 2, true);
    EXPECT_EQ(h.state, hstate::M);
    EXPECT_EQ(h.owner, 2);
    EXPECT_TRUE(h.sharers.empty());
    h.apply(home_transition(hstate::M, hevent::Put_owner), 2, false);
    EXPECT_EQ(h.state, hstate::I);
    EXPECT_EQ(h.owner, -1);
    EXPECT_TRUE(h.consistent());
    // A MakeU from 3 while 1 owns the line dirty and 2 shares it: 3 alone owns it.
    h.apply(home_transition(hstate::I, hevent::GetM), 1, false);
    h.apply(home_transition(hstate::M, hevent::GetS), 2, true);
    ASSERT_EQ(h.state, hstate::O);
    h.apply(home_transition(hstate::O, hevent::MakeU), 3, false);
    EXPECT_EQ(h.state, hstate::M);
    EXPECT_EQ(h.owner, 3);
    EXPECT_TRUE(h.sharers.empty());
    EXPECT_TRUE(h.consistent());
}

// `cohsim protocol` round-trips: each printed cell, read back (next
// state and actions, or stall, or impossible), is the table's cell.
TEST(ProtocolMarkdown, EveryPrintedCellReadsBackAsTheTablesCell) {
    const std::string md = cache_table_markdown();
    std::istringstream lines(md);
    std::string line;
    std::getline(lines, line);  // header
    std::vector<std::string> events;
    {
        std::istringstream h(line);
        std::string f;
        std::getline(h, f, '|');
        std::getline(h, f, '|');  // "state"
        while (std::getline(h, f, '|'))
            if (f.size() > 2) events.push_back(f.substr(1, f.size() - 2));
    }
    ASSERT_EQ(events.size(), static_cast<std::size_t>(cevent::count));
    std::getline(lines, line);  // ---
    std::size_t rows = 0;
    while (std::getline(lines, line)) {
        std::vector<std::string> f;
        std::istringstream r(line);
        std::string x;
        std::getline(r, x, '|');
        while (std::getline(r, x, '|')) f.push_back(x.substr(1, x.size() - 2));
        ASSERT_EQ(f.size(), events.size() + 1) << line;
        const auto s = static_cast<cstate>(rows++);
        EXPECT_EQ(f[0], name(s));
        for (std::size_t e = 0; e < events.size(); ++e) {
            const auto ev = static_cast<cevent>(e);
            EXPECT_EQ(events[e], name(ev));
            const cache_cell& c = cache_transition(s, ev);
            const std::string& t = f[e + 1];
            if (t == "—") {
                EXPECT_EQ(c.kind, outcome::impossible) << name(s) << " x " << name(ev);
            } else if (t == "stall") {
                EXPECT_EQ(c.kind, outcome::stall) << name(s) << " x " << name(ev);
            } else {
                ASSERT_EQ(c.kind, outcome::ok) << name(s) << " x " << name(ev);
                const auto colon = t.find(':');
                EXPECT_EQ(t.substr(0, colon), name(c.next)) << t;
                // Every action named in the cell is one of the cell's, and their number matches.
                const std::string acts = colon == std::string::npos ? "" : t.substr(colon + 2);
                std::size_t named = acts.empty() ? 0 : 1 + static_cast<std::size_t>(std::count(acts.begin(), acts.end(), ','));
                EXPECT_EQ(named, static_cast<std::size_t>(__builtin_popcount(c.actions))) << t;
            }
        }
    }
    EXPECT_EQ(rows, static_cast<std::size_t>(cstate::count));
    // The home table has a row per home state and a column per home event.
    const std::string hmd = home_table_markdown();
    EXPECT_EQ(static_cast<std::size_t>(std::count(hmd.begin(), hmd.end(), '\n')), static_cast<std::size_t>(hstate::count) + 2);
    EXPECT_NE(hmd.find("| " + cell_text(home_transition(hstate::O, hevent::Upg_lost_excl)) + " |"), std::string::npos);
}

// The home's transaction table: requests wait while a line is busy; answers
// come only while the home waits for them; one Unblock ends a transaction.
TEST(ProtocolTable, TransactionsBlockTheLineUntilTheUnblock) {
    using T = tstate;
    using V = tevent;
    for (int s = 0; s < static_cast<int>(T::count); ++s)
        for (int e = 0; e < static_cast<int>(V::count); ++e)
            EXPECT_TRUE(transaction_transition(static_cast<T>(s), static_cast<V>(e)).defined) << s << " x " << e;
    EXPECT_EQ(transaction_transition(T::Idle, V::Request).next, T::Wait_answers);
    EXPECT_EQ(transaction_transition(T::Idle, V::Immediate).next, T::Idle);
    for (T busy : {T::Wait_answers, T::Wait_unblock})
        for (V req : {V::Request, V::Immediate}) EXPECT_EQ(transaction_transition(busy, req).kind, outcome::stall);
    EXPECT_EQ(transaction_transition(T::Wait_answers, V::Answer).next, T::Wait_answers);
    EXPECT_EQ(transaction_transition(T::Wait_answers, V::Ready).next, T::Wait_unblock);
    EXPECT_EQ(transaction_transition(T::Wait_unblock, V::Unblock).next, T::Idle);
    for (V late : {V::Answer, V::Ready, V::Unblock}) EXPECT_EQ(transaction_transition(T::Idle, late).kind, outcome::impossible);
    EXPECT_EQ(transaction_transition(T::Wait_answers, V::Unblock).kind, outcome::impossible);
    EXPECT_EQ(transaction_transition(T::Wait_unblock, V::Answer).kind, outcome::impossible);
}

// The home's serving sequence (home_line), step by step: a write while
// another core owns the line dirty, and the checks on each step.
TEST(ProtocolHomeLine, ServesAWriteToADirtyLineStepByStep) {
    home_line h;
    // Core 1 reads the line alone: no snoops; granted unique and clean.
    const home_cell& first = home_transition(h.e.state, h.classify(request::GetS, 1, false, false));
    ASSERT_TRUE(h.open(first, 1, 0));
    EXPECT_TRUE(h.busy());
    EXPECT_EQ(h.granted(), grant::Data_E);
    ASSERT_TRUE(h.ready(false));
    EXPECT_EQ(h.phase, tstate::Wait_unblock);
    EXPECT_TRUE(h.busy());  // until the requester's Unblock
    ASSERT_TRUE(h.unblocked());
    EXPECT_FALSE(h.busy());
    EXPECT_EQ(h.e.owner, 1);
    // Core 2 writes: the owner, 1, is snooped (Fwd_GetM) and must bring the line.
    const hevent ev = h.classify(request::GetM, 2, false, false);
    ASSERT_EQ(ev, hevent::GetM);
    const home_cell& write = home_transition(h.e.state, ev);
    ASSERT_TRUE(h.open(write, 2, 1));
    EXPECT_EQ(h.owner_at_start, 1);
    EXPECT_EQ(h.requester, 2);
    EXPECT_FALSE(h.open(write, 3, 1));  // a second request waits: refused, nothing changes
    EXPECT_EQ(h.requester, 2);
    EXPECT_EQ(h.answered(1, false, false), home_line::answer_check::owner_without_data);
    EXPECT_EQ(h.answers_left, 1);  // the refused answer is not counted
    EXPECT_EQ(h.answered(1, true, true), home_line::answer_check::ok);
    EXPECT_EQ(h.answers_left, 0);
    EXPECT_TRUE(h.owner_dirty);
    EXPECT_EQ(h.answered(1, true, true), home_line::answer_check::unexpected);  // one too many
    EXPECT_EQ(h.granted(), write.grant_dirty);
    EXPECT_EQ(h.granted(), grant::Data_M);
    ASSERT_TRUE(h.ready(false));
    EXPECT_EQ(h.e.state, hstate::M);
    EXPECT_EQ(h.e.owner, 2);
    EXPECT_TRUE(h.e.sharers.empty());
    EXPECT_FALSE(h.ready(false));  // granted once
    ASSERT_TRUE(h.unblocked());
    EXPECT_FALSE(h.unblocked());  // an idle line has nothing to unblock
    EXPECT_EQ(h.answered(2, true, false), home_line::answer_check::unexpected);
    EXPECT_TRUE(h.e.consistent());
}

TEST(ProtocolHomeLine, AnswersAtOnceAndFarAtomics) {
    home_line h;
    const home_cell& read = home_transition(hstate::I, hevent::GetS);
    ASSERT_TRUE(h.open(read, 1, 0) && h.ready(false) && h.unblocked());
    // Core 3's store-exclusive upgrade lost its copy (it never had one): it
    // fails at once and the record stays as it was.
    const hevent lost = h.classify(request::Upg, 3, true, false);
    ASSERT_EQ(lost, hevent::Upg_lost_excl);
    const home_cell& fail = home_transition(h.e.state, lost);
    ASSERT_EQ(fail.grant_clean, grant::Excl_Fail);
    ASSERT_TRUE(h.immediate(fail, 3));
    EXPECT_EQ(h.e.owner, 1);
    EXPECT_EQ(h.phase, tstate::Idle);
    // The owner's eviction is answered at once too, and the record changes.
    const home_cell& put = home_transition(h.e.state, h.classify(request::PutE, 1, false, false));
    ASSERT_TRUE(h.immediate(put, 1));
    EXPECT_EQ(h.e.state, hstate::I);
    EXPECT_EQ(h.e.owner, -1);
    // A far atomic from 1 is served as a GetM whatever 1 holds, and leaves nobody holding the line.
    ASSERT_TRUE(h.open(read, 2, 0) && h.ready(false) && h.unblocked());
    EXPECT_EQ(h.classify(request::Upg, 2, false, true), hevent::GetM);
    ASSERT_TRUE(h.open(home_transition(h.e.state, hevent::GetM), 1, 1));
    EXPECT_FALSE(h.immediate(put, 1));  // busy: an eviction waits as well
    ASSERT_EQ(h.answered(2, true, false), home_line::answer_check::ok);
    ASSERT_TRUE(h.ready(true));
    EXPECT_EQ(h.e.state, hstate::I);
    EXPECT_EQ(h.e.owner, -1);
    EXPECT_TRUE(h.e.sharers.empty());
}

// The executor runs each action bit once, in its fixed order, and refuses an
// action the controller cannot do where it runs the cell.
TEST(ProtocolExecutor, RunsTheCellsActionsInOrder) {
    struct record : cache_actions {
        std::string log;
        void hit() { log += "hit "; }
        void send(request r) { log += std::string("send ") + name(r) + " "; }
        void drop() { log += "drop "; }
        void answer(answer_kind a) { log += a == answer_kind::dirty ? "dirty " : a == answer_kind::clean ? "clean " : "ack "; }
        void unblock() { log += "unblock "; }
    };
    record r;
    execute(cache_transition(cstate::M, cevent::Fwd_GetM), r);  // dirty data, and the line goes
    EXPECT_EQ(r.log, "drop dirty ");
    r.log.clear();
    execute(cache_transition(cstate::SM_A, cevent::Ack_M), r);
    EXPECT_EQ(r.log, "unblock ");
    r.log.clear();
    execute(cache_transition(cstate::S, cevent::Store), r);
    EXPECT_EQ(r.log, "send Upg ");
    r.log.clear();
    execute(cache_transition(cstate::E, cevent::Store), r);
    EXPECT_EQ(r.log, "hit ");
    struct only_hits : cache_actions {
        void hit() {}
    };
    EXPECT_THROW(execute(cache_transition(cstate::I, cevent::Load), only_hits{}), std::logic_error);
}

TEST(ProtocolMarkdown, TheTransactionTableIsPrinted) {
    const std::string md = transaction_table_markdown();
    EXPECT_NE(md.find("| Wait_unblock | stall | stall | — | — | Idle |"), std::string::npos) << md;
}

// The snoop targets' list keeps every agent in the order added, past its 16
// unallocated places too (a 64-core line shared by all).
TEST(AgentList, KeepsEveryAgentInOrderBeyondItsSmallCapacity) {
    for (int n : {0, 1, 16, 17, 64}) {
        agent_list l;
        for (int a = 0; a < n; ++a) l.push_back(100 - a);
        ASSERT_EQ(l.size(), static_cast<std::size_t>(n));
        EXPECT_EQ(l.empty(), n == 0);
        int expect = 100;
        for (int a : l) EXPECT_EQ(a, expect--);
        EXPECT_EQ(expect, 100 - n);
    }
    // Targets: the owner, then the sharers, never the requester.
    home_entry e;
    e.owner = 3;
    for (int s = 0; s < 20; ++s)
        if (s != 3) e.sharers.push_back(s);
    home_cell c{};
    c.to_owner = snoop::Inv;
    c.to_sharers = snoop::Inv;
    const agent_list t = e.targets(c, 5);
    std::vector<int> got(t.begin(), t.end());
    std::vector<int> want = {3};
    for (int s = 0; s < 20; ++s)
        if (s != 3 && s != 5) want.push_back(s);
    EXPECT_EQ(got, want);
}

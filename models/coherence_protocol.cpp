#include "models/coherence_protocol.h"

#include <stdexcept>

#include <algorithm>
#include <array>

namespace cohsim::protocol {
namespace {

constexpr std::size_t n_cstate = static_cast<std::size_t>(cstate::count);
constexpr std::size_t n_cevent = static_cast<std::size_t>(cevent::count);
constexpr std::size_t n_hstate = static_cast<std::size_t>(hstate::count);
constexpr std::size_t n_hevent = static_cast<std::size_t>(hevent::count);

using detail::cache_table;
using detail::home_table;
using detail::transaction_table;

struct cache_builder {
    cache_table& t;
    void ok(cstate s, cevent e, cstate next, std::uint32_t actions) {
        t[static_cast<std::size_t>(s)][static_cast<std::size_t>(e)] = {outcome::ok, next, actions, true};
    }
    void stall(cstate s, cevent e) {
        t[static_cast<std::size_t>(s)][static_cast<std::size_t>(e)] = {outcome::stall, s, a_none, true};
    }
    void impossible(cstate s, cevent e) {
        t[static_cast<std::size_t>(s)][static_cast<std::size_t>(e)] = {outcome::impossible, s, a_none, true};
    }
    void stall_core(cstate s) {
        for (cevent e : {cevent::Load, cevent::Store, cevent::Unique, cevent::Replacement, cevent::Zero}) stall(s, e);
    }
    // Responses a state never waits for.
    void no_grants(cstate s, std::initializer_list<cevent> except = {}) {
        for (cevent e : {cevent::Data_S, cevent::Data_E, cevent::Data_M, cevent::Ack_E, cevent::Ack_M, cevent::Put_Ack,
                         cevent::Excl_Fail})
            if (std::find(except.begin(), except.end(), e) == except.end()) impossible(s, e);
    }
};

void build_cache_table(cache_table& table) {
    using S = cstate;
    using E = cevent;
    cache_builder b{table};

    // I: no copy. Snoops reach it only with broadcast snooping: answer "miss".
    b.ok(S::I, E::Load, S::IS_D, a_send_GetS);
    b.ok(S::I, E::Store, S::IM_D, a_send_GetM);
    b.ok(S::I, E::Unique, S::IM_D, a_send_GetM);
    b.ok(S::I, E::Zero, S::IM_A, a_send_MakeU);  // the line will be overwritten whole: no data needed
    b.impossible(S::I, E::Replacement);  // victims are chosen among valid lines
    b.ok(S::I, E::Fwd_GetS, S::I, a_snp_ack);
    b.impossible(S::I, E::Fwd_GetM);  // Fwd_GetM goes to the owner only
    b.ok(S::I, E::Inv, S::I, a_snp_ack);
    b.no_grants(S::I);

    // S: clean shared copy, read-only.
    b.ok(S::S, E::Load, S::S, a_hit);
    b.ok(S::S, E::Store, S::SM_A, a_send_Upg);
    b.ok(S::S, E::Unique, S::SM_A, a_send_Upg);
    b.ok(S::S, E::Zero, S::SM_A, a_send_Upg);  // a valid copy is made unique, as for a store
    b.ok(S::S, E::Replacement, S::SI_A, a_send_PutS);
    b.ok(S::S, E::Fwd_GetS, S::S, a_snp_ack);  // broadcast: another reader; the owner or memory supplies
    b.impossible(S::S, E::Fwd_GetM);  // a sharer is invalidated with Inv
    b.ok(S::S, E::Inv, S::I, a_snp_ack | a_drop);
    b.no_grants(S::S);

    // E: unique clean; a store makes it M without asking anyone.
    b.ok(S::E, E::Load, S::E, a_hit);
    b.ok(S::E, E::Store, S::M, a_hit);
    b.ok(S::E, E::Unique, S::E, a_hit);
    b.ok(S::E, E::Zero, S::M, a_hit);
    b.ok(S::E, E::Replacement, S::EI_A, a_send_PutE);
    b.ok(S::E, E::Fwd_GetS, S::S, a_snp_clean);
    b.ok(S::E, E::Fwd_GetM, S::I, a_snp_clean | a_drop);
    b.ok(S::E, E::Inv, S::I, a_snp_ack | a_drop);  // another cache's MakeU: its write overwrites the whole line
    b.no_grants(S::E);

    // O: dirty owner, others may share; read-only.
    b.ok(S::O, E::Load, S::O, a_hit);
    b.ok(S::O, E::Store, S::OM_A, a_send_Upg);
    b.ok(S::O, E::Unique, S::OM_A, a_send_Upg);
    b.ok(S::O, E::Zero, S::OM_A, a_send_Upg);
    b.ok(S::O, E::Replacement, S::OI_A, a_send_PutO);
    b.ok(S::O, E::Fwd_GetS, S::O, a_snp_dirty);
    b.ok(S::O, E::Fwd_GetM, S::I, a_snp_dirty | a_drop);
    b.ok(S::O, E::Inv, S::I, a_snp_ack | a_drop);  // MakeU: the dirty data is not needed
    b.no_grants(S::O);

    // M: unique dirty.
    b.ok(S::M, E::Load, S::M, a_hit);
    b.ok(S::M, E::Store, S::M, a_hit);
    b.ok(S::M, E::Unique, S::M, a_hit);
    b.ok(S::M, E::Zero, S::M, a_hit);
    b.ok(S::M, E::Replacement, S::MI_A, a_send_PutM);
    b.ok(S::M, E::Fwd_GetS, S::O, a_snp_dirty);
    b.ok(S::M, E::Fwd_GetM, S::I, a_snp_dirty | a_drop);
    b.ok(S::M, E::Inv, S::I, a_snp_ack | a_drop);
    b.no_grants(S::M);

    // IS_D: GetS sent. Holds nothing, so any snoop is a miss.
    b.stall_core(S::IS_D);
    b.ok(S::IS_D, E::Fwd_GetS, S::IS_D, a_snp_ack);
    b.impossible(S::IS_D, E::Fwd_GetM);
    b.ok(S::IS_D, E::Inv, S::IS_D, a_snp_ack);
    b.ok(S::IS_D, E::Data_S, S::S, a_unblock);
    b.ok(S::IS_D, E::Data_E, S::E, a_unblock);
    b.no_grants(S::IS_D, {E::Data_S, E::Data_E});  // a reader is never handed dirty data

    // IM_D: GetM sent (or an upgrade that lost its copy on the way).
    b.stall_core(S::IM_D);
    b.ok(S::IM_D, E::Fwd_GetS, S::IM_D, a_snp_ack);
    b.impossible(S::IM_D, E::Fwd_GetM);
    b.ok(S::IM_D, E::Inv, S::IM_D, a_snp_ack);
    b.ok(S::IM_D, E::Data_E, S::E, a_unblock);
    b.ok(S::IM_D, E::Data_M, S::M, a_unblock);
    // A store-exclusive's upgrade that lost its copy fails at the home
    // without taking the line (ACE exclusive CleanUnique).
    b.ok(S::IM_D, E::Excl_Fail, S::I, a_none);
    b.no_grants(S::IM_D, {E::Data_E, E::Data_M, E::Excl_Fail});

    // SM_A: upgrade from S sent; the copy is still valid for reading.
    b.ok(S::SM_A, E::Load, S::SM_A, a_hit);
    b.stall(S::SM_A, E::Store);
    b.stall(S::SM_A, E::Unique);
    b.stall(S::SM_A, E::Zero);
    b.stall(S::SM_A, E::Replacement);
    b.ok(S::SM_A, E::Fwd_GetS, S::SM_A, a_snp_ack);
    b.impossible(S::SM_A, E::Fwd_GetM);
    b.ok(S::SM_A, E::Inv, S::IM_D, a_snp_ack | a_drop);  // a writer got in first: the upgrade will bring data
    b.ok(S::SM_A, E::Ack_E, S::E, a_unblock);
    b.ok(S::SM_A, E::Ack_M, S::M, a_unblock);
    b.no_grants(S::SM_A, {E::Ack_E, E::Ack_M});

    // OM_A: upgrade from O sent.
    b.ok(S::OM_A, E::Load, S::OM_A, a_hit);
    b.stall(S::OM_A, E::Store);
    b.stall(S::OM_A, E::Unique);
    b.stall(S::OM_A, E::Zero);
    b.stall(S::OM_A, E::Replacement);
    b.ok(S::OM_A, E::Fwd_GetS, S::OM_A, a_snp_dirty);
    b.ok(S::OM_A, E::Fwd_GetM, S::IM_D, a_snp_dirty | a_drop);
    b.ok(S::OM_A, E::Inv, S::IM_D, a_snp_ack | a_drop);  // a MakeU got in first: the upgrade will bring data
    b.ok(S::OM_A, E::Ack_M, S::M, a_unblock);
    b.no_grants(S::OM_A, {E::Ack_M});  // the line is dirty: never Ack_E

    // Evictions in flight: the data is still here until Put_Ack and is
    // supplied to snoops; a snoop that takes the line away leaves II_A.
    b.stall_core(S::MI_A);
    b.ok(S::MI_A, E::Fwd_GetS, S::OI_A, a_snp_dirty);
    b.ok(S::MI_A, E::Fwd_GetM, S::II_A, a_snp_dirty | a_drop);
    b.ok(S::MI_A, E::Inv, S::II_A, a_snp_ack | a_drop);  // MakeU: the PutM's data will be stale
    b.ok(S::MI_A, E::Put_Ack, S::I, a_none);  // the data leaves with the eviction
    b.no_grants(S::MI_A, {E::Put_Ack});

    b.stall_core(S::EI_A);
    b.ok(S::EI_A, E::Fwd_GetS, S::SI_A, a_snp_clean);
    b.ok(S::EI_A, E::Fwd_GetM, S::II_A, a_snp_clean | a_drop);
    b.ok(S::EI_A, E::Inv, S::II_A, a_snp_ack | a_drop);
    b.ok(S::EI_A, E::Put_Ack, S::I, a_none);
    b.no_grants(S::EI_A, {E::Put_Ack});

    b.stall_core(S::OI_A);
    b.ok(S::OI_A, E::Fwd_GetS, S::OI_A, a_snp_dirty);
    b.ok(S::OI_A, E::Fwd_GetM, S::II_A, a_snp_dirty | a_drop);
    b.ok(S::OI_A, E::Inv, S::II_A, a_snp_ack | a_drop);
    b.ok(S::OI_A, E::Put_Ack, S::I, a_none);
    b.no_grants(S::OI_A, {E::Put_Ack});

    b.stall_core(S::SI_A);
    b.ok(S::SI_A, E::Fwd_GetS, S::SI_A, a_snp_ack);
    b.impossible(S::SI_A, E::Fwd_GetM);
    b.ok(S::SI_A, E::Inv, S::II_A, a_snp_ack | a_drop);
    b.ok(S::SI_A, E::Put_Ack, S::I, a_none);
    b.no_grants(S::SI_A, {E::Put_Ack});

    b.stall_core(S::II_A);
    b.ok(S::II_A, E::Fwd_GetS, S::II_A, a_snp_ack);
    b.impossible(S::II_A, E::Fwd_GetM);
    b.ok(S::II_A, E::Inv, S::II_A, a_snp_ack);
    b.ok(S::II_A, E::Put_Ack, S::I, a_none);
    b.no_grants(S::II_A, {E::Put_Ack});

    // IM_A: MakeU sent from I (a full-line write). Holds nothing, so any
    // snoop is a miss; the grant brings no data, the write provides it.
    b.stall_core(S::IM_A);
    b.ok(S::IM_A, E::Fwd_GetS, S::IM_A, a_snp_ack);
    b.impossible(S::IM_A, E::Fwd_GetM);
    b.ok(S::IM_A, E::Inv, S::IM_A, a_snp_ack);
    b.ok(S::IM_A, E::Ack_M, S::M, a_unblock);
    b.no_grants(S::IM_A, {E::Ack_M});
}

struct home_builder {
    home_table& t;
    home_cell& cell(hstate s, hevent e) {
        auto& c = t[static_cast<std::size_t>(s)][static_cast<std::size_t>(e)];
        c = home_cell{};
        c.defined = true;
        c.kind = outcome::ok;
        return c;
    }
    void impossible(hstate s, hevent e) {
        auto& c = t[static_cast<std::size_t>(s)][static_cast<std::size_t>(e)];
        c = home_cell{};
        c.defined = true;
        c.kind = outcome::impossible;
    }
    // Requester gets `g` and becomes `r`; the state becomes `next`.
    home_cell& simple(hstate s, hevent e, grant g, role r, hstate next) {
        auto& c = cell(s, e);
        c.grant_clean = c.grant_dirty = g;
        c.requester_after = r;
        c.next_clean = c.next_dirty = next;
        return c;
    }
    void put_stale(hstate s) { simple(s, hevent::Put_stale, grant::Put_Ack, role::none, s); }
    // A store-exclusive's upgrade from a cache that lost its copy since its
    // exclusive load: the point of serialisation fails it, nothing changes
    // (ACE exclusive CleanUnique; A53 TRM: STXR = CleanUnique with ARLOCK).
    void excl_fail(hstate s) { simple(s, hevent::Upg_lost_excl, grant::Excl_Fail, role::keep, s); }
};

void build_home_table(home_table& table) {
    using H = hstate;
    using V = hevent;
    home_builder b{table};

    // I: memory holds the only copy.
    b.simple(H::I, V::GetS, grant::Data_E, role::owner, H::M).mem_read = true;  // alone: grant E
    b.simple(H::I, V::GetM, grant::Data_E, role::owner, H::M).mem_read = true;
    b.impossible(H::I, V::Upg_sharer);
    b.impossible(H::I, V::Upg_owner);
    b.simple(H::I, V::Upg_other, grant::Data_E, role::owner, H::M).mem_read = true;
    b.excl_fail(H::I);
    b.impossible(H::I, V::Put_owner);
    b.impossible(H::I, V::Put_sharer);
    b.put_stale(H::I);
    b.simple(H::I, V::MakeU, grant::Ack_M, role::owner, H::M);  // no copy anywhere: granted at once

    // S: clean sharers; memory is up to date.
    b.simple(H::S, V::GetS, grant::Data_S, role::sharer, H::S).mem_read = true;
    for (V v : {V::GetM, V::Upg_other}) {
        auto& c = b.simple(H::S, v, grant::Data_E, role::owner, H::M);
        c.mem_read = true;
        c.to_sharers = snoop::Inv;
        c.sharers_cleared = true;
    }
    {
        auto& c = b.simple(H::S, V::Upg_sharer, grant::Ack_E, role::owner, H::M);
        c.to_sharers = snoop::Inv;
        c.sharers_cleared = true;
    }
    b.impossible(H::S, V::Upg_owner);
    b.impossible(H::S, V::Put_owner);
    b.simple(H::S, V::Put_sharer, grant::Put_Ack, role::none, H::S);  // the last one leaving makes it I
    b.put_stale(H::S);
    b.excl_fail(H::S);
    {
        auto& c = b.simple(H::S, V::MakeU, grant::Ack_M, role::owner, H::M);
        c.to_sharers = snoop::Inv;
        c.sharers_cleared = true;
    }

    // M: one owner, unique (E or M at the cache).
    {
        auto& c = b.cell(H::M, V::GetS);
        c.to_owner = snoop::Fwd_GetS;
        c.grant_clean = c.grant_dirty = grant::Data_S;
        c.next_clean = H::S;   // the owner was E: both share a clean line
        c.next_dirty = H::O;   // the owner was M: it keeps the dirty line as O
        c.requester_after = role::sharer;
        c.owner_clean = role::sharer;
        c.owner_dirty = role::keep;
    }
    for (V v : {V::GetM, V::Upg_other}) {
        auto& c = b.cell(H::M, v);
        c.to_owner = snoop::Fwd_GetM;
        c.grant_clean = grant::Data_E;
        c.grant_dirty = grant::Data_M;  // dirty data moves cache to cache
        c.next_clean = c.next_dirty = H::M;
        c.requester_after = role::owner;
        c.owner_clean = c.owner_dirty = role::none;
    }
    b.impossible(H::M, V::Upg_sharer);
    b.impossible(H::M, V::Upg_owner);  // an E/M owner writes without asking
    b.simple(H::M, V::Put_owner, grant::Put_Ack, role::none, H::I);  // a PutM carries the data home
    b.impossible(H::M, V::Put_sharer);
    b.put_stale(H::M);
    b.excl_fail(H::M);
    {
        // The owner invalidates without returning its data: the requester
        // overwrites the whole line.
        auto& c = b.simple(H::M, V::MakeU, grant::Ack_M, role::owner, H::M);
        c.to_owner = snoop::Inv;
        c.owner_clean = c.owner_dirty = role::none;
    }

    // O: dirty owner plus sharers; memory is stale.
    {
        auto& c = b.simple(H::O, V::GetS, grant::Data_S, role::sharer, H::O);
        c.to_owner = snoop::Fwd_GetS;
    }
    for (V v : {V::GetM, V::Upg_other}) {
        auto& c = b.simple(H::O, v, grant::Data_M, role::owner, H::M);
        c.to_owner = snoop::Fwd_GetM;
        c.to_sharers = snoop::Inv;
        c.owner_clean = c.owner_dirty = role::none;
        c.sharers_cleared = true;
    }
    {
        // The sharer's copy equals the owner's: no data moves, but the
        // requester now answers for the dirty line.
        auto& c = b.simple(H::O, V::Upg_sharer, grant::Ack_M, role::owner, H::M);
        c.to_owner = snoop::Fwd_GetM;
        c.to_sharers = snoop::Inv;
        c.owner_clean = c.owner_dirty = role::none;
        c.sharers_cleared = true;
    }
    {
        auto& c = b.simple(H::O, V::Upg_owner, grant::Ack_M, role::owner, H::M);
        c.to_sharers = snoop::Inv;
        c.sharers_cleared = true;
    }
    b.simple(H::O, V::Put_owner, grant::Put_Ack, role::none, H::S);  // a PutO carries the data home
    b.simple(H::O, V::Put_sharer, grant::Put_Ack, role::none, H::O);
    b.put_stale(H::O);
    b.excl_fail(H::O);
    {
        auto& c = b.simple(H::O, V::MakeU, grant::Ack_M, role::owner, H::M);
        c.to_owner = snoop::Inv;
        c.to_sharers = snoop::Inv;
        c.owner_clean = c.owner_dirty = role::none;
        c.sharers_cleared = true;
    }
}

void build_transaction_table(transaction_table& t) {
    using T = tstate;
    using V = tevent;
    auto set = [&t](T s, V e, outcome kind, T next) {
        auto& c = t[static_cast<std::size_t>(s)][static_cast<std::size_t>(e)];
        c.kind = kind;
        c.next = next;
        c.defined = true;
    };
    auto ok = [&](T s, V e, T next) { set(s, e, outcome::ok, next); };
    auto stall = [&](T s, V e) { set(s, e, outcome::stall, s); };
    auto impossible = [&](T s, V e) { set(s, e, outcome::impossible, s); };

    // Idle: the next request is served at once.
    ok(T::Idle, V::Request, T::Wait_answers);  // snoops sent (none: Ready at once)
    ok(T::Idle, V::Immediate, T::Idle);        // Put_Ack or Excl_Fail goes straight back
    impossible(T::Idle, V::Answer);
    impossible(T::Idle, V::Ready);
    impossible(T::Idle, V::Unblock);

    // Serving a request: later requests wait; the answers are counted.
    stall(T::Wait_answers, V::Request);
    stall(T::Wait_answers, V::Immediate);
    ok(T::Wait_answers, V::Answer, T::Wait_answers);
    ok(T::Wait_answers, V::Ready, T::Wait_unblock);  // the grant goes out
    impossible(T::Wait_answers, V::Unblock);         // nothing was granted yet

    // Granted: the line is the requester's until its Unblock.
    stall(T::Wait_unblock, V::Request);
    stall(T::Wait_unblock, V::Immediate);
    impossible(T::Wait_unblock, V::Answer);
    impossible(T::Wait_unblock, V::Ready);
    ok(T::Wait_unblock, V::Unblock, T::Idle);  // then the waiting requests, in arbitration order
}

}  // namespace

namespace detail {
namespace {
template <class T, void (*fill)(T&)>
const T& build_once() {
    static const T t = [] {
        T x{};
        fill(x);
        return x;
    }();
    built<T>.store(&t, std::memory_order_release);
    return t;
}
}  // namespace
template <>
const cache_table& build<cache_table>() { return build_once<cache_table, build_cache_table>(); }
template <>
const home_table& build<home_table>() { return build_once<home_table, build_home_table>(); }
template <>
const transaction_table& build<transaction_table>() { return build_once<transaction_table, build_transaction_table>(); }
}  // namespace detail

void cache_actions::cannot(const char* action) {
    throw std::logic_error(std::string("protocol table: a cell asks for '") + action +
                           "', which the controller cannot do where it executes that cell");
}

bool is_stable(cstate s) { return s <= cstate::M; }
bool can_read(cstate s) {
    switch (s) {
        case cstate::S: case cstate::E: case cstate::O: case cstate::M: case cstate::SM_A: case cstate::OM_A:
            return true;
        default: return false;
    }
}
bool can_write(cstate s) { return s == cstate::E || s == cstate::M; }
bool holds_data(cstate s) {
    switch (s) {
        case cstate::S: case cstate::E: case cstate::O: case cstate::M: case cstate::SM_A: case cstate::OM_A:
        case cstate::MI_A: case cstate::EI_A: case cstate::OI_A: case cstate::SI_A:
            return true;
        default: return false;
    }
}
bool is_owner(cstate s) {
    switch (s) {
        case cstate::E: case cstate::O: case cstate::M: case cstate::OM_A: case cstate::MI_A: case cstate::EI_A:
        case cstate::OI_A:
            return true;
        default: return false;
    }
}

const char* name(cstate s) {
    static const char* n[] = {"I", "S", "E", "O", "M", "IS_D", "IM_D", "SM_A", "OM_A", "MI_A", "EI_A", "OI_A", "SI_A", "II_A", "IM_A"};
    return n[static_cast<std::size_t>(s)];
}
const char* name(cevent e) {
    static const char* n[] = {"Load", "Store", "Unique", "Replacement", "Zero", "Fwd_GetS", "Fwd_GetM", "Inv",
                              "Data_S", "Data_E", "Data_M", "Ack_E", "Ack_M", "Put_Ack", "Excl_Fail"};
    return n[static_cast<std::size_t>(e)];
}
const char* name(hstate s) {
    static const char* n[] = {"I", "S", "M", "O"};
    return n[static_cast<std::size_t>(s)];
}
const char* name(hevent e) {
    static const char* n[] = {"GetS", "GetM", "Upg_sharer", "Upg_owner", "Upg_other", "Upg_lost_excl", "MakeU", "Put_owner", "Put_sharer", "Put_stale"};
    return n[static_cast<std::size_t>(e)];
}
const char* name(tstate s) {
    static const char* n[] = {"Idle", "Wait_answers", "Wait_unblock"};
    return n[static_cast<std::size_t>(s)];
}
const char* name(tevent e) {
    static const char* n[] = {"Request", "Immediate", "Answer", "Ready", "Unblock"};
    return n[static_cast<std::size_t>(e)];
}
const char* name(snoop s) {
    static const char* n[] = {"-", "Fwd_GetS", "Fwd_GetM", "Inv"};
    return n[static_cast<std::size_t>(s)];
}
const char* name(grant g) {
    static const char* n[] = {"-", "Data_S", "Data_E", "Data_M", "Ack_E", "Ack_M", "Put_Ack", "Excl_Fail"};
    return n[static_cast<std::size_t>(g)];
}
const char* name(request r) {
    static const char* n[] = {"GetS", "GetM", "Upg", "MakeU", "PutS", "PutE", "PutO", "PutM"};
    return n[static_cast<std::size_t>(r)];
}
bool carries_data(request r) { return r == request::PutO || r == request::PutM; }

std::string action_names(std::uint32_t a) {
    static const std::pair<caction, const char*> names[] = {
        {a_hit, "hit"},           {a_send_GetS, "send GetS"}, {a_send_GetM, "send GetM"},
        {a_send_Upg, "send Upg"}, {a_send_MakeU, "send MakeU"}, {a_send_PutS, "send PutS"}, {a_send_PutE, "send PutE"}, {a_send_PutO, "send PutO"},
        {a_send_PutM, "send PutM"}, {a_snp_ack, "ack"},       {a_snp_clean, "clean data to home"},
        {a_snp_dirty, "dirty data to home"}, {a_unblock, "unblock"},    {a_drop, "drop"}};
    std::string s;
    for (const auto& [bit, n] : names)
        if (a & bit) s += (s.empty() ? "" : ", ") + std::string(n);
    return s;
}

cevent as_event(grant g) {
    switch (g) {
        case grant::Data_S: return cevent::Data_S;
        case grant::Data_E: return cevent::Data_E;
        case grant::Data_M: return cevent::Data_M;
        case grant::Ack_E: return cevent::Ack_E;
        case grant::Ack_M: return cevent::Ack_M;
        case grant::Excl_Fail: return cevent::Excl_Fail;
        default: return cevent::Put_Ack;
    }
}

cevent as_event(snoop s) {
    switch (s) {
        case snoop::Fwd_GetS: return cevent::Fwd_GetS;
        case snoop::Fwd_GetM: return cevent::Fwd_GetM;
        default: return cevent::Inv;
    }
}

bool home_entry::is_sharer(int agent) const {
    return std::binary_search(sharers.begin(), sharers.end(), agent);
}

hevent home_entry::classify(request r, int requester, bool exclusive) const {
    switch (r) {
        case request::GetS: return hevent::GetS;
        case request::GetM: return hevent::GetM;
        case request::MakeU: return hevent::MakeU;
        case request::Upg:
            if (requester == owner) return hevent::Upg_owner;
            if (is_sharer(requester)) return hevent::Upg_sharer;
            return exclusive ? hevent::Upg_lost_excl : hevent::Upg_other;
        default:
            if (requester == owner) return hevent::Put_owner;
            if (is_sharer(requester)) return hevent::Put_sharer;
            return hevent::Put_stale;
    }
}

agent_list home_entry::targets(const home_cell& cell, int requester) const {
    agent_list t;
    if (cell.to_owner != snoop::none && owner >= 0 && owner != requester) t.push_back(owner);
    if (cell.to_sharers != snoop::none)
        for (int s : sharers)
            if (s != requester) t.push_back(s);
    return t;
}

void home_entry::apply(const home_cell& c, int requester, bool owner_was_dirty) {
    auto remove = [&](int a) { sharers.erase(std::remove(sharers.begin(), sharers.end(), a), sharers.end()); };
    auto add = [&](int a) {
        if (!is_sharer(a)) sharers.insert(std::lower_bound(sharers.begin(), sharers.end(), a), a);
    };
    const int old_owner = owner;
    if (old_owner >= 0 && old_owner != requester) {
        switch (owner_was_dirty ? c.owner_dirty : c.owner_clean) {
            case role::none: owner = -1; break;
            case role::sharer: owner = -1, add(old_owner); break;
            default: break;
        }
    }
    if (c.sharers_cleared) sharers.clear();
    switch (c.requester_after) {
        case role::none:
            remove(requester);
            if (owner == requester) owner = -1;
            break;
        case role::sharer: add(requester); break;
        case role::owner:
            remove(requester);
            owner = requester;
            break;
        case role::keep: break;
    }
    state = owner_was_dirty ? c.next_dirty : c.next_clean;
    if (state == hstate::S && sharers.empty()) state = hstate::I;  // the last sharer left
}

bool home_entry::consistent() const {
    if (std::find(sharers.begin(), sharers.end(), owner) != sharers.end()) return false;
    switch (state) {
        case hstate::I: return owner < 0 && sharers.empty();
        case hstate::S: return owner < 0 && !sharers.empty();
        case hstate::M: return owner >= 0 && sharers.empty();
        case hstate::O: return owner >= 0;
        default: return false;
    }
}

// ---- Markdown ---------------------------------------------------------------

std::string cell_text(const cache_cell& c) {
    if (c.kind == outcome::impossible) return "—";
    if (c.kind == outcome::stall) return "stall";
    const std::string a = action_names(c.actions);
    return std::string(name(c.next)) + (a.empty() ? "" : ": " + a);
}

namespace {
const char* role_name(role r) {
    switch (r) {
        case role::none: return "none";
        case role::sharer: return "sharer";
        case role::owner: return "owner";
        case role::keep: return "keeps its role";
    }
    return "?";
}
}  // namespace

std::string cell_text(const home_cell& c) {
    if (c.kind == outcome::impossible) return "—";
    if (c.kind == outcome::stall) return "stall";
    std::string t;
    auto add = [&](const std::string& part) { t += (t.empty() ? "" : "; ") + part; };
    if (c.to_owner != snoop::none) add(std::string("owner ← ") + name(c.to_owner));
    if (c.to_sharers != snoop::none) add(std::string("sharers ← ") + name(c.to_sharers));
    if (c.mem_read) add("read memory");
    if (c.grant_clean == c.grant_dirty)
        add(std::string("grant ") + name(c.grant_clean));
    else
        add(std::string("grant ") + name(c.grant_clean) + " (dirty owner: " + name(c.grant_dirty) + ")");
    if (c.next_clean == c.next_dirty)
        add(std::string("→ ") + name(c.next_clean));
    else
        add(std::string("→ ") + name(c.next_clean) + " (dirty owner: " + name(c.next_dirty) + ")");
    add(std::string("requester ") + role_name(c.requester_after));
    return t;
}

namespace {
// A table as Markdown: a row per state, a column per event, each cell's text
// and, with counts, how often it ran.
template <class State, class Event, class Counts, class Cell>
std::string markdown(const Counts* counts, Cell cell) {
    const auto n_states = static_cast<std::size_t>(State::count), n_events = static_cast<std::size_t>(Event::count);
    std::string md = "| state |";
    for (std::size_t e = 0; e < n_events; ++e) md += std::string(" ") + name(static_cast<Event>(e)) + " |";
    md += "\n|---|";
    for (std::size_t e = 0; e < n_events; ++e) md += "---|";
    md += "\n";
    for (std::size_t s = 0; s < n_states; ++s) {
        md += std::string("| ") + name(static_cast<State>(s)) + " |";
        for (std::size_t e = 0; e < n_events; ++e) {
            md += " " + cell_text(cell(static_cast<State>(s), static_cast<Event>(e)));
            if (counts && (*counts)[s][e]) md += " ×" + std::to_string((*counts)[s][e]);
            md += " |";
        }
        md += "\n";
    }
    return md;
}
}  // namespace

std::string cache_table_markdown(const cache_counts* counts) {
    return markdown<cstate, cevent>(counts, [](cstate s, cevent e) { return cache_transition(s, e); });
}

std::string home_table_markdown(const home_counts* counts) {
    return markdown<hstate, hevent>(counts, [](hstate s, hevent e) { return home_transition(s, e); });
}

std::string transaction_table_markdown() {
    using no_counts = std::array<std::array<std::uint64_t, static_cast<std::size_t>(tevent::count)>,
                                 static_cast<std::size_t>(tstate::count)>;  // a run does not count these cells
    return markdown<tstate, tevent>(static_cast<const no_counts*>(nullptr),
                                    [](tstate s, tevent e) { return transaction_transition(s, e); });
}

std::string cell_text(const transaction_cell& c) {
    if (c.kind == outcome::impossible) return "—";
    if (c.kind == outcome::stall) return "stall";
    return name(c.next);
}

}  // namespace cohsim::protocol

#include "app/murphi.h"

#include <sstream>
#include <stdexcept>

#include "app/results.h"

namespace cohsim {

using namespace protocol;

namespace {

// The cache-table actions as record fields of the model, in executor order.
const std::pair<caction, const char*> action_fields[] = {
    {a_hit, "hit"},           {a_send_GetS, "send_GetS"}, {a_send_GetM, "send_GetM"}, {a_send_Upg, "send_Upg"},
    {a_send_PutS, "send_PutS"}, {a_send_PutE, "send_PutE"}, {a_send_PutO, "send_PutO"}, {a_send_PutM, "send_PutM"},
    {a_drop, "drop"},         {a_snp_ack, "snp_ack"},     {a_snp_clean, "snp_clean"}, {a_snp_dirty, "snp_dirty"},
    {a_unblock, "unblock"}};

template <class E>
constexpr int count_of() {
    return static_cast<int>(E::count);
}

// Murphi enum literals share one name space: each type gets a prefix.
std::string lit(cstate s) { return std::string("cs_") + name(s); }
std::string lit(cevent e) { return std::string("ce_") + name(e); }
std::string lit(hstate s) { return std::string("hs_") + name(s); }
std::string lit(hevent e) { return std::string("he_") + name(e); }
std::string lit(tstate s) { return std::string("ts_") + name(s); }
std::string lit(tevent e) { return std::string("te_") + name(e); }
std::string lit(request r) { return std::string("rq_") + name(r); }
std::string lit(snoop s) { return s == snoop::none ? "sn_none" : std::string("sn_") + name(s); }
std::string lit(grant g) { return g == grant::none ? "gr_none" : std::string("gr_") + name(g); }
std::string lit(role r) {
    switch (r) {
        case role::none: return "ro_none";
        case role::sharer: return "ro_sharer";
        case role::owner: return "ro_owner";
        default: return "ro_keep";
    }
}
std::string lit(outcome o) { return o == outcome::ok ? "oc_ok" : o == outcome::stall ? "oc_stall" : "oc_impossible"; }

template <class E>
std::string enum_decl(const char* type, int n) {
    std::string s = std::string("  ") + type + ": enum {";
    for (int i = 0; i < n; ++i) s += (i ? ", " : " ") + lit(static_cast<E>(i));
    return s + " };\n";
}

// A predicate over cache states, as a Murphi function.
std::string predicate(const char* fn, bool (*p)(cstate)) {
    std::string s = std::string("function ") + fn + "(s: CState): boolean;\nbegin\n  return false";
    for (int i = 0; i < count_of<cstate>(); ++i)
        if (p(static_cast<cstate>(i))) s += " | s = " + lit(static_cast<cstate>(i));
    return s + ";\nend;\n\n";
}


// A table as a Murphi function: `header` declares it and gives `c` its
// defaults (an impossible cell); `body(s, e)` is a cell's assignments, empty
// for an impossible cell (the default stands).
template <class State, class Event, class Body>
std::string table_function(const std::string& header, Body body) {
    std::ostringstream m;
    m << header << "  switch s\n";
    for (int si = 0; si < count_of<State>(); ++si) {
        const auto s = static_cast<State>(si);
        m << "  case " << lit(s) << ":\n    switch e\n";
        for (int ei = 0; ei < count_of<Event>(); ++ei) {
            const auto e = static_cast<Event>(ei);
            const std::string b = body(s, e);
            if (!b.empty()) m << "    case " << lit(e) << ":" << b << "\n";
        }
        m << "    else\n    endswitch;\n";
    }
    m << "  endswitch;\n  return c;\nend;\n\n";
    return m.str();
}

std::string cache_cell_function(const murphi_options& o) {
    std::string header =
        "-- The cache controller's table, cell by cell (`cohsim protocol --table cache`).\n"
        "function cache_cell(s: CState; e: CEvent): CacheCell;\nvar c: CacheCell;\nbegin\n"
        "  c.kind := oc_impossible; c.next := s;\n";
    for (const auto& [bit, field] : action_fields) header += std::string("  c.") + field + " := false;\n";
    return table_function<cstate, cevent>(header, [&](cstate s, cevent e) {
        const auto over = o.cache_overrides.find({s, e});
        const cache_cell& c = over != o.cache_overrides.end() ? over->second : cache_transition(s, e);
        if (c.kind == outcome::impossible) return std::string();
        std::string b = over != o.cache_overrides.end() ? "  -- MUTATED (--mutate)" : "";
        b += "\n      c.kind := " + lit(c.kind) + ";";
        if (c.kind == outcome::ok) {
            b += " c.next := " + lit(c.next) + ";";
            for (const auto& [bit, field] : action_fields)
                if (c.actions & bit) b += std::string(" c.") + field + " := true;";
        }
        return b;
    });
}

std::string home_cell_function() {
    const char* header =
        "-- The home's table, cell by cell (`cohsim protocol --table home`).\n"
        "function home_cell(s: HState; e: HEvent): HomeCell;\nvar c: HomeCell;\nbegin\n"
        "  c.kind := oc_impossible; c.to_owner := sn_none; c.to_sharers := sn_none; c.mem_read := false;\n"
        "  c.grant_clean := gr_none; c.grant_dirty := gr_none; c.next_clean := hs_I; c.next_dirty := hs_I;\n"
        "  c.requester_after := ro_none; c.owner_clean := ro_keep; c.owner_dirty := ro_keep; c.sharers_cleared := false;\n";
    auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
    return table_function<hstate, hevent>(header, [&](hstate s, hevent e) {
        const home_cell& c = home_transition(s, e);
        if (c.kind == outcome::impossible) return std::string();
        std::string b = "\n      c.kind := " + lit(c.kind) + ";";
        if (c.kind == outcome::ok)
            b += " c.to_owner := " + lit(c.to_owner) + "; c.to_sharers := " + lit(c.to_sharers) +
                 "; c.mem_read := " + flag(c.mem_read) + ";\n      c.grant_clean := " + lit(c.grant_clean) +
                 "; c.grant_dirty := " + lit(c.grant_dirty) + "; c.next_clean := " + lit(c.next_clean) +
                 "; c.next_dirty := " + lit(c.next_dirty) + ";\n      c.requester_after := " + lit(c.requester_after) +
                 "; c.owner_clean := " + lit(c.owner_clean) + "; c.owner_dirty := " + lit(c.owner_dirty) +
                 "; c.sharers_cleared := " + flag(c.sharers_cleared) + ";";
        return b;
    });
}

std::string transaction_cell_function() {
    const char* header =
        "-- The home's transaction (blocking) table (`cohsim protocol --table transactions`).\n"
        "function trans_cell(s: TState; e: TEvent): TransCell;\nvar c: TransCell;\nbegin\n"
        "  c.kind := oc_impossible; c.next := s;\n";
    return table_function<tstate, tevent>(header, [](tstate s, tevent e) {
        const transaction_cell& c = transaction_transition(s, e);
        if (c.kind == outcome::impossible) return std::string();
        return "\n      c.kind := " + lit(c.kind) + "; c.next := " + lit(c.next) + ";";
    });
}

// The part of the model the tables leave to code: channels, the cache's
// executor and replay, the home's records, snoops and blocking, the core.
const char* const machinery = R"MURPHI(
-- A cell that runs (neither stalls nor is impossible).
function takes(s: CState; e: CEvent): boolean;
var c: CacheCell;
begin
  c := cache_cell(s, e);
  return c.kind = oc_ok;
end;

function trans_kind(s: TState; e: TEvent): Outcome;
var t: TransCell;
begin
  t := trans_cell(s, e);
  return t.kind;
end;

function is_data(g: Grant): boolean;
begin
  return g = gr_Data_S | g = gr_Data_E | g = gr_Data_M;
end;

-- ---- channels -------------------------------------------------------------

procedure push(var ch: Chan; m: Msg);
begin
  assert ch.n < QMAX "a channel overflows (more messages in flight than the protocol allows)";
  ch.q[ch.n] := m;
  ch.n := ch.n + 1;
end;

procedure pop(var ch: Chan);
begin
  for i: 0..QMAX-2 do
    if i + 1 < ch.n then ch.q[i] := ch.q[i + 1]; endif;
  endfor;
  ch.n := ch.n - 1;
  undefine ch.q[ch.n];
end;

function new_msg(k: MsgKind; src: Cache; l: Line): Msg;
var m: Msg;
begin
  undefine m;
  m.kind := k; m.src := src; m.line := l; m.req := rq_GetS; m.excl := false;
  m.snp := sn_none; m.gr := gr_none; m.ans := ak_ack;
  m.data := 0;
  return m;
end;

-- ---- the exclusive monitor --------------------------------------------------

procedure open_monitor(c: Cache);
begin
  mon[c].armed := false; mon[c].line := 0; mon[c].g := 0; mon[c].broken := false;
end;

-- The line left the cache (eviction, or a snoop that takes it away).
procedure line_lost(c: Cache; l: Line);
begin
  if mon[c].armed & mon[c].line = l then open_monitor(c); endif;
end;

-- A write performs: the data, and the observation that every other armed
-- monitor on the granule was written under (it must have been cleared).
procedure write(c: Cache; l: Line; g: Gran; v: Value);
begin
  cache[c][l].data := v;
  truth[l] := v;
  for d: Cache do
    if d != c & mon[d].armed & mon[d].line = l & mon[d].g = g then mon[d].broken := true; endif;
  endfor;
end;

-- ---- the cache controller: one executor of the table's actions --------------

procedure send_request(c: Cache; l: Line; r: Request; op: Op);
var m: Msg;
begin
  m := new_msg(mk_req, c, l);
  m.req := r;
  m.excl := r = rq_Upg & op = op_stxr;  -- a store-exclusive's upgrade (ACE exclusive CleanUnique)
  if r = rq_PutO | r = rq_PutM then m.data := cache[c][l].data; endif;
  push(to_home[c], m);
end;

procedure answer(c: Cache; l: Line; a: AnswerKind);
var m: Msg;
begin
  m := new_msg(mk_answer, c, l);
  m.ans := a;
  if a != ak_ack then m.data := cache[c][l].data; endif;
  push(to_home_resp[c], m);
end;

-- Runs `cell`'s actions in the simulator's order (protocol::execute): the
-- hit, the request or Put, the drop, the snoop answer, the unblock.
procedure perform(c: Cache; l: Line; cell: CacheCell; op: Op; g: Gran; v: Value);
var ok: boolean;
begin
  if cell.hit then
    switch op
    case op_load:
      assert cache[c][l].data = truth[l] "a load reads the last value written";
    case op_ldxr:
      assert cache[c][l].data = truth[l] "a load-exclusive reads the last value written";
      mon[c].armed := true; mon[c].line := l; mon[c].g := g; mon[c].broken := false;
    case op_store:
      write(c, l, g, v);
    case op_stxr:
      ok := mon[c].armed & mon[c].line = l & mon[c].g = g;
      if ok then
        assert !mon[c].broken "a store-exclusive succeeds although another observer wrote its granule since the load-exclusive";
      endif;
      open_monitor(c);
      if ok then write(c, l, g, v); endif;
    case op_unique:
    else
      error "a cell hits for no core access";
    endswitch;
  endif;
  if cell.send_GetS then send_request(c, l, rq_GetS, op); endif;
  if cell.send_GetM then send_request(c, l, rq_GetM, op); endif;
  if cell.send_Upg then send_request(c, l, rq_Upg, op); endif;
  if cell.send_PutS then send_request(c, l, rq_PutS, op); endif;
  if cell.send_PutE then send_request(c, l, rq_PutE, op); endif;
  if cell.send_PutO then send_request(c, l, rq_PutO, op); endif;
  if cell.send_PutM then send_request(c, l, rq_PutM, op); endif;
  if cell.drop then line_lost(c, l); endif;
  if cell.snp_ack then answer(c, l, ak_ack); endif;
  if cell.snp_clean then answer(c, l, ak_clean); endif;
  if cell.snp_dirty then answer(c, l, ak_dirty); endif;
  if cell.unblock then push(to_home_resp[c], new_msg(mk_unblock, c, l)); endif;
  cache[c][l].st := cell.next;
  if !holds_data(cell.next) then
    cache[c][l].data := 0;  -- no copy: one canonical value
  endif;
end;

procedure clear_pending(c: Cache; l: Line);
begin
  cache[c][l].op := op_none; cache[c][l].ev := ce_Load; cache[c][l].g := 0; cache[c][l].v := 0;
end;

-- The core issues an access; a miss leaves it pending until the grant.
procedure issue(c: Cache; l: Line; e: CEvent; op: Op; g: Gran; v: Value);
var cell: CacheCell;
begin
  cell := cache_cell(cache[c][l].st, e);
  assert cell.kind = oc_ok "the core issues an access the table does not take";
  perform(c, l, cell, op, g, v);
  if cell.send_GetS | cell.send_GetM | cell.send_Upg then
    cache[c][l].op := op; cache[c][l].ev := e; cache[c][l].g := g; cache[c][l].v := v;
  endif;
end;

-- A snoop or a grant arrives; a grant replays the pending access, which
-- must then hit.
procedure at_cache(c: Cache; m: Msg);
var l: Line; e: CEvent; cell: CacheCell; again: CacheCell; op: Op; g: Gran; v: Value;
begin
  l := m.line;
  if m.kind = mk_snp then e := snoop_event(m.snp); else e := grant_event(m.gr); endif;
  cell := cache_cell(cache[c][l].st, e);
  assert cell.kind = oc_ok "a snoop or grant arrives in a cell the table calls impossible";
  if is_data(m.gr) then cache[c][l].data := m.data; endif;
  perform(c, l, cell, op_none, 0, 0);
  if m.kind = mk_grant then
    if m.gr = gr_Excl_Fail then
      assert cache[c][l].op = op_stxr "an exclusive failure nobody waited for";
      open_monitor(c);  -- the store-exclusive fails: nothing written
      clear_pending(c, l);
    elsif m.gr != gr_Put_Ack then
      assert cache[c][l].op != op_none "a grant nobody waited for";
      op := cache[c][l].op; g := cache[c][l].g; v := cache[c][l].v;
      again := cache_cell(cache[c][l].st, cache[c][l].ev);
      assert again.kind = oc_ok & again.hit "the access replayed after its grant does not hit";
      clear_pending(c, l);
      perform(c, l, again, op, g, v);
    endif;
  endif;
end;

-- ---- the home -----------------------------------------------------------------

function has_sharers(l: Line): boolean;
begin
  return exists d: Cache do home[l].sharers[d] endexists;
end;

function is_owner_of(l: Line; c: Cache): boolean;
begin
  return home[l].has_owner & home[l].owner = c;
end;

-- A request as the home classifies it against its records (home_entry::classify).
function classify(l: Line; r: Request; c: Cache; excl: boolean): HEvent;
begin
  switch r
  case rq_GetS: return he_GetS;
  case rq_GetM: return he_GetM;
  case rq_Upg:
    if is_owner_of(l, c) then return he_Upg_owner; endif;
    if home[l].sharers[c] then return he_Upg_sharer; endif;
    return excl ? he_Upg_lost_excl : he_Upg_other;
  else
    if is_owner_of(l, c) then return he_Put_owner; endif;
    if home[l].sharers[c] then return he_Put_sharer; endif;
    return he_Put_stale;
  endswitch;
end;

-- The records after a finished transaction (home_entry::apply).
procedure apply(l: Line; cell: HomeCell; r: Cache; dirty: boolean);
var old: Cache; rl: Role;
begin
  if home[l].has_owner then
    if home[l].owner != r then
      old := home[l].owner;
      rl := dirty ? cell.owner_dirty : cell.owner_clean;
      if rl = ro_none then
        home[l].has_owner := false; undefine home[l].owner;
      elsif rl = ro_sharer then
        home[l].has_owner := false; undefine home[l].owner; home[l].sharers[old] := true;
      endif;
    endif;
  endif;
  if cell.sharers_cleared then
    for d: Cache do home[l].sharers[d] := false; endfor;
  endif;
  switch cell.requester_after
  case ro_none:
    home[l].sharers[r] := false;
    if is_owner_of(l, r) then home[l].has_owner := false; undefine home[l].owner; endif;
  case ro_sharer:
    home[l].sharers[r] := true;
  case ro_owner:
    home[l].sharers[r] := false; home[l].owner := r; home[l].has_owner := true;
  else
  endswitch;
  home[l].st := dirty ? cell.next_dirty : cell.next_clean;
  if home[l].st = hs_S & !has_sharers(l) then home[l].st := hs_I; endif;  -- the last sharer left
end;

-- The records match the state (home_entry::consistent).
function consistent(l: Line): boolean;
var any: boolean;
begin
  any := has_sharers(l);
  if home[l].has_owner then
    if home[l].sharers[home[l].owner] then return false; endif;
  endif;
  switch home[l].st
  case hs_I: return !home[l].has_owner & !any;
  case hs_S: return !home[l].has_owner & any;
  case hs_M: return home[l].has_owner & !any;
  case hs_O: return home[l].has_owner;
  endswitch;
  return false;
end;

procedure step(l: Line; e: TEvent);
var t: TransCell;
begin
  t := trans_cell(home[l].phase, e);
  assert t.kind = oc_ok "the home's transaction table does not take this event";
  home[l].phase := t.next;
end;

procedure to_cache_grant(c: Cache; l: Line; g: Grant; d: Data);
var m: Msg;
begin
  m := new_msg(mk_grant, c, l);
  m.gr := g;
  if is_data(g) then m.data := d; endif;
  push(to_cache[c], m);
end;

procedure snoop_one(l: Line; c: Cache; s: Snoop);
var m: Msg;
begin
  m := new_msg(mk_snp, c, l);
  m.snp := s;
  push(to_cache[c], m);
  home[l].left := home[l].left + 1;
end;

-- A transaction's fields, once they are done with, get one canonical value;
-- the requester stays until its unblock unless `requester_too`.
procedure clear_transaction(l: Line; requester_too: boolean);
begin
  if requester_too then undefine home[l].requester; endif;
  undefine home[l].owner_at_start;
  home[l].has_owner_at_start := false; home[l].cur_s := hs_I; home[l].cur_e := he_GetS;
  home[l].left := 0; home[l].owner_dirty := false; home[l].have_data := false;
  home[l].data := 0;
end;

procedure finish(l: Line);
var cell: HomeCell; g: Grant; r: Cache; d: Data;
begin
  cell := home_cell(home[l].cur_s, home[l].cur_e);
  g := home[l].owner_dirty ? cell.grant_dirty : cell.grant_clean;
  if is_data(g) then assert home[l].have_data "the home grants data it does not have"; endif;
  step(l, te_Ready);
  r := home[l].requester;
  apply(l, cell, r, home[l].owner_dirty);
  assert consistent(l) "the home's records contradict its state after a grant";
  d := home[l].data;
  to_cache_grant(r, l, g, d);
  clear_transaction(l, false);
end;

procedure start(m: Msg);
var l: Line; c: Cache; ev: HEvent; cell: HomeCell; snooped: array[Cache] of boolean; kind: Snoop;
begin
  l := m.line; c := m.src;
  ev := classify(l, m.req, c, m.excl);
  cell := home_cell(home[l].st, ev);
  assert cell.kind = oc_ok "a request reaches a home cell the table calls impossible";
  if cell.grant_clean = gr_Excl_Fail then
    step(l, te_Immediate);
    to_cache_grant(c, l, gr_Excl_Fail, mem[l]);
  elsif m.req = rq_PutS | m.req = rq_PutE | m.req = rq_PutO | m.req = rq_PutM then
    step(l, te_Immediate);
    if ev = he_Put_owner & (m.req = rq_PutO | m.req = rq_PutM) then mem[l] := m.data; endif;  -- the owner's data goes home
    apply(l, cell, c, false);
    to_cache_grant(c, l, gr_Put_Ack, mem[l]);
  else
    step(l, te_Request);
    home[l].requester := c;
    home[l].cur_s := home[l].st; home[l].cur_e := ev;
    home[l].has_owner_at_start := home[l].has_owner;
    if home[l].has_owner then home[l].owner_at_start := home[l].owner; endif;
    home[l].owner_dirty := false;
    home[l].have_data := cell.mem_read;
    if cell.mem_read then home[l].data := mem[l]; endif;
    home[l].left := 0;
    for d: Cache do snooped[d] := false; endfor;
    if cell.to_owner != sn_none & home[l].has_owner then
      if home[l].owner != c then snooped[home[l].owner] := true; snoop_one(l, home[l].owner, cell.to_owner); endif;
    endif;
    if cell.to_sharers != sn_none then
      for d: Cache do
        if home[l].sharers[d] & d != c then snooped[d] := true; snoop_one(l, d, cell.to_sharers); endif;
      endfor;
    endif;
    if BROADCAST then
      kind := m.req = rq_GetS ? sn_Fwd_GetS : sn_Inv;
      for d: Cache do
        if d != c & !snooped[d] then snoop_one(l, d, kind); endif;
      endfor;
    endif;
    if home[l].left = 0 then finish(l); endif;
  endif;
end;

procedure at_home_request(m: Msg);
var l: Line;
begin
  l := m.line;
  if trans_kind(home[l].phase, te_Request) = oc_stall then
    assert home[l].nwait < NC "more requests wait at the home than there are caches";
    home[l].waiting[home[l].nwait] := m;
    home[l].nwait := home[l].nwait + 1;
  else
    start(m);
  endif;
end;

procedure at_home_response(m: Msg);
var l: Line; next: Msg;
begin
  l := m.line;
  if m.kind = mk_answer then
    assert trans_kind(home[l].phase, te_Answer) = oc_ok & home[l].left > 0 "an unexpected snoop answer";
    if home[l].has_owner_at_start & home[l].owner_at_start = m.src then
      assert m.ans != ak_ack "the owner answers a snoop without its data";
      home[l].owner_dirty := m.ans = ak_dirty;
      home[l].have_data := true;
      home[l].data := m.data;
    else
      assert m.ans = ak_ack "a cache that does not own the line answers with data";
    endif;
    home[l].left := home[l].left - 1;
    if home[l].left = 0 then finish(l); endif;
  else
    step(l, te_Unblock);  -- the transaction table says whether an unblock is expected now
    assert home[l].requester = m.src "an unblock from a cache that is not the requester";
    clear_transaction(l, true);
    -- the waiting requests, in arrival order, while the line is idle
    while home[l].phase = ts_Idle & home[l].nwait > 0 do
      next := home[l].waiting[0];
      for i: 0..NC-2 do
        if i + 1 < home[l].nwait then home[l].waiting[i] := home[l].waiting[i + 1]; endif;
      endfor;
      home[l].nwait := home[l].nwait - 1;
      undefine home[l].waiting[home[l].nwait];
      start(next);
    endwhile;
  endif;
end;

-- ---- properties ------------------------------------------------------------

function line_quiet(l: Line): boolean;
begin
  if home[l].phase != ts_Idle | home[l].nwait != 0 then return false; endif;
  for c: Cache do
    if !is_stable(cache[c][l].st) | cache[c][l].op != op_none then return false; endif;
  endfor;
  return true;
end;

function channels_empty(): boolean;
begin
  for c: Cache do
    if to_home[c].n != 0 | to_home_resp[c].n != 0 | to_cache[c].n != 0 then return false; endif;
  endfor;
  return true;
end;

invariant "single writer: a cache that may write is the only one that may read"
  forall l: Line do forall c: Cache do
    can_write(cache[c][l].st) -> forall d: Cache do d = c | !can_read(cache[d][l].st) endforall
  endforall endforall;

invariant "data value: every readable copy holds the last value written"
  forall l: Line do forall c: Cache do
    can_read(cache[c][l].st) -> cache[c][l].data = truth[l]
  endforall endforall;

invariant "the home's records match its state"
  forall l: Line do consistent(l) endforall;

invariant "memory holds the last value of a line nobody owns dirty, once nothing is in flight"
  channels_empty() -> forall l: Line do
    (line_quiet(l) & forall c: Cache do cache[c][l].st != cs_M & cache[c][l].st != cs_O endforall) -> mem[l] = truth[l]
  endforall;

liveness "no deadlock: from every state, all messages can drain and every access complete"
  channels_empty() & forall l: Line do line_quiet(l) endforall;

-- ---- rules -------------------------------------------------------------------

ruleset c: Cache; l: Line; g: Gran do
  rule "load-exclusive"
    cache[c][l].op = op_none & takes(cache[c][l].st, ce_Load)
  ==> begin issue(c, l, ce_Load, op_ldxr, g, 0); end;

  -- a core whose exclusive loads fetch the line Unique (exclusive.load_unique)
  rule "load-exclusive fetching Unique"
    cache[c][l].op = op_none & !can_read(cache[c][l].st) & takes(cache[c][l].st, ce_Unique)
  ==> begin issue(c, l, ce_Unique, op_ldxr, g, 0); end;

  ruleset v: Value do
    rule "store"
      cache[c][l].op = op_none & takes(cache[c][l].st, ce_Store)
    ==> begin issue(c, l, ce_Store, op_store, g, v); end;

    -- (a store-exclusive without the reservation fails in the core: that is CLREX below)
    rule "store-exclusive"
      cache[c][l].op = op_none & mon[c].armed & mon[c].line = l & mon[c].g = g &
      takes(cache[c][l].st, ce_Store)
    ==> begin issue(c, l, ce_Store, op_stxr, g, v); end;
  end;
end;

ruleset c: Cache; l: Line do
  rule "load"
    cache[c][l].op = op_none & takes(cache[c][l].st, ce_Load)
  ==> begin issue(c, l, ce_Load, op_load, 0, 0); end;

  rule "prefetch for store (PRFM PST)"
    cache[c][l].op = op_none & takes(cache[c][l].st, ce_Unique)
  ==> begin issue(c, l, ce_Unique, op_unique, 0, 0); end;

  rule "evict"
    cache[c][l].op = op_none & takes(cache[c][l].st, ce_Replacement)
  ==> begin line_lost(c, l); issue(c, l, ce_Replacement, op_none, 0, 0); end;
end;

ruleset c: Cache do
  rule "clrex"
    mon[c].armed
  ==> begin open_monitor(c); end;

  rule "deliver a snoop or grant to the cache"
    to_cache[c].n > 0
  ==> var m: Msg; begin m := to_cache[c].q[0]; pop(to_cache[c]); at_cache(c, m); end;

  rule "deliver a request to the home"
    to_home[c].n > 0
  ==> var m: Msg; begin m := to_home[c].q[0]; pop(to_home[c]); at_home_request(m); end;

  rule "deliver a snoop answer or unblock to the home"
    to_home_resp[c].n > 0
  ==> var m: Msg; begin m := to_home_resp[c].q[0]; pop(to_home_resp[c]); at_home_response(m); end;
end;

startstate "every cache empty, memory 0"
begin
  for c: Cache do
    for l: Line do
      cache[c][l].st := cs_I;
      cache[c][l].data := 0;
      clear_pending(c, l);
    endfor;
    open_monitor(c);
    to_home[c].n := 0; to_home_resp[c].n := 0; to_cache[c].n := 0;
    undefine to_home[c].q; undefine to_home_resp[c].q; undefine to_cache[c].q;
  endfor;
  for l: Line do
    home[l].st := hs_I; home[l].has_owner := false; undefine home[l].owner;
    for c: Cache do home[l].sharers[c] := false; endfor;
    home[l].phase := ts_Idle; home[l].nwait := 0; undefine home[l].waiting;
    clear_transaction(l, true);
    mem[l] := 0; truth[l] := 0;
  endfor;
end;
)MURPHI";

}  // namespace

void add_mutation(murphi_options& o, const std::string& text) {
    const std::string form = "expected cache:STATE:EVENT=NEXT[+ACTION...], =stall or =impossible, e.g. cache:S:Inv=S+snp_ack";
    const auto eq = text.find('=');
    if (text.rfind("cache:", 0) != 0 || eq == std::string::npos)
        throw std::invalid_argument("--mutate " + text + ": " + form);
    const std::string where = text.substr(6, eq - 6), what = text.substr(eq + 1);
    const auto colon = where.find(':');
    if (colon == std::string::npos) throw std::invalid_argument("--mutate " + text + ": " + form);
    // A state or event by its name; anything else names them all.
    auto find = [&](auto none, const std::string& word, const char* what) {
        using E = decltype(none);
        std::string known;
        for (int i = 0; i < count_of<E>(); ++i) {
            if (word == name(static_cast<E>(i))) return static_cast<E>(i);
            known += std::string(i ? ", " : "") + name(static_cast<E>(i));
        }
        throw std::invalid_argument("--mutate " + text + ": no cache " + what + " '" + word + "' (" + what + "s: " + known + ")");
    };
    const cstate s = find(cstate{}, where.substr(0, colon), "state");
    const cevent e = find(cevent{}, where.substr(colon + 1), "event");
    cache_cell cell;
    cell.defined = true;
    if (what == "stall" || what == "impossible") {
        cell.kind = what == "stall" ? outcome::stall : outcome::impossible;
        cell.next = s;
    } else {
        std::vector<std::string> parts;
        std::stringstream in(what);
        for (std::string p; std::getline(in, p, '+');) parts.push_back(p);
        cell.kind = outcome::ok;
        cell.next = find(cstate{}, parts.empty() ? std::string() : parts[0], "state");
        for (std::size_t i = 1; i < parts.size(); ++i) {
            std::uint32_t bit = 0;
            std::string known;
            for (const auto& [b, field] : action_fields) {
                if (parts[i] == field) bit = b;
                known += std::string(known.empty() ? "" : ", ") + field;
            }
            if (!bit) throw std::invalid_argument("--mutate " + text + ": no action '" + parts[i] + "' (actions: " + known + ")");
            cell.actions |= bit;
        }
    }
    o.cache_overrides[{s, e}] = cell;
}

std::string murphi_model(const murphi_options& o) {
    if (o.caches < 2 || o.caches > 8) throw std::invalid_argument("--caches must be 2 to 8");
    if (o.lines < 1 || o.lines > 4) throw std::invalid_argument("--lines must be 1 to 4");
    if (o.granules < 1 || o.granules > 4) throw std::invalid_argument("--granules must be 1 to 4");
    std::ostringstream m;
    m << "-- The MOESI coherence protocol of cohsim " << version
      << ", generated by `cohsim protocol --murphi` from the\n"
         "-- tables the simulator executes. Check it with rumur (Debian package rumur):\n"
         "--   rumur --output model.c model.m && cc -std=gnu11 -O2 -o model model.c -lpthread && ./model\n"
         "-- (or scripts/model-check.sh, which does the same).\n"
         "-- What is modelled and checked: see app/murphi.h in the cohsim sources.\n";
    if (!o.cache_overrides.empty()) {
        m << "-- MUTATED: " << o.cache_overrides.size() << " cache-table cell(s) differ from the simulator's:\n";
        for (const auto& [at, cell] : o.cache_overrides)
            m << "--   " << name(at.first) << " x " << name(at.second) << " -> " << cell_text(cell) << "\n";
    }
    m << "\nconst\n"
      << "  NC: " << o.caches << ";  -- caches\n"
      << "  NL: " << o.lines << ";  -- lines\n"
      << "  NG: " << o.granules << ";  -- reservation granules per line\n"
      << "  BROADCAST: " << (o.broadcast ? "true" : "false") << ";  -- broadcast snoops (no snoop filter)\n"
      << "  QMAX: " << 3 * o.lines << ";  -- messages a channel can hold (overflow is an error)\n\n"
      << "type\n"
         "  Cache: scalarset(NC);\n  Line: 0..NL-1;\n  Gran: 0..NG-1;\n  Value: 0..1;\n  Data: Value;  -- a line's contents: one of two values (a write to any granule changes it)\n"
      << enum_decl<cstate>("CState", count_of<cstate>()) << enum_decl<cevent>("CEvent", count_of<cevent>())
      << enum_decl<hstate>("HState", count_of<hstate>()) << enum_decl<hevent>("HEvent", count_of<hevent>())
      << enum_decl<tstate>("TState", count_of<tstate>()) << enum_decl<tevent>("TEvent", count_of<tevent>())
      << enum_decl<request>("Request", static_cast<int>(request::PutM) + 1)
      << enum_decl<snoop>("Snoop", static_cast<int>(snoop::Inv) + 1)
      << enum_decl<grant>("Grant", static_cast<int>(grant::Excl_Fail) + 1)
      << "  Role: enum { ro_none, ro_sharer, ro_owner, ro_keep };\n"
         "  Outcome: enum { oc_ok, oc_stall, oc_impossible };\n"
         "  AnswerKind: enum { ak_ack, ak_clean, ak_dirty };\n"
         "  Op: enum { op_none, op_load, op_ldxr, op_store, op_stxr, op_unique };\n"
         "  MsgKind: enum { mk_req, mk_snp, mk_grant, mk_answer, mk_unblock };\n"
         "  CacheCell: record kind: Outcome; next: CState;";
    for (const auto& [bit, field] : action_fields) m << " " << field << ": boolean;";
    m << " end;\n"
         "  HomeCell: record kind: Outcome; to_owner: Snoop; to_sharers: Snoop; mem_read: boolean;\n"
         "    grant_clean: Grant; grant_dirty: Grant; next_clean: HState; next_dirty: HState;\n"
         "    requester_after: Role; owner_clean: Role; owner_dirty: Role; sharers_cleared: boolean; end;\n"
         "  TransCell: record kind: Outcome; next: TState; end;\n"
         "  Msg: record kind: MsgKind; src: Cache; line: Line; req: Request; excl: boolean;\n"
         "    snp: Snoop; gr: Grant; ans: AnswerKind; data: Data; end;\n"
         "  Chan: record n: 0..QMAX; q: array[0..QMAX-1] of Msg; end;\n"
         "  -- one line in one cache: state, copy, and the access waiting for a grant (op_none: none)\n"
         "  CLine: record st: CState; data: Data; op: Op; ev: CEvent; g: Gran; v: Value; end;\n"
         "  -- the exclusive monitor; `broken`: another observer wrote the granule while armed (must never\n"
         "  -- be seen by a successful store-exclusive)\n"
         "  Monitor: record armed: boolean; line: Line; g: Gran; broken: boolean; end;\n"
         "  HLine: record\n"
         "    st: HState; has_owner: boolean; owner: Cache; sharers: array[Cache] of boolean;\n"
         "    phase: TState; waiting: array[0..NC-1] of Msg; nwait: 0..NC;\n"
         "    requester: Cache; cur_s: HState; cur_e: HEvent; has_owner_at_start: boolean; owner_at_start: Cache;\n"
         "    left: 0..NC; owner_dirty: boolean; have_data: boolean; data: Data;\n"
         "  end;\n\n"
         "var\n"
         "  cache: array[Cache] of array[Line] of CLine;\n"
         "  mon: array[Cache] of Monitor;\n"
         "  to_home: array[Cache] of Chan;       -- requests\n"
         "  to_home_resp: array[Cache] of Chan;  -- snoop answers and unblocks\n"
         "  to_cache: array[Cache] of Chan;      -- snoops and grants, in the order sent\n"
         "  home: array[Line] of HLine;\n"
         "  mem: array[Line] of Data;\n"
         "  truth: array[Line] of Data;          -- the last value written (the checker's, not the protocol's)\n\n";
    m << predicate("is_stable", is_stable) << predicate("can_read", can_read) << predicate("can_write", can_write)
      << predicate("holds_data", holds_data);
    m << "function snoop_event(s: Snoop): CEvent;\nbegin\n";
    for (snoop s : {snoop::Fwd_GetS, snoop::Fwd_GetM, snoop::Inv})
        m << "  if s = " << lit(s) << " then return " << lit(as_event(s)) << "; endif;\n";
    m << "  error \"not a snoop\";\n  return ce_Inv;\nend;\n\n";
    m << "function grant_event(g: Grant): CEvent;\nbegin\n";
    for (int i = 1; i <= static_cast<int>(grant::Excl_Fail); ++i)
        m << "  if g = " << lit(static_cast<grant>(i)) << " then return " << lit(as_event(static_cast<grant>(i))) << "; endif;\n";
    m << "  error \"not a grant\";\n  return ce_Put_Ack;\nend;\n\n";
    m << cache_cell_function(o) << home_cell_function() << transaction_cell_function() << machinery;
    return m.str();
}

}  // namespace cohsim

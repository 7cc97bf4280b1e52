-- The part of cohsim's Murphi model (`cohsim protocol --murphi`) that the
-- protocol tables leave to code: messages and channels, each cache's lines
-- and exclusive monitor, the home's records and blocking; the cache's
-- executor of the table's actions and the replay after a grant; the home's
-- classification, snoops, grants and waiting requests; the properties; the
-- core's rules. app/murphi.cpp writes what comes before it from the tables
-- the simulator executes (the constants, the enums, the cell records and the
-- cache, home and transaction tables as functions) and appends this file.
-- What is modelled and checked: app/murphi.h.

type
  AnswerKind: enum { ak_ack, ak_clean, ak_dirty };
  Op: enum { op_none, op_load, op_ldxr, op_store, op_stxr, op_unique, op_zero, op_far };
  -- mk_result: a far atomic's old value, from the home to its requester
  MsgKind: enum { mk_req, mk_snp, mk_grant, mk_answer, mk_unblock, mk_result };
  -- far: a far atomic's request (a GetM that snoops every copy, the requester's own included)
  Msg: record kind: MsgKind; src: Cache; line: Line; req: Request; excl: boolean; far: boolean;
    g: Gran; v: Value; snp: Snoop; gr: Grant; ans: AnswerKind; data: Data; end;
  Chan: record n: 0..QMAX; q: array[0..QMAX-1] of Msg; end;
  -- one line in one cache: state, copy, and the access waiting for a grant (op_none: none)
  CLine: record st: CState; data: Data; op: Op; ev: CEvent; g: Gran; v: Value; end;
  -- the exclusive monitor; `broken`: another observer wrote the granule while armed (must never
  -- be seen by a successful store-exclusive)
  Monitor: record armed: boolean; line: Line; g: Gran; broken: boolean; end;
  HLine: record
    st: HState; has_owner: boolean; owner: Cache; sharers: array[Cache] of boolean;
    phase: TState; waiting: array[0..NC-1] of Msg; nwait: 0..NC;
    requester: Cache; cur_s: HState; cur_e: HEvent; has_owner_at_start: boolean; owner_at_start: Cache;
    left: 0..NC; owner_dirty: boolean; have_data: boolean; data: Data;
    far: boolean; far_g: Gran; far_v: Value;  -- the transaction is a far atomic writing far_v to granule far_g
  end;

var
  cache: array[Cache] of array[Line] of CLine;
  mon: array[Cache] of Monitor;
  to_home: array[Cache] of Chan;       -- requests
  to_home_resp: array[Cache] of Chan;  -- snoop answers and unblocks
  to_cache: array[Cache] of Chan;      -- snoops and grants, in the order sent
  home: array[Line] of HLine;
  mem: array[Line] of Data;
  truth: array[Line] of Data;          -- the last value written (the checker's, not the protocol's)

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
  m.kind := k; m.src := src; m.line := l; m.req := rq_GetS; m.excl := false; m.far := false; m.g := 0; m.v := 0;
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

-- Another observer than c writes granule g of line l: every other armed
-- monitor on it was written under (it must have been cleared).
procedure written_under(c: Cache; l: Line; g: Gran);
begin
  for d: Cache do
    if d != c & mon[d].armed & mon[d].line = l & mon[d].g = g then mon[d].broken := true; endif;
  endfor;
end;

-- A write performs: the data, and the observation of the other monitors.
procedure write(c: Cache; l: Line; g: Gran; v: Value);
begin
  cache[c][l].data := v;
  truth[l] := v;
  written_under(c, l, g);
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
    case op_zero:
      -- every granule of the line is written (with the value 0)
      cache[c][l].data := 0;
      truth[l] := 0;
      for gg: Gran do written_under(c, l, gg); endfor;
    else
      error "a cell hits for no core access";
    endswitch;
  endif;
  if cell.send_GetS then send_request(c, l, rq_GetS, op); endif;
  if cell.send_GetM then send_request(c, l, rq_GetM, op); endif;
  if cell.send_Upg then send_request(c, l, rq_Upg, op); endif;
  if cell.send_MakeU then send_request(c, l, rq_MakeU, op); endif;
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
  if cell.send_GetS | cell.send_GetM | cell.send_Upg | cell.send_MakeU then
    cache[c][l].op := op; cache[c][l].ev := e; cache[c][l].g := g; cache[c][l].v := v;
  endif;
end;

-- A far atomic (an LSE atomic the platform performs at the home: FAR) on a
-- line the cache cannot write: the request goes to the home; the cache keeps
-- what it holds until the home's snoop takes it (l1_controller::access).
procedure issue_far(c: Cache; l: Line; g: Gran; v: Value);
var m: Msg;
begin
  m := new_msg(mk_req, c, l);
  m.req := rq_GetM; m.far := true; m.g := g; m.v := v;
  push(to_home[c], m);
  cache[c][l].op := op_far;  -- the operands travel with the request: the home performs it
end;

-- A snoop or a grant arrives; a grant replays the pending access, which
-- must then hit.
procedure at_cache(c: Cache; m: Msg);
var l: Line; e: CEvent; cell: CacheCell; again: CacheCell; op: Op; g: Gran; v: Value;
begin
  l := m.line;
  if m.kind = mk_result then
    -- the home's snoop of the requester's own copy went first on this channel
    assert cache[c][l].op = op_far "a far atomic's result nobody waited for";
    assert cache[c][l].st = cs_I "a far atomic completes while its requester still holds the line";
    clear_pending(c, l);
    return;
  endif;
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
  case rq_MakeU: return he_MakeU;
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
  home[l].far := false; home[l].far_g := 0; home[l].far_v := 0;
end;

-- A far atomic's last answer is in (home::far_result): every copy is gone;
-- the home performs the operation on the line's last value (memory's, or
-- the owner's answer), which memory keeps, no cache can read the line (one
-- whose eviction is in flight may still await its Put_Ack), the old
-- value goes to the requester, and the line is free at once (no unblock).
procedure far_perform(l: Line);
var r: Cache; m: Msg;
begin
  r := home[l].requester;
  assert home[l].have_data "a far atomic performs without the line's data";
  assert home[l].data = truth[l] "a far atomic reads another value than the last one written";
  for d: Cache do
    assert !can_read(cache[d][l].st) "a far atomic performs while a cache can still read the line";
  endfor;
  step(l, te_Ready);
  mem[l] := home[l].far_v;
  truth[l] := home[l].far_v;
  written_under(r, l, home[l].far_g);
  home[l].st := hs_I; home[l].has_owner := false; undefine home[l].owner;
  for d: Cache do home[l].sharers[d] := false; endfor;
  m := new_msg(mk_result, r, l);
  m.data := home[l].data;
  push(to_cache[r], m);
  step(l, te_Unblock);
  clear_transaction(l, true);
end;

procedure finish(l: Line);
var cell: HomeCell; g: Grant; r: Cache; d: Data;
begin
  if home[l].far then far_perform(l); return; endif;
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
  -- a far atomic snoops every copy, the requester's own included (home::process)
  if m.far then ev := he_GetM; else ev := classify(l, m.req, c, m.excl); endif;
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
    home[l].far := m.far; home[l].far_g := m.g; home[l].far_v := m.v;
    home[l].cur_s := home[l].st; home[l].cur_e := ev;
    home[l].has_owner_at_start := home[l].has_owner;
    if home[l].has_owner then home[l].owner_at_start := home[l].owner; endif;
    home[l].owner_dirty := false;
    home[l].have_data := cell.mem_read;
    if cell.mem_read then home[l].data := mem[l]; endif;
    home[l].left := 0;
    for d: Cache do snooped[d] := false; endfor;
    if cell.to_owner != sn_none & home[l].has_owner then
      if home[l].owner != c | m.far then snooped[home[l].owner] := true; snoop_one(l, home[l].owner, cell.to_owner); endif;
    endif;
    if cell.to_sharers != sn_none then
      for d: Cache do
        if home[l].sharers[d] & (d != c | m.far) then snooped[d] := true; snoop_one(l, d, cell.to_sharers); endif;
      endfor;
    endif;
    if BROADCAST then
      kind := m.req = rq_GetS ? sn_Fwd_GetS : sn_Inv;
      for d: Cache do
        if (d != c | m.far) & !snooped[d] then snoop_one(l, d, kind); endif;
      endfor;
    endif;
    if home[l].left = 0 then finish(l); endif;
  endif;
end;

-- The waiting requests, in arrival order, while the line is idle.
procedure serve_waiting(l: Line);
var next: Msg;
begin
  while home[l].phase = ts_Idle & home[l].nwait > 0 do
    next := home[l].waiting[0];
    for i: 0..NC-2 do
      if i + 1 < home[l].nwait then home[l].waiting[i] := home[l].waiting[i + 1]; endif;
    endfor;
    home[l].nwait := home[l].nwait - 1;
    undefine home[l].waiting[home[l].nwait];
    start(next);
  endwhile;
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
var l: Line; cell: HomeCell;
begin
  l := m.line;
  if m.kind = mk_answer then
    assert trans_kind(home[l].phase, te_Answer) = oc_ok & home[l].left > 0 "an unexpected snoop answer";
    cell := home_cell(home[l].cur_s, home[l].cur_e);
    if home[l].has_owner_at_start & home[l].owner_at_start = m.src & cell.to_owner != sn_Inv then  -- (a MakeU's Inv: no data)
      assert m.ans != ak_ack "the owner answers a snoop without its data";
      home[l].owner_dirty := m.ans = ak_dirty;
      home[l].have_data := true;
      home[l].data := m.data;
    else
      assert m.ans = ak_ack "a cache that does not own the line answers with data";
    endif;
    home[l].left := home[l].left - 1;
    if home[l].left = 0 then finish(l); serve_waiting(l); endif;
  else
    step(l, te_Unblock);  -- the transaction table says whether an unblock is expected now
    assert home[l].requester = m.src "an unblock from a cache that is not the requester";
    clear_transaction(l, true);
    serve_waiting(l);
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

    -- (on a line the cache can write, an atomic is a store: the rule above)
    rule "far atomic"
      FAR & cache[c][l].op = op_none & is_stable(cache[c][l].st) & !can_write(cache[c][l].st)
    ==> begin issue_far(c, l, g, v); end;
  end;
end;

ruleset c: Cache; l: Line do
  rule "load"
    cache[c][l].op = op_none & takes(cache[c][l].st, ce_Load)
  ==> begin issue(c, l, ce_Load, op_load, 0, 0); end;

  rule "prefetch for store (PRFM PST)"
    cache[c][l].op = op_none & takes(cache[c][l].st, ce_Unique)
  ==> begin issue(c, l, ce_Unique, op_unique, 0, 0); end;

  rule "zero a line (DC ZVA)"
    cache[c][l].op = op_none & takes(cache[c][l].st, ce_Zero)
  ==> begin issue(c, l, ce_Zero, op_zero, 0, 0); end;

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

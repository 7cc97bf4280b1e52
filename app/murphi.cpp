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
    {a_send_MakeU, "send_MakeU"},
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
      << "  FAR: " << (o.far_atomics ? "true" : "false") << ";  -- atomics performed at the home (far atomics)\n"
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
         "  CacheCell: record kind: Outcome; next: CState;";
    for (const auto& [bit, field] : action_fields) m << " " << field << ": boolean;";
    m << " end;\n"
         "  HomeCell: record kind: Outcome; to_owner: Snoop; to_sharers: Snoop; mem_read: boolean;\n"
         "    grant_clean: Grant; grant_dirty: Grant; next_clean: HState; next_dirty: HState;\n"
         "    requester_after: Role; owner_clean: Role; owner_dirty: Role; sharers_cleared: boolean; end;\n"
         "  TransCell: record kind: Outcome; next: TState; end;\n"
         "\n";
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
    m << cache_cell_function(o) << home_cell_function() << transaction_cell_function() << murphi_machinery;
    return m.str();
}

}  // namespace cohsim

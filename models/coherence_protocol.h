// The MOESI coherence protocol as two tables in plain C++ (no SystemC): one
// for a cache controller, one for the home (the point of serialisation in
// the interconnect, or a cluster's SCU for its L1s). State and event names
// follow Sorin, Hill and Wood, "A Primer on Memory Consistency and Cache
// Coherence": stable I, S, E, O, M; transient XY_Z = going from X to Y,
// waiting for Z (D = data, A = acknowledgement).
//
// The protocol, CCI/ACE-like:
//   - All data moves through the home: a snooped owner returns its data to
//     the home, which passes it to the requester (dirty data goes
//     cache-to-cache through the home, never through memory).
//   - The home is blocking per line: from accepting a request until the
//     requester's Unblock (ACE's RACK), later requests for that line wait in
//     arrival order (the arbitration among simultaneous arrivals is the
//     interconnect's business, not the table's).
//   - Messages from the home to one cache arrive in the order sent.
//   - Clean evictions are explicit (PutS, PutE), so a snoop filter stays exact.
//   - Fwd_GetM goes to the owner only; sharers are invalidated with Inv.
//   - With broadcast snoops (CCI-400) every other cache is snooped: those
//     the home does not list get Fwd_GetS for a read and Inv for a write,
//     and answer Snp_Ack; with a snoop filter they are not snooped.
//   - Data grants replace the requester's stalled core event: after Data_*
//     or Ack_* the cache is stable and the core replays its Load/Store, which
//     then hits (a Store into E makes it M).
//   - Data values are not actions: a Data_* grant carries the line, a Store
//     that hits writes it, and an owner's PutO/PutM carries it home (the
//     simulator keeps values in one functional memory; the protocol-level
//     random tester checks these rules with a value per cache).
// Every (state, event) cell is defined: a transition, `stall` (the event
// waits until the state changes) or `impossible` (reaching it is a bug; the
// model stops with a diagnostic). The home's blocking (one transaction per
// line at a time) is a third table, of its transaction states.
//
// One executor: the simulator's controllers (models/mem/) and the random
// tester run every cache cell through `execute`, and every home request
// through `home_line` (the home table, `home_entry` and the transaction
// table, in the order a home serves a request).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cohsim::protocol {

enum class outcome : std::uint8_t { ok, stall, impossible };

// ---- cache controller -----------------------------------------------------

// IM_A: a full-line write's MakeU sent from I, waiting for the grant (no data comes).
enum class cstate : std::uint8_t { I, S, E, O, M, IS_D, IM_D, SM_A, OM_A, MI_A, EI_A, OI_A, SI_A, II_A, IM_A, count };

enum class cevent : std::uint8_t {
    // from the core
    Load,         // read
    Store,        // write
    Unique,       // obtain write permission without writing (PRFM PST, exclusive load fetching Unique, near atomic)
    Replacement,  // the cache chose this line as a victim
    Zero,         // write the whole line without reading it (DC ZVA): from I no data is fetched (MakeU)
    // snoops from the home
    Fwd_GetS,  // another cache reads: owner supplies data, keeps a copy
    Fwd_GetM,  // another cache writes: owner supplies data, invalidates
    Inv,       // another cache writes: sharers invalidate (and the owner, for a full-line write: no data back)
    // responses from the home
    Data_S,   // data, shared
    Data_E,   // data, unique and clean
    Data_M,   // data, unique and dirty (this cache now owns the dirty data)
    Ack_E,    // upgrade granted; the line is clean
    Ack_M,    // upgrade granted; the line is dirty (memory is stale)
    Put_Ack,  // eviction accepted
    Excl_Fail,  // an exclusive upgrade (STXR's CleanUnique) failed at the home: nothing changes
    count
};

// Bit set of what the controller does on a transition.
enum caction : std::uint32_t {
    a_none = 0,
    a_hit = 1u << 0,         // the core's load/store/unique performs now
    a_send_GetS = 1u << 2,
    a_send_GetM = 1u << 3,
    a_send_Upg = 1u << 4,    // CleanUnique: make my valid copy unique
    a_send_MakeU = 1u << 1,  // MakeUnique: make the line mine without its data (a full-line write from I)
    a_send_PutS = 1u << 5,
    a_send_PutE = 1u << 6,
    a_send_PutO = 1u << 7,   // with data
    a_send_PutM = 1u << 8,   // with data
    a_snp_ack = 1u << 9,     // snoop response without data
    a_snp_clean = 1u << 10,  // snoop response with clean data
    a_snp_dirty = 1u << 11,  // snoop response with dirty data
    a_unblock = 1u << 13,    // tell the home the transaction is complete
    a_drop = 1u << 14,       // the line leaves the cache
};

// What a cache asks the home for (the Puts last). In CHI's terms: GetS
// ReadShared, GetM ReadUnique, Upg CleanUnique, MakeU MakeUnique.
enum class request : std::uint8_t { GetS, GetM, Upg, MakeU, PutS, PutE, PutO, PutM };
const char* name(request r);
bool carries_data(request r);  // PutO, PutM

struct cache_cell {
    outcome kind = outcome::impossible;
    cstate next = cstate::I;
    std::uint32_t actions = a_none;
    bool defined = false;  // every cell must be; a test checks
};

// The protocol's tables, looked up inline (every message does): each is
// built once, on first use, and published (coherence_protocol.cpp).
namespace detail {
template <class Cell, class State, class Event>
using table = std::array<std::array<Cell, static_cast<std::size_t>(Event::count)>, static_cast<std::size_t>(State::count)>;
template <class T>
inline std::atomic<const T*> built{nullptr};  // null until built
template <class T>
const T& build();
template <class T, class State, class Event>
const auto& look_up(State s, Event e) {
    const T* t = built<T>.load(std::memory_order_acquire);
    if (__builtin_expect(t == nullptr, 0)) t = &build<T>();
    return (*t)[static_cast<std::size_t>(s)][static_cast<std::size_t>(e)];
}
}  // namespace detail

// A snoop answer: without data, or with the line (clean or dirty).
enum class answer_kind : std::uint8_t { ack, clean, dirty };

// What a controller does for a cell's actions, one member per action; each
// controller (the model's L1 in each of its situations, the random tester)
// derives from this and defines the actions that can happen where it
// executes: one that cannot is a table error and throws.
struct cache_actions {
    [[noreturn]] static void cannot(const char* action);
    void hit() { cannot("hit"); }
    void send(request) { cannot("send"); }
    void drop() { cannot("drop"); }
    void answer(answer_kind) { cannot("answer"); }
    void unblock() { cannot("unblock"); }
};

// The one executor of the cache-controller table: runs the actions of `c`
// on `a`, in this order: the hit, the request or Put, the drop, the snoop
// answer, the unblock. (The state change to `c.next` is the caller's.)
template <class Actions>
void execute(const cache_cell& c, Actions&& a) {
    if (c.actions & a_hit) a.hit();
    static constexpr std::pair<caction, request> sends[] = {
        {a_send_GetS, request::GetS}, {a_send_GetM, request::GetM}, {a_send_Upg, request::Upg}, {a_send_MakeU, request::MakeU},
        {a_send_PutS, request::PutS}, {a_send_PutE, request::PutE}, {a_send_PutO, request::PutO},
        {a_send_PutM, request::PutM}};
    constexpr std::uint32_t any_send = a_send_GetS | a_send_GetM | a_send_Upg | a_send_MakeU | a_send_PutS | a_send_PutE |
                                       a_send_PutO | a_send_PutM;
    if (c.actions & any_send)  // most cells send nothing (a hit, a snoop's answer, a grant)
        for (const auto& [bit, r] : sends)
            if (c.actions & bit) a.send(r);
    if (c.actions & a_drop) a.drop();
    if (c.actions & a_snp_ack) a.answer(answer_kind::ack);
    if (c.actions & a_snp_clean) a.answer(answer_kind::clean);
    if (c.actions & a_snp_dirty) a.answer(answer_kind::dirty);
    if (c.actions & a_unblock) a.unblock();
}

// Stable states and permissions.
bool is_stable(cstate s);
bool can_read(cstate s);   // a Load hits
bool can_write(cstate s);  // a Store hits without asking the home (E, M)
bool holds_data(cstate s); // the cache has a copy it may have to supply
bool is_owner(cstate s);   // responsible for supplying the data (E, O, M and their evicting states)

// ---- home -----------------------------------------------------------------

// The home's view of one line. `M` = one owner holding it unique (E or M at
// the cache; the home cannot tell); `O` = a dirty owner plus sharers.
enum class hstate : std::uint8_t { I, S, M, O, count };

// A request as the home classifies it against its own records.
enum class hevent : std::uint8_t {
    GetS,
    GetM,
    Upg_sharer,  // upgrade from a cache the home lists as a sharer
    Upg_owner,   // upgrade from the owner (in O)
    Upg_other,   // upgrade from a cache that lost its copy meanwhile: served as GetM
    Upg_lost_excl,  // the same for a store-exclusive's upgrade: it fails (ACE exclusive CleanUnique)
    MakeU,       // a full-line write from a cache without a copy: every copy is invalidated, no data moves
    Put_owner,   // eviction by the owner (PutE, PutO or PutM)
    Put_sharer,  // eviction by a sharer (PutS)
    Put_stale,   // eviction that crossed a snoop: the cache no longer holds what it says
    count
};

enum class snoop : std::uint8_t { none, Fwd_GetS, Fwd_GetM, Inv };
enum class grant : std::uint8_t { none, Data_S, Data_E, Data_M, Ack_E, Ack_M, Put_Ack, Excl_Fail };
enum class role : std::uint8_t { none, sharer, owner, keep };

struct home_cell {
    outcome kind = outcome::impossible;
    bool defined = false;
    snoop to_owner = snoop::none;    // sent to the current owner (Inv: it answers without data)
    snoop to_sharers = snoop::none;  // sent to every other sharer
    bool mem_read = false;           // data comes from memory (or a shared cache: the data no L1 owns)
    // The owner's snoop response says whether its data was dirty; where the
    // outcome depends on that, the *_dirty fields apply to a dirty answer.
    grant grant_clean = grant::none, grant_dirty = grant::none;
    hstate next_clean = hstate::I, next_dirty = hstate::I;
    role requester_after = role::none;   // what the requester is afterwards
    role owner_clean = role::keep, owner_dirty = role::keep;  // what the old owner is afterwards
    bool sharers_cleared = false;        // the other sharers are invalidated
    // The snooped owner answers with its line (an Inv, a MakeU's, needs none).
    bool owner_supplies_data() const { return to_owner != snoop::Inv; }
};

// The home's transaction states for one line (its blocking): idle; serving a
// request and waiting for the snoop answers; granted and waiting for the
// requester's Unblock. A request that meets a busy line waits (stall) and is
// served, in the interconnect's arbitration order, when the line is idle.
enum class tstate : std::uint8_t { Idle, Wait_answers, Wait_unblock, count };
enum class tevent : std::uint8_t {
    Request,    // a request that needs a transaction (GetS, GetM, an upgrade)
    Immediate,  // a request answered at once (a Put, a failed exclusive upgrade)
    Answer,     // a snoop answer
    Ready,      // every answer is in (or none was needed): grant
    Unblock,    // the requester's Unblock
    count
};
struct transaction_cell {
    outcome kind = outcome::impossible;
    tstate next = tstate::Idle;
    bool defined = false;
};

namespace detail {
using cache_table = table<cache_cell, cstate, cevent>;
using home_table = table<home_cell, hstate, hevent>;
using transaction_table = table<transaction_cell, tstate, tevent>;
template <>
const cache_table& build<cache_table>();
template <>
const home_table& build<home_table>();
template <>
const transaction_table& build<transaction_table>();
}  // namespace detail
inline const cache_cell& cache_transition(cstate s, cevent e) { return detail::look_up<detail::cache_table>(s, e); }
inline const home_cell& home_transition(hstate s, hevent e) { return detail::look_up<detail::home_table>(s, e); }
inline const transaction_cell& transaction_transition(tstate s, tevent e) {
    return detail::look_up<detail::transaction_table>(s, e);
}

// ---- names ----------------------------------------------------------------

const char* name(cstate s);
const char* name(cevent e);
const char* name(hstate s);
const char* name(hevent e);
const char* name(snoop s);
const char* name(grant g);
const char* name(tstate s);
const char* name(tevent e);
std::string action_names(std::uint32_t actions);

// The tables as Markdown, exactly as the simulator executes them: one row
// per state, one column per event; each cell "NEXT: actions", "stall" or
// "—" (impossible). With counts (indexed [state][event]), each executed cell
// also shows how often it ran, as "×N".
using cache_counts = std::array<std::array<std::uint64_t, static_cast<std::size_t>(cevent::count)>,
                                static_cast<std::size_t>(cstate::count)>;
using home_counts = std::array<std::array<std::uint64_t, static_cast<std::size_t>(hevent::count)>,
                               static_cast<std::size_t>(hstate::count)>;
std::string cache_table_markdown(const cache_counts* counts = nullptr);
std::string home_table_markdown(const home_counts* counts = nullptr);
std::string transaction_table_markdown();
// One cell's text, as in the tables.
std::string cell_text(const cache_cell& c);
std::string cell_text(const home_cell& c);
std::string cell_text(const transaction_cell& c);

// The grant a cache receives, as a cache event.
cevent as_event(grant g);
// A snoop, as a cache event.
cevent as_event(snoop s);

}  // namespace cohsim::protocol

namespace cohsim::protocol {

// Agent numbers in the order added, the first 16 without allocating (a
// request's snoop targets: asked for on every request a home serves).
class agent_list {
public:
    void push_back(int a) {
        if (m_n < small) {
            m_small[m_n++] = a;
            return;
        }
        if (m_more.empty()) m_more.assign(m_small.begin(), m_small.end());
        m_more.push_back(a);
        ++m_n;
    }
    const int* begin() const { return m_n <= small ? m_small.data() : m_more.data(); }
    const int* end() const { return begin() + m_n; }
    std::size_t size() const { return m_n; }
    bool empty() const { return m_n == 0; }

private:
    static constexpr std::size_t small = 16;
    std::array<int, small> m_small{};
    std::vector<int> m_more;  // all of them, once there are more than `small`
    std::size_t m_n = 0;
};

// The home's record of one line: its state, the owner and the sharers
// (agent numbers). Applying a home_cell updates it; the snoop targets come
// from it.
struct home_entry {
    hstate state = hstate::I;
    int owner = -1;
    std::vector<int> sharers;  // sorted, never holds the owner

    bool is_sharer(int agent) const;
    // `exclusive`: the request is a store-exclusive's (STXR) upgrade.
    hevent classify(request r, int requester, bool exclusive = false) const;
    // Who `cell` snoops: the owner (with to_owner) and the sharers (with
    // to_sharers), never the requester (-1: nobody is spared, a far atomic).
    agent_list targets(const home_cell& cell, int requester) const;
    // Updates the record for a finished transaction of `cell`.
    void apply(const home_cell& cell, int requester, bool owner_was_dirty);
    // The record matches its state: I none; S sharers only; M one owner; O an owner (and maybe sharers).
    bool consistent() const;
};

// One line's serving sequence at its home, untimed: the one executor of the
// home table and the transaction table. The simulator's home
// (models/mem/home.cpp) and the random tester run every request through it;
// where each step happens, when, and what is said when a step is refused
// are theirs (a refused step returns false and changes nothing):
//   - a request that meets a busy line waits (busy());
//   - it meets the cell of its class (classify()) in the line's state;
//   - an exclusive failure or an eviction is answered at once (immediate());
//   - any other opens a transaction (open()): the line is the requester's
//     until its Unblock;
//   - the snoop answers are counted (answered()); the owner's, when it must
//     bring the line, says whether it was dirty;
//   - with the last (or none expected) the home grants (granted(), ready());
//   - the requester's Unblock frees the line (unblocked()) for the next.
struct home_line {
    home_entry e;
    tstate phase = tstate::Idle;
    // The open transaction: its cell, requester, the owner when it opened,
    // the answers still expected, and whether the owner's line was dirty.
    const home_cell* cell = nullptr;
    int requester = -1;
    int owner_at_start = -1;
    int answers_left = 0;
    bool owner_dirty = false;

    bool busy() const { return transaction_transition(phase, tevent::Request).kind == outcome::stall; }
    // A request's class against the record; a far atomic (every copy
    // snooped, the requester's own too) is a GetM.
    hevent classify(request r, int agent, bool exclusive, bool far) const {
        return far ? hevent::GetM : e.classify(r, agent, exclusive);
    }
    // An exclusive failure (nothing changes) or an eviction (the record
    // does), answered at once.
    bool immediate(const home_cell& c, int agent) {
        if (!step(tevent::Immediate)) return false;
        if (c.grant_clean != grant::Excl_Fail) e.apply(c, agent, false);
        return true;
    }
    // A transaction of `c` for `agent`, expecting `answers` snoop answers
    // (the caller may count more on as it sends them).
    bool open(const home_cell& c, int agent, int answers) {
        if (!step(tevent::Request)) return false;
        cell = &c, requester = agent, owner_at_start = e.owner, answers_left = answers, owner_dirty = false;
        return true;
    }
    enum class answer_check { ok, unexpected, owner_without_data };
    // A snoop answer from `agent` (-1: one that speaks for several, with no
    // line of its own to check).
    answer_check answered(int agent, bool data, bool dirty) {
        if (transaction_transition(phase, tevent::Answer).kind != outcome::ok || answers_left <= 0)
            return answer_check::unexpected;
        if (agent >= 0 && agent == owner_at_start && cell->owner_supplies_data()) {
            if (!data) return answer_check::owner_without_data;
            owner_dirty = dirty;
        }
        --answers_left;
        return answer_check::ok;
    }
    // The grant the requester gets.
    grant granted() const { return owner_dirty ? cell->grant_dirty : cell->grant_clean; }
    // Every answer is in: the record takes the transaction's outcome (a far
    // atomic's: nobody holds the line), and the line waits for the Unblock.
    bool ready(bool far) {
        if (!step(tevent::Ready)) return false;
        if (far)
            e = home_entry{};
        else
            e.apply(*cell, requester, owner_dirty);
        return true;
    }
    bool unblocked() { return step(tevent::Unblock); }

private:
    bool step(tevent ev) {
        const transaction_cell& c = transaction_transition(phase, ev);
        if (c.kind != outcome::ok) return false;
        phase = c.next;
        return true;
    }
};

}  // namespace cohsim::protocol

// A random tester for the protocol tables alone (no timing): N caches and one
// home exchange messages over FIFO channels, delivered in a random order that
// covers the races the tables must handle. The caches run their cells with
// the simulator's executor (protocol::execute) and the home each request
// with the simulator's serving sequence (protocol::home_line), so what is
// tested here is what ships; only the message delivery, and the data values
// the home passes on, are this tester's. After every step it checks
//   - single writer / multiple readers: a cache that may write is alone;
//   - data value: every cache that may read holds the last value written;
//   - the home's records are consistent;
// and at the end that everything drains (no deadlock) and memory holds the
// last value of every line nobody owns dirty.
#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#include "models/coherence_protocol.h"

using namespace cohsim::protocol;

namespace {

struct message {
    enum kind_t { req, snp, grant_msg, snp_resp, unblock } kind;
    int cache = 0, line = 0;
    request r = request::GetS;
    snoop s = snoop::none;
    grant g = grant::none;
    int resp = 0;  // 0 ack, 1 clean data, 2 dirty data
    bool exclusive = false;  // a store-exclusive's upgrade
    std::uint64_t value = 0;
};

// A line at the tester's home: the simulator's record and serving sequence,
// the requests waiting, and the data the transaction will grant.
struct tested_line : home_line {
    std::deque<message> waiting;
    bool have_data = false;
    std::uint64_t data = 0;
};

class harness {
public:
    harness(int caches, int lines, bool broadcast, std::uint64_t seed)  // NOLINT
        : m_caches(caches), m_lines(lines), m_broadcast(broadcast), m_rng(seed),
          m_state(caches, std::vector<cstate>(lines, cstate::I)), m_value(caches, std::vector<std::uint64_t>(lines, 0)),
          m_pending(caches, std::vector<std::optional<cevent>>(lines)), m_to_home(caches), m_to_home_resp(caches),
          m_to_cache(caches),
          m_home(lines), m_mem(lines, 0), m_truth(lines, 0) {}

    // Runs `ops` core operations with random message delivery, then drains.
    void run(std::uint64_t ops) {
        std::uniform_real_distribution<double> coin(0, 1);
        while (m_ops_issued < ops && m_failure.empty()) {
            if (coin(m_rng) < 0.4)
                random_core_op();
            else
                deliver_random();
            check_invariants();
        }
        while (m_failure.empty() && deliver_random()) check_invariants();
        if (!m_failure.empty()) return;
        for (int c = 0; c < m_caches; ++c)
            for (int l = 0; l < m_lines; ++l) {
                if (m_pending[c][l]) fail("deadlock: cache " + std::to_string(c) + " still waits on line " + std::to_string(l));
                if (!is_stable(m_state[c][l])) fail("cache " + std::to_string(c) + " left in " + name(m_state[c][l]));
            }
        for (int l = 0; l < m_lines; ++l) {
            if (m_home[l].phase != tstate::Idle || !m_home[l].waiting.empty()) fail("home still busy on line " + std::to_string(l));
            bool dirty_owner = false;
            for (int c = 0; c < m_caches; ++c)
                dirty_owner |= m_state[c][l] == cstate::M || m_state[c][l] == cstate::O;
            if (!dirty_owner && m_mem[l] != m_truth[l]) fail("memory stale on line " + std::to_string(l));
        }
    }

    const std::string& failure() const { return m_failure; }
    std::uint64_t loads_checked() const { return m_loads_checked; }
    const std::set<std::pair<cstate, cevent>>& cache_cells() const { return m_cells; }
    const std::set<std::pair<hstate, hevent>>& home_cells() const { return m_hcells; }

private:
    void fail(const std::string& what) {
        if (m_failure.empty()) m_failure = what;
    }
    std::string where(int c, int l) const {
        return "cache " + std::to_string(c) + " line " + std::to_string(l) + " in " + name(m_state[c][l]);
    }

    void random_core_op() {
        std::uniform_int_distribution<int> pick_c(0, m_caches - 1), pick_l(0, m_lines - 1), pick_op(0, 10);
        const int c = pick_c(m_rng), l = pick_l(m_rng);
        // A core with a miss outstanding may still load from a line it can
        // read (SM_A, OM_A); everything else stalls in the table.
        const int r = pick_op(m_rng);
        const cevent e = r < 4   ? cevent::Load
                         : r < 6 ? cevent::Store
                         : r < 7 ? cevent::Unique
                         : r < 8 ? cevent::Zero  // DC ZVA: a full-line write
                                 : cevent::Replacement;
        const auto& cell = cache_transition(m_state[c][l], e);
        if (cell.kind != outcome::ok) return;  // stalled, or nothing to replace
        ++m_ops_issued;
        // Half the stores are store-exclusives: their upgrade fails at the
        // home if the copy is lost on the way.
        m_exclusive = e == cevent::Store && r == 5;
        perform(c, l, e, cell, nullptr);
        m_exclusive = false;
        if (cell.actions & (a_send_GetS | a_send_GetM | a_send_Upg | a_send_MakeU)) m_pending[c][l] = e;
    }

    // Executes a cache cell with the simulator's own executor
    // (protocol::execute); the values each cache holds are this tester's
    // oracle: a Data_* grant brings the line's value, a Store that hits writes
    // a new one, a snoop answer with data and a PutO/PutM carry the holder's.
    void perform(int c, int l, cevent e, const cache_cell& cell, const message* m) {
        m_cells.insert({m_state[c][l], e});
        if (m && m->kind == message::grant_msg && (m->g == grant::Data_S || m->g == grant::Data_E || m->g == grant::Data_M))
            m_value[c][l] = m->value;
        struct tester_actions : cache_actions {
            harness& h;
            int c, l;
            cevent e;
            bool dropped = false;
            void send_out(message::kind_t k, const std::function<void(message&)>& setup) {
                message out{k};
                out.cache = c;
                out.line = l;
                setup(out);
                (k == message::req ? h.m_to_home : h.m_to_home_resp)[c].push_back(out);
            }
            void hit() {
                if (e == cevent::Load) {
                    ++h.m_loads_checked;
                    if (h.m_value[c][l] != h.m_truth[l])
                        h.fail(h.where(c, l) + ": load read " + std::to_string(h.m_value[c][l]) + ", last write was " +
                               std::to_string(h.m_truth[l]));
                }
                // A store, or a whole-line write (whatever it held before), writes a new value.
                if (e == cevent::Store || e == cevent::Zero) h.m_value[c][l] = h.m_truth[l] = h.m_next_value++;
            }
            void send(request r) {
                send_out(message::req, [&](message& o) { o.r = r, o.value = h.m_value[c][l], o.exclusive = h.m_exclusive; });
            }
            void drop() { dropped = true; }  // after any answer, which still carries the data
            void answer(answer_kind a) {
                send_out(message::snp_resp, [&](message& o) {
                    o.resp = a == answer_kind::ack ? 0 : a == answer_kind::clean ? 1 : 2;
                    if (a != answer_kind::ack) o.value = h.m_value[c][l];
                });
            }
            void unblock() {
                send_out(message::unblock, [](message&) {});
            }
        } actions{{}, *this, c, l, e};
        execute(cell, actions);
        if (actions.dropped) m_value[c][l] = 0;
        m_state[c][l] = cell.next;
    }

    // Delivers the head of one random non-empty channel; false if all are empty.
    bool deliver_random() {
        std::vector<std::deque<message>*> ready;
        for (int i = 0; i < m_caches; ++i)
            for (auto* q : {&m_to_home[i], &m_to_home_resp[i], &m_to_cache[i]})
                if (!q->empty()) ready.push_back(q);
        if (ready.empty()) return false;
        auto* q = ready[std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(m_rng)];
        const message m = q->front();
        q->pop_front();
        if (m.kind == message::snp || m.kind == message::grant_msg)
            at_cache(m);
        else
            at_home(m);
        return true;
    }

    void at_cache(const message& m) {
        const int c = m.cache, l = m.line;
        const cevent e = m.kind == message::snp ? as_event(m.s) : as_event(m.g);
        const auto& cell = cache_transition(m_state[c][l], e);
        if (cell.kind != outcome::ok) return fail(where(c, l) + ": impossible event " + name(e));
        perform(c, l, e, cell, &m);
        if (m.kind == message::grant_msg && m.g == grant::Excl_Fail) {
            if (!m_pending[c][l]) return fail(where(c, l) + ": an exclusive failure nobody waited for");
            m_pending[c][l].reset();  // the store-exclusive fails: nothing written
            ++m_excl_failed;
        } else if (m.kind == message::grant_msg && m.g != grant::Put_Ack) {
            if (!m_pending[c][l]) return fail(where(c, l) + ": a grant nobody waited for");
            const cevent replay = *m_pending[c][l];
            m_pending[c][l].reset();
            const auto& again = cache_transition(m_state[c][l], replay);
            if (again.kind != outcome::ok || !(again.actions & a_hit))
                return fail(where(c, l) + ": replayed " + name(replay) + " does not hit");
            perform(c, l, replay, again, nullptr);
        }
    }

    template <class F>
    void to_cache(int c, int l, F setup) {
        message m{message::snp};
        m.cache = c;
        m.line = l;
        setup(m);
        m_to_cache[c].push_back(m);
    }

    void at_home(const message& m) {
        tested_line& h = m_home[m.line];
        switch (m.kind) {
            case message::req:
                if (h.busy())
                    h.waiting.push_back(m);
                else
                    start(m);
                break;
            case message::snp_resp: {
                switch (h.answered(m.cache, m.resp != 0, m.resp == 2)) {
                    case home_line::answer_check::unexpected: return fail("unexpected snoop response on line " + std::to_string(m.line));
                    case home_line::answer_check::owner_without_data:
                        return fail("owner " + std::to_string(m.cache) + " answered without data");
                    case home_line::answer_check::ok: break;
                }
                const bool owner_data = m.cache == h.owner_at_start && h.cell->owner_supplies_data();
                if (!owner_data && m.resp != 0) return fail("non-owner " + std::to_string(m.cache) + " answered with data");
                if (owner_data) h.have_data = true, h.data = m.value;
                if (h.answers_left == 0) finish(m.line);
                break;
            }
            case message::unblock:
                if (h.requester != m.cache || !h.unblocked()) return fail("unexpected unblock");
                while (h.phase == tstate::Idle && !h.waiting.empty()) {
                    const message next = h.waiting.front();
                    h.waiting.pop_front();
                    start(next);
                }
                break;
            default: fail("bad message to home");
        }
    }

    void start(const message& m) {
        tested_line& h = m_home[m.line];
        const int c = m.cache, l = m.line;
        const hevent ev = h.classify(m.r, c, m.exclusive, false);
        const home_cell& cell = home_transition(h.e.state, ev);
        m_hcells.insert({h.e.state, ev});
        if (cell.kind != outcome::ok)
            return fail(std::string("home line ") + std::to_string(l) + " in " + name(h.e.state) + ": impossible " + name(ev));
        if (cell.grant_clean == grant::Excl_Fail) {
            if (!h.immediate(cell, c)) return fail("exclusive failure on a busy line");
            to_cache(c, l, [](message& o) { o.kind = message::grant_msg, o.g = grant::Excl_Fail; });
            return;
        }
        if (m.r >= request::PutS) {
            if (!h.immediate(cell, c)) return fail("eviction on a busy line");
            if (ev == hevent::Put_owner && carries_data(m.r)) m_mem[l] = m.value;  // the owner's data goes home
            to_cache(c, l, [](message& o) { o.kind = message::grant_msg, o.g = grant::Put_Ack; });
            return;
        }
        if (!h.open(cell, c, 0)) return fail("request served on a busy line");
        h.have_data = cell.mem_read;
        h.data = m_mem[l];
        std::vector<bool> snooped(m_caches, false);
        auto snoop_one = [&](int target, snoop s) {
            snooped[target] = true;
            ++h.answers_left;
            to_cache(target, l, [&](message& o) { o.s = s; });
        };
        for (int target : h.e.targets(cell, c)) snoop_one(target, target == h.e.owner ? cell.to_owner : cell.to_sharers);
        if (m_broadcast) {
            const snoop kind = m.r == request::GetS ? snoop::Fwd_GetS : snoop::Inv;
            for (int t = 0; t < m_caches; ++t)
                if (t != c && !snooped[t]) snoop_one(t, kind);
        }
        if (h.answers_left == 0) finish(l);
    }

    void finish(int l) {
        tested_line& h = m_home[l];
        const grant g = h.granted();
        const bool data = g == grant::Data_S || g == grant::Data_E || g == grant::Data_M;
        if (data && !h.have_data) return fail("home line " + std::to_string(l) + " grants data it does not have");
        if (!h.ready(false)) return fail("grant on line " + std::to_string(l) + " with nothing to grant");
        if (!h.e.consistent()) return fail("home line " + std::to_string(l) + " inconsistent after grant");
        to_cache(h.requester, l, [&](message& o) { o.kind = message::grant_msg, o.g = g, o.value = h.data; });
    }

    void check_invariants() {
        for (int l = 0; l < m_lines && m_failure.empty(); ++l) {
            int writers = 0, readers = 0;
            for (int c = 0; c < m_caches; ++c) {
                writers += can_write(m_state[c][l]);
                readers += can_read(m_state[c][l]);
                if (can_read(m_state[c][l]) && m_value[c][l] != m_truth[l])
                    fail(where(c, l) + " holds " + std::to_string(m_value[c][l]) + ", last write was " +
                         std::to_string(m_truth[l]));
            }
            if (writers > 1 || (writers == 1 && readers > 1))
                fail("line " + std::to_string(l) + ": " + std::to_string(writers) + " writers with " +
                     std::to_string(readers) + " readers");
            if (!m_home[l].e.consistent()) fail("home line " + std::to_string(l) + " inconsistent");
        }
    }

    int m_caches, m_lines;
    bool m_broadcast;
    std::mt19937_64 m_rng;
    std::vector<std::vector<cstate>> m_state;
    std::vector<std::vector<std::uint64_t>> m_value;
    std::vector<std::vector<std::optional<cevent>>> m_pending;
    // Per cache: requests and responses travel on separate channels (as on a
    // real interconnect), so a snoop answer can overtake an earlier request.
    std::vector<std::deque<message>> m_to_home, m_to_home_resp, m_to_cache;
    std::vector<tested_line> m_home;
    std::vector<std::uint64_t> m_mem, m_truth;
    std::uint64_t m_next_value = 1, m_ops_issued = 0, m_loads_checked = 0, m_excl_failed = 0;
    bool m_exclusive = false;
    std::string m_failure;
    std::set<std::pair<cstate, cevent>> m_cells;
    std::set<std::pair<hstate, hevent>> m_hcells;
};

struct config {
    int caches, lines;
    bool broadcast;
};

}  // namespace

class ProtocolRandom : public ::testing::TestWithParam<config> {};

TEST_P(ProtocolRandom, InvariantsHoldUnderRandomInterleavings) {
    const config p = GetParam();
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        harness h(p.caches, p.lines, p.broadcast, seed);
        h.run(25'000);
        ASSERT_EQ(h.failure(), "") << "seed " << seed;
        EXPECT_GT(h.loads_checked(), 1000u);
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, ProtocolRandom,
                         ::testing::Values(config{2, 1, false}, config{2, 1, true}, config{3, 2, false},
                                           config{3, 2, true}, config{8, 1, false}, config{8, 3, true},
                                           config{8, 4, false}),
                         [](const auto& info) {
                             return std::to_string(info.param.caches) + "caches_" + std::to_string(info.param.lines) +
                                    "lines_" + (info.param.broadcast ? "broadcast" : "filter");
                         });

// The tester reaches every cell the tables call possible: a cell it never
// reaches would be one whose correctness nothing here checks.
TEST(ProtocolRandomCoverage, EveryPossibleCellIsExercised) {
    std::set<std::pair<cstate, cevent>> seen;
    std::set<std::pair<hstate, hevent>> hseen;
    for (const config p : {config{3, 1, true}, config{3, 1, false}, config{4, 2, true}}) {
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            harness h(p.caches, p.lines, p.broadcast, seed);
            h.run(50'000);
            ASSERT_EQ(h.failure(), "");
            seen.insert(h.cache_cells().begin(), h.cache_cells().end());
            hseen.insert(h.home_cells().begin(), h.home_cells().end());
        }
    }
    std::ostringstream missing;
    for (int s = 0; s < static_cast<int>(cstate::count); ++s)
        for (int e = 0; e < static_cast<int>(cevent::count); ++e) {
            const auto st = static_cast<cstate>(s);
            const auto ev = static_cast<cevent>(e);
            if (cache_transition(st, ev).kind == outcome::ok && !seen.count({st, ev}))
                missing << " " << name(st) << "x" << name(ev);
        }
    for (int s = 0; s < static_cast<int>(hstate::count); ++s)
        for (int e = 0; e < static_cast<int>(hevent::count); ++e) {
            const auto st = static_cast<hstate>(s);
            const auto ev = static_cast<hevent>(e);
            if (home_transition(st, ev).kind == outcome::ok && !hseen.count({st, ev}))
                missing << " home:" << name(st) << "x" << name(ev);
        }
    EXPECT_EQ(missing.str(), "");
}

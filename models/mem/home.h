// The home: the point of serialisation of every line, running the home table
// of coherence_protocol.h with a full-map directory (exact owner and sharers
// of every line, unbounded: no directory evictions). What a request does to a
// line (its cell, the blocking, the answers counted, the grant) is the
// protocol's serving sequence, protocol::home_line, which the random tester
// runs too; this file decides where each step happens and when.
//
// Modelled:
//   - blocking per line: from accepting a request until the requester's
//     Unblock; later requests for the line wait, and are served in the
//     interconnect's arbitration order (arrival, then the policy's key);
//   - where a request is served: inside its coherence domain (its cluster's
//     SCU, or the DSU for clusters under one) when every copy it must snoop
//     and the data it needs are there and no shared cache outside holds a
//     copy a write would make stale; otherwise the request travels on to the
//     interconnect of the line's home socket, which snoops the other clusters
//     (all of them with broadcast snoops, the holders with a snoop filter);
//   - the data a request needs: from the owner's snoop answer, else the
//     cluster's L2 or the DSU's L3 (inside the domain), another cluster's L2
//     or DRAM (at the interconnect);
//   - store-exclusive upgrades that lost their copy fail at once (Excl_Fail);
//   - full-line writes from a cache without a copy (DC ZVA: MakeU): every
//     copy is invalidated, the owner's without its data, and the grant
//     carries no data; served inside the domain only where the domain knows
//     the line (a copy in it, its L2 or L3, or a mesh home node's own line);
//   - far atomics: every copy, the requester's own included, is snooped
//     away; the home performs the operation and no L1 caches the line: at
//     the interconnect (interconnect.far_atomics) as its last snoop answer
//     arrives, or at the L3 of a DSU with far_atomics (dsu.h) once the L3
//     has the data, when every copy is inside the DSU's domain;
//   - per-line traffic counts (requests, evictions, snoops, transfers).
// Not modelled: a finite directory or snoop filter, directory latency
// separate from the hop latencies, retries (NACKs), the home's own queues.
// Timing: see delivery.h for each hop; DRAM, L2 and L3 latencies in their
// components.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/coherence_protocol.h"
#include "models/mem/cluster.h"
#include "models/mem/dram.h"
#include "models/mem/delivery.h"
#include "models/mem/dsu.h"
#include "models/mem/fabric.h"
#include "models/mem/interconnect.h"
#include "sim/index_set.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

// Coherence traffic of one line, counted where its home serves requests.
struct line_traffic {
    std::uint64_t line = 0;  // address of the line
    std::uint64_t gets = 0, getm = 0, upgrades = 0;  // requests served (read; write: GetM, MakeU; upgrade)
    std::uint64_t puts = 0;                          // evictions
    std::uint64_t exclusive_fails = 0;               // store-exclusive upgrades failed at the home
    std::uint64_t snoops = 0;                        // snoops sent to L1s for it
    std::uint64_t cross_cluster = 0;                 // data supplied by another cluster's cache
    std::uint64_t cross_socket = 0;                  // requests from a cluster on another socket than its home
    std::uint64_t requests() const { return gets + getm + upgrades; }
};

class home : public home_port {
public:
    // `dsu_of`: each cluster's DSU (index into `dsus`), -1 for none.
    // `far_atomics` counts the atomics performed here.
    home(fabric& f, const std::vector<std::unique_ptr<cluster>>& clusters, std::vector<int> dsu_of,
         const std::vector<std::unique_ptr<dsu>>& dsus, interconnect& ic, dram& memory, counter& far_atomics);

    // A request reaches the point of serialisation (an SCU or the interconnect).
    void arrive(request_msg m) override;
    // An L1 of cluster `k` answered a snoop for `line`.
    void snoop_answered(unsigned k, unsigned agent, std::uint64_t line, bool data, bool dirty) override;
    // The requester's Unblock: the line serves its next request.
    void unblock(std::uint64_t line) override;
    // An Unblock that finds no request waiting for its line is not scheduled
    // but kept in the line's record, with its place in the same-time order:
    // the next request to reach the line lets it land first if its time has
    // come, and else schedules it in that place (so it runs exactly as it
    // would have). An Unblock that no request queues behind costs no action.
    void send_unblock(unsigned agent, unsigned k, std::uint64_t line, duration left) override;
    void count_snoop(std::uint64_t line) override { ++record(line).traffic.snoops; }
    std::uint64_t arbitration_key(unsigned agent) const override { return m_ic.arbitration_key(agent); }

    // Every line seen, by address.
    std::vector<line_traffic> traffic() const;
    // The home's record of a line, for the deadlock diagnostic.
    std::string describe(std::uint64_t line) const;

private:
    // Where and when the line's open transaction (protocol::home_line) is served.
    struct transaction {
        request_msg req;
        bool global = false;
        bool far = false;
        duration ready;  // latest of data and answers, at the point of serialisation
        std::vector<int> cluster_left;  // global: targets still to answer, per cluster
        std::vector<duration> cluster_ready;
        // A fresh transaction, keeping the vectors' storage (no allocation per request).
        void reset() {
            std::vector<int> left = std::move(cluster_left);
            std::vector<duration> ready = std::move(cluster_ready);
            *this = transaction{};
            left.clear(), ready.clear();
            cluster_left = std::move(left), cluster_ready = std::move(ready);
        }
    };
    // The requests waiting for a busy line. Where the interconnect's order of
    // two waiting requests never changes while they wait (every arbiter but
    // round robin, whose ties rotate with each request served), they are kept
    // in that order, placed by a scan from the back (they mostly arrive in
    // it) and taken from the front; otherwise the next is the first that no
    // other goes before.
    class waiting_requests {
    public:
        bool empty() const { return m_head == m_v.size(); }
        std::size_t size() const { return m_v.size() - m_head; }
        void push(const request_msg& m, const interconnect& ic) {
            std::size_t i = m_v.size();
            m_v.push_back(m);
            if (!ic.order_fixed()) return;
            while (i > m_head && ic.before(m.agent, m.arrived, m_v[i - 1].agent, m_v[i - 1].arrived)) {
                m_v[i] = m_v[i - 1];
                --i;
            }
            m_v[i] = m;
        }
        request_msg take(const interconnect& ic) {
            if (!ic.order_fixed()) {  // (m_head stays 0)
                auto best = m_v.begin();
                for (auto it = m_v.begin(); it != m_v.end(); ++it)
                    if (ic.before(it->agent, it->arrived, best->agent, best->arrived)) best = it;
                const request_msg m = *best;
                m_v.erase(best);
                return m;
            }
            const request_msg m = m_v[m_head];
            if (++m_head == m_v.size()) {
                m_v.clear(), m_head = 0;
            } else if (m_head >= 32 && 2 * m_head >= m_v.size()) {
                // A line never idle (always a request waiting): drop the taken
                // ones now and then, in amortized constant time.
                m_v.erase(m_v.begin(), m_v.begin() + static_cast<std::ptrdiff_t>(m_head));
                m_head = 0;
            }
            return m;
        }

    private:
        std::vector<request_msg> m_v;
        std::size_t m_head = 0;  // m_v[0, m_head) are taken
    };
    // A line: the protocol's record and serving sequence, and the model's timing and counts.
    struct line_record : protocol::home_line {
        line_traffic traffic;
        transaction tx;
        waiting_requests waiting;
        // The shared caches that may hold the line, numbered clusters' L2s
        // first, then DSUs' L3s: a member added when the home fills that
        // cache and taken out when it drops the line there; a cache's own
        // eviction leaves it in. A superset, so asking only these caches
        // gets every answer that asking all of them would (a 28-way L2 that
        // does not hold the line costs a scan of its set).
        index_set shared;
        // An Unblock on its way that no action carries yet (send_unblock).
        // (From the transaction's requester, as phase::response.)
        struct kept_unblock {
            bool on = false;
            duration at;
            std::uint64_t order = 0;  // its place among the same-time actions of its rank
        } kept;
    };

    // The line's record (created on first use); recent ones are remembered
    // in a small direct-mapped table (records never move: the map's nodes
    // are stable).
    line_record& record(std::uint64_t line) {
        recent& slot = m_recent[(line / line_bytes) % m_recent.size()];
        if (slot.rec && slot.line == line) return *slot.rec;
        line_record& r = m_lines[line];
        slot = {line, &r};
        return r;
    }
    void process(line_record& h, const request_msg& m);
    // A request meets the line: its kept Unblock lands now if it is due, or
    // is scheduled in its place.
    void meet_kept_unblock(line_record& h, std::uint64_t line);
    void schedule_kept_unblock(line_record& h, std::uint64_t line);
    // The line's transaction was served at a mesh's home node: its Unblock
    // travels on there from the requester's crosspoint.
    static bool via_home_node(const line_record& h) { return !h.tx.global && h.tx.req.at_l3 && !h.tx.req.far; }
    // With interconnect.wait_at_interconnect, a request at its SCU for a line
    // busy with another domain's transaction goes on to the interconnect and
    // waits there: a cluster's SCU cannot see the interconnect's point of
    // serialisation (it holds only what its own cores asked, or a read its
    // own L2 or L3 can serve).
    bool passes_scu(const line_record& h, const request_msg& m);
    // When the requester's Unblock, leaving its SCU at `at`, reaches the home's side.
    duration unblock_reaches(unsigned agent, unsigned k, std::uint64_t line, duration at);
    void to_home_node(const request_msg& m, dsu& d, duration now);
    // The Unblock reached the point of serialisation: the line serves its next request.
    void unblocked(std::uint64_t line);
    // The home serves a request for a line (one cell of its table): counted, and explained.
    void served(std::uint64_t line, protocol::hstate before, protocol::hevent ev, const protocol::home_cell& cell,
                const request_msg& m) {
        ++m_f.counts.home[static_cast<std::size_t>(before)][static_cast<std::size_t>(ev)];
        if (m_f.explaining(line)) explain_served(line, before, ev, cell, m);
    }
    void explain_served(std::uint64_t line, protocol::hstate before, protocol::hevent ev, const protocol::home_cell& cell,
                        const request_msg& m);
    // A step of the line's serving sequence that the transaction table refused stops the run.
    [[noreturn]] void refused(const char* what, std::uint64_t line) const;
    unsigned cluster_of(int agent) const;
    // Clusters j and k are one coherence domain: the same cluster, or under one DSU.
    bool same_domain(unsigned j, unsigned k) const { return j == k || (m_dsu_of[j] >= 0 && m_dsu_of[j] == m_dsu_of[k]); }
    dsu* dsu_for(unsigned k) const {
        return m_dsu_of[k] >= 0 ? m_dsus[static_cast<unsigned>(m_dsu_of[k])].get() : nullptr;
    }
    // Cluster k's DSU when it performs LSE atomics at its L3, else null.
    dsu* atomics_dsu(unsigned k) const {
        dsu* d = dsu_for(k);
        return d && d->far_atomics() ? d : nullptr;
    }
    // Cluster k's mesh when a message between its cores and the line's home
    // crosses sockets (it travels over the mesh to or from its gateway, mesh.h),
    // else null. `touch`: the line's first request, which may place its page.
    dsu* gateway_mesh(unsigned k, std::uint64_t line, bool touch) const {
        return m_gateways ? crossing_mesh(k, line, touch) : nullptr;
    }
    dsu* crossing_mesh(unsigned k, std::uint64_t line, bool touch) const;
    // A message from the interconnect to `agent` of cluster k, sent at `t`:
    // when it reaches the core's SCU, as a time whose next edge of the
    // cluster's clock is the arrival (for scu_to_l1, which counts from it).
    duration from_interconnect(unsigned agent, unsigned k, std::uint64_t line, duration t, bool data) const {
        const duration in = m_f.net->home_to_scu_input(k, line, t, data);
        return m_gateways ? through_gateway(agent, k, line, m_clusters[k]->arrive(in), data) : in;
    }
    duration through_gateway(unsigned agent, unsigned k, std::uint64_t line, duration in, bool data) const;
    bool cached_outside(const line_record& h, std::uint64_t line, unsigned k) const;
    void drop_stale(line_record& h, std::uint64_t line, unsigned k);
    void fill_shared(line_record& h, unsigned k, std::uint64_t line);
    // The L3 of cluster k's DSU now holds the line.
    void fill_l3(line_record& h, unsigned k, std::uint64_t line);
    void to_interconnect(const request_msg& m, unsigned k, duration now);
    duration snoop_reaches(unsigned j, std::uint64_t line, duration arrived, duration now, bool at_edge);
    duration memory_data(line_record& h, std::uint64_t line, unsigned k, duration now);
    void owner_answered(const line_record& h, bool data);
    void answer(std::uint64_t line, int agent, bool data, bool dirty);
    void grant_now(line_record& h);
    void far_result(line_record& h);

    fabric& m_f;
    const std::vector<std::unique_ptr<cluster>>& m_clusters;
    std::vector<int> m_dsu_of;
    const std::vector<std::unique_ptr<dsu>>& m_dsus;
    interconnect& m_ic;
    dram& m_memory;
    counter& m_far_atomics;
    bool m_gateways;  // two sockets or more, and a mesh: a message may cross a mesh to its gateway
    std::unordered_map<std::uint64_t, line_record> m_lines;
    struct recent {
        std::uint64_t line = 0;
        line_record* rec = nullptr;
    };
    std::array<recent, 16> m_recent{};
};

}  // namespace cohsim

#include "models/mem/home.h"

#include <algorithm>
#include <sstream>

#include "models/mem/delivery.h"
#include "models/mem/l1_cache.h"
#include "sim/kernel.h"

namespace cohsim {

using namespace protocol;

home::home(fabric& f, const std::vector<std::unique_ptr<cluster>>& clusters, std::vector<int> dsu_of,
           const std::vector<std::unique_ptr<dsu>>& dsus, interconnect& ic, dram& memory, counter& far_atomics)
    : m_f(f), m_clusters(clusters), m_dsu_of(std::move(dsu_of)), m_dsus(dsus), m_ic(ic), m_memory(memory),
      m_far_atomics(far_atomics),
      m_gateways(ic.sockets() > 1 && std::any_of(dsus.begin(), dsus.end(), [](const auto& d) { return d->meshed(); })) {}

unsigned home::cluster_of(int agent) const { return m_f.states[static_cast<unsigned>(agent)]->cluster; }

void home::explain_served(std::uint64_t line, hstate before, hevent ev, const home_cell& cell, const request_msg& m) {
    m_f.obs.explain->served();
    const l1_cache& c = *m_f.states[m.agent];
    const dsu* dd = dsu_for(cluster_of(static_cast<int>(m.agent)));
    const bool at_node = m.at_l3 && (!m.far || (dd && dd->is_mesh()));  // a mesh's home node
    m_f.explain(line, std::string("home (") + (m.at_ic ? "interconnect" : at_node ? "mesh home node" : c.core.substr(0, c.core.find('.')) + " SCU") +
                          ") in " + name(before) + " serves " + name(ev) + " from " + c.core + ": " + cell_text(cell));
}

void home::arrive(request_msg m) {
    if (m.far && !m.at_ic && !m.at_l3) {
        // A far atomic for a DSU that performs them is serialised at its L3,
        // a snoop_latency hop on from the SCU; on a mesh at the line's home
        // node, across the mesh.
        if (dsu* d = atomics_dsu(cluster_of(static_cast<int>(m.agent)))) {
            if (d->is_mesh()) return to_home_node(m, *d, kernel::now());
            m.at_l3 = true;
            m_f.q->at(d->far_at_l3(kernel::now()), rank(phase::request, m_ic.arbitration_key(m.agent)),
                      [this, m] { arrive(m); });
            return;
        }
    }
    m.arrived = kernel::now();
    line_record& h = record(m.line);
    if (h.kept.on) meet_kept_unblock(h, m.line);
    if (h.busy()) {
        // On a mesh a request for a busy line goes on to the home node (its
        // own L2 cannot serve it while another core's transaction holds the
        // line) and waits there, in the order it arrives there.
        dsu* d = m.at_ic || m.at_l3 || m.r >= request::PutS ? nullptr : dsu_for(cluster_of(static_cast<int>(m.agent)));
        if (d && d->is_mesh()) return to_home_node(m, *d, m.arrived);
        if (passes_scu(h, m)) return to_interconnect(m, cluster_of(static_cast<int>(m.agent)), m.arrived);
        h.waiting.push(m, m_ic);
        return;
    }
    process(h, m);
}

bool home::passes_scu(const line_record& h, const request_msg& m) {
    if (!m_ic.params().wait_at_interconnect || m.at_ic || m.at_l3 || m.r >= request::PutS) return false;
    const unsigned k = cluster_of(static_cast<int>(m.agent));
    if (same_domain(k, cluster_of(static_cast<int>(h.tx.req.agent)))) return false;
    if (m.r != request::GetS) return true;
    dsu* d = dsu_for(k);
    return !m_clusters[k]->l2_holds(m.line) && !(d && d->l3_holds(m.line));
}

void home::refused(const char* what, std::uint64_t line) const { m_f.protocol_error(std::string(what) + " " + hex(line)); }

// A shared cache outside k's domain holds the line (stale once k writes).
bool home::cached_outside(const line_record& h, std::uint64_t line, unsigned k) const {
    const unsigned n = static_cast<unsigned>(m_clusters.size());
    return h.shared.any([&](unsigned i) {
        if (i < n) return !same_domain(i, k) && m_clusters[i]->l2_holds(line);
        return static_cast<int>(i - n) != m_dsu_of[k] && m_dsus[i - n]->l3_holds(line);
    });
}

// k writes the line: every other shared cache's copy is stale.
void home::drop_stale(line_record& h, std::uint64_t line, unsigned k) {
    const unsigned n = static_cast<unsigned>(m_clusters.size());
    h.shared.any([&](unsigned i) {
        if (i < n ? i == k : static_cast<int>(i - n) == m_dsu_of[k]) return false;
        if (i < n)
            m_clusters[i]->l2_drop(line);
        else
            m_dsus[i - n]->l3_drop(line);
        h.shared.erase(i);
        return false;
    });
}

// The cluster's L2, and its DSU's L3, now hold the line.
void home::fill_shared(line_record& h, unsigned k, std::uint64_t line) {
    m_clusters[k]->l2_fill(line);
    h.shared.insert(k);
    if (dsu_for(k)) fill_l3(h, k, line);
}

void home::fill_l3(line_record& h, unsigned k, std::uint64_t line) {
    dsu_for(k)->l3_fill(line);
    h.shared.insert(static_cast<unsigned>(m_clusters.size() + static_cast<std::size_t>(m_dsu_of[k])));
}

// Forwards a request from its SCU to the interconnect.
void home::to_interconnect(const request_msg& m, unsigned k, duration now) {
    request_msg fwd = m;
    fwd.at_ic = true;
    duration left = now;
    if (dsu* g = gateway_mesh(k, m.line, true))
        left = m.at_l3 ? g->home_node_to_gateway(m.line, now) : g->core_to_gateway(m.agent, now, false);
    const duration at = m_f.net->scu_to_home(k, m.line, left);
    m_f.q->at(at, rank(phase::request, m_ic.arbitration_key(m.agent)), [this, fwd] { arrive(fwd); });
}

dsu* home::crossing_mesh(unsigned k, std::uint64_t line, bool touch) const {
    dsu* d = dsu_for(k);
    if (!d || !d->is_mesh()) return nullptr;
    delivery& net = *m_f.net;
    return net.socket_of(k) != (touch ? net.touch(k, line) : net.home_socket(line)) ? d : nullptr;
}

duration home::through_gateway(unsigned agent, unsigned k, std::uint64_t line, duration in, bool data) const {
    dsu* g = crossing_mesh(k, line, false);
    return g ? g->gateway_to_core(agent, in, data) : in;
}

duration home::unblock_reaches(unsigned agent, unsigned k, std::uint64_t line, duration at) {
    // With overlapped_lookup the interconnect serves the next request as the
    // line reaches its new owner: its snoops follow the line (snoop_reaches).
    if (!record(line).tx.global || m_ic.params().overlapped_lookup) return at;
    if (dsu* g = gateway_mesh(k, line, false)) at = g->core_to_gateway(agent, at, false);
    return m_f.net->answer_to_home(k, line, at, false, m_ic.params().ack_latency);
}

void home::send_unblock(unsigned agent, unsigned k, std::uint64_t line, duration left) {
    line_record& h = record(line);
    h.kept = {true, unblock_reaches(agent, k, line, left), m_f.q->reserve_order()};
    // One that goes on to a mesh's home node, or that frees the line for a
    // request already waiting, is an action at once.
    if (via_home_node(h) || !h.waiting.empty()) schedule_kept_unblock(h, line);
}

void home::meet_kept_unblock(line_record& h, std::uint64_t line) {
    // Every request arrives in phase::request, after the responses of its
    // time: an Unblock due now has landed.
    if (!(kernel::now() < h.kept.at)) {
        h.kept.on = false;
        return unblocked(line);
    }
    schedule_kept_unblock(h, line);
}

void home::schedule_kept_unblock(line_record& h, std::uint64_t line) {
    h.kept.on = false;
    m_f.q->at(h.kept.at, rank(phase::response, h.tx.req.agent), h.kept.order, [this, line] { unblock(line); });
}

// Sends a request from its core's crosspoint to its line's home node on the mesh.
void home::to_home_node(const request_msg& m, dsu& d, duration now) {
    request_msg fwd = m;
    fwd.at_l3 = true;
    m_f.q->at(d.to_home(m.agent, m.line, now), rank(phase::request, m_ic.arbitration_key(m.agent)),
              [this, fwd] { arrive(fwd); });
}

void home::process(line_record& h, const request_msg& m) {
    const duration now = kernel::now();
    delivery& net = *m_f.net;
    const unsigned k = cluster_of(static_cast<int>(m.agent));
    // A far atomic snoops every copy, the requester's own included.
    const hevent ev = h.classify(m.r, static_cast<int>(m.agent), m.exclusive, m.far);
    const home_cell& cell = home_transition(h.e.state, ev);
    if (cell.kind != outcome::ok)
        m_f.protocol_error("home " + hex(m.line) + " in " + name(h.e.state) + ": " + name(ev) + " from core " +
                           std::to_string(m.agent));
    cluster& cl = *m_clusters[k];
    const unsigned agent = m.agent;
    const std::uint64_t line = m.line;
    if (m.r >= request::PutS) {
        const hstate before = h.e.state;
        if (!h.immediate(cell, static_cast<int>(agent))) refused("eviction served on a busy line", line);
        ++h.traffic.puts;
        served(line, before, ev, cell, m);
        fill_shared(h, k, line);
        l1_port* c = m_f.l1s[agent];
        m_f.q->at(net.scu_to_l1(k, now), rank(phase::response, agent), [c, line] { c->put_ack(line); });
        return;
    }
    dsu* d = dsu_for(k);
    // On a mesh, every request but one its core's own L2 serves alone goes
    // to the line's home node and is served there.
    const bool on_mesh = d && d->is_mesh() && !m.at_ic;
    if (on_mesh && !m.at_l3 &&
        !(cell.grant_clean != grant::Excl_Fail && cell.mem_read && cl.l2_holds(line) && h.e.targets(cell, static_cast<int>(agent)).empty()))
        return to_home_node(m, *d, now);
    if (cell.grant_clean == grant::Excl_Fail) {
        if (!h.immediate(cell, static_cast<int>(agent))) refused("exclusive failure served on a busy line", line);
        ++h.traffic.exclusive_fails;
        served(line, h.e.state, ev, cell, m);
        // No transaction: the answer goes straight back (no data).
        const duration at = m.at_ic ? from_interconnect(agent, k, line, now, false) : on_mesh ? d->from_home(agent, line, now, false) : now;
        l1_port* c = m_f.l1s[agent];
        m_f.q->at(net.scu_to_l1(k, at), rank(phase::response, agent), [c, line] { c->exclusive_failed(line); });
        return;
    }
    const auto t = h.e.targets(cell, m.far ? -1 : static_cast<int>(agent));
    // Whether the cluster's L2 and its DSU's L3 hold the line, asked only
    // where the answer is used (each scans a set; a request on its way to the
    // interconnect needs neither). drop_stale() below leaves both as they are.
    const auto in_l2 = [&] { return cl.l2_holds(line); };
    const auto in_l3 = [&] { return d && d->l3_holds(line); };
    // A far atomic stays in the domain when its DSU performs atomics at the L3.
    const bool far_at_l3 = m.far && atomics_dsu(k);
    if (!m.at_ic) {
        bool local = (!m.far || far_at_l3) &&
                     std::all_of(t.begin(), t.end(), [&](int a) { return same_domain(cluster_of(a), k); });
        // The data from a shared cache of the domain, and a line no cache
        // holds only from there too: a cluster or a DSU cannot know that no
        // other cluster has it (a MakeU needs no data, but this knowledge);
        // a mesh's home node knows from its snoop filter, for the lines of
        // its own socket. (Every request but a MakeU reads at I.)
        if (cell.mem_read || (h.e.state == hstate::I && (!on_mesh || net.touch(k, line) != net.socket_of(k))))
            local = local && (in_l2() || in_l3());
        if (m.r != request::GetS) local = local && !cached_outside(h, line, k);
        if (!local) return to_interconnect(m, k, now);
    }
    // The line is ours until the requester's Unblock.
    if (!h.open(cell, static_cast<int>(agent), 0)) refused("request served on a busy line", line);
    served(line, h.e.state, ev, cell, m);
    const bool write_request = m.r == request::GetM || m.r == request::MakeU;
    ++(m.r == request::GetS ? h.traffic.gets : write_request ? h.traffic.getm : h.traffic.upgrades);
    if (net.socket_of(k) != net.home_socket(line)) ++h.traffic.cross_socket;
    transaction& tx = h.tx;
    tx.reset();
    tx.req = m;
    tx.global = m.at_ic;
    tx.far = m.far;
    tx.ready = now;
    m_ic.served(agent);
    if (m.r != request::GetS) drop_stale(h, line, k);
    if (!tx.global) {
        ++cl.local_transactions;
        if (m.far) {
            // At the L3: its access is the atomic's read (the L3's copy, or
            // the cluster's, as the L3 fetches it; or the owner's answer,
            // which may come later: answer()).
            if (cell.mem_read) ++(in_l3() ? d->l3_hits : cl.l2_hits);
            tx.ready = d->l3_data(now);
        } else if (on_mesh && m.at_l3) {
            // At the home node: the SLC slice's data, or the grant alone,
            // travels back to the requester (with snoops, the answers time it).
            if (cell.mem_read) {
                ++(in_l3() ? d->l3_hits : cl.l2_hits);
                tx.ready = d->from_home(agent, line, d->l3_data(now), true);
            } else if (t.empty()) {
                tx.ready = d->from_home(agent, line, now, false);
            }
        } else if (cell.mem_read) {
            if (in_l2()) {
                ++cl.l2_hits;
                tx.ready = net.in_cluster(k, now, cl.l2_latency());
            } else {
                ++d->l3_hits;
                tx.ready = d->l3_data(now);
            }
        }
        h.answers_left = static_cast<int>(t.size());
        // Under a DSU the snoops go out through it; then the target's own
        // SCU hop, in its own clock.
        const duration out = d && !t.empty() ? d->snoops_leave(m.arrived, now) : now;
        for (int a : t) {
            const snoop s = a == h.e.owner ? cell.to_owner : cell.to_sharers;
            l1_port* c = m_f.l1s[static_cast<unsigned>(a)];
            const duration at = on_mesh ? d->from_home(static_cast<unsigned>(a), line, out, false) : out;
            m_f.q->at(net.scu_to_l1(cluster_of(a), at), rank(phase::snoop, static_cast<std::uint64_t>(a)),
                      [c, s, line] { c->snoop(s, line); });
        }
    } else {
        ++m_ic.requests;
        ++(m.r == request::GetS ? m_ic.requests_gets : write_request ? m_ic.requests_getm : m_ic.requests_upgrade);
        const std::size_t n = m_clusters.size();
        tx.cluster_left.assign(n, 0);
        tx.cluster_ready.assign(n, duration{});
        for (int a : t) ++tx.cluster_left[cluster_of(a)];
        if (cell.mem_read) tx.ready = memory_data(h, line, k, now);
        for (unsigned j = 0; j < n; ++j) {
            if (!m_ic.snoops_cluster(j, tx.cluster_left[j] > 0, k, m.far)) continue;
            ++h.answers_left;
            ++m_ic.snoops;
            // Through a mesh gateway the snoop needs its time at the SCU's
            // edge; else the SCU's hop on counts from that edge itself.
            dsu* g = gateway_mesh(j, line, false);
            const duration at = snoop_reaches(j, line, m.arrived, now, g != nullptr);
            ++m_clusters[j]->interconnect_snoops;
            if (tx.cluster_left[j] == 0) {
                // Nothing to see here: the SCU answers from its duplicate tags.
                const duration back =
                    net.answer_to_home(j, line, net.in_cluster(j, at, m_clusters[j]->scu().snoop_miss_latency), false);
                m_f.q->at(back, rank(phase::response, j), [this, line] { answer(line, -1, false, false); });
                continue;
            }
            for (int a : t) {
                if (cluster_of(a) != j) continue;
                const snoop s = a == h.e.owner ? cell.to_owner : cell.to_sharers;
                l1_port* c = m_f.l1s[static_cast<unsigned>(a)];
                const duration in = g ? g->gateway_to_core(static_cast<unsigned>(a), at, false) : at;
                m_f.q->at(net.scu_to_l1(j, in), rank(phase::snoop, static_cast<std::uint64_t>(a)),
                          [c, s, line] { c->snoop(s, line); });
            }
        }
    }
    if (h.answers_left == 0) grant_now(h);
}

// A snoop of a request that reached the interconnect at `arrived`, served at
// `now`: when it reaches cluster j's SCU (`at_edge`: the SCU's edge; else its
// input, for a hop on that counts from that edge). With overlapped_lookup, a request
// that waited had its snoops' lookup and trip done meanwhile: they arrive as
// that trip would bring them, or as the line frees if that is later (the
// line frees as it reaches its new owner: unblock_reaches).
duration home::snoop_reaches(unsigned j, std::uint64_t line, duration arrived, duration now, bool at_edge) {
    delivery& net = *m_f.net;
    auto reach = [&](duration t) {
        const duration in = net.snoop_to_scu_input(j, line, t);
        return at_edge ? m_clusters[j]->arrive(in) : in;
    };
    if (!m_ic.params().overlapped_lookup) return reach(now);
    const duration looked_up = reach(arrived);  // later than now unless it waited
    return looked_up < now ? now : looked_up;
}

// When a line that no cache owns reaches the interconnect: from another
// cluster's L2 if one holds it, else from memory.
duration home::memory_data(line_record& h, std::uint64_t line, unsigned k, duration now) {
    delivery& net = *m_f.net;
    const unsigned n = static_cast<unsigned>(m_clusters.size());
    unsigned from = n;  // the first other cluster whose L2 holds it
    h.shared.any([&](unsigned j) {
        if (j >= n || j == k || !m_clusters[j]->l2_holds(line)) return false;
        from = j;
        return true;
    });
    if (from == n) return m_memory.read_line(net.home_socket(line), now, line_bytes);
    ++m_clusters[from]->l2_hits;
    ++m_ic.transfers;
    ++h.traffic.cross_cluster;
    const duration at = net.snoop_to_scu_input(from, line, now);  // the L2's latency counts from the SCU's edge
    return net.answer_to_home(from, line, net.in_cluster(from, at, m_clusters[from]->l2_latency()), true);
}

void home::snoop_answered(unsigned k, unsigned agent_, std::uint64_t line, bool data, bool dirty) {
    line_record& h = record(line);
    const duration at_scu = m_f.net->l1_to_scu(k, kernel::now());
    const int agent = static_cast<int>(agent_);
    if (!h.tx.global) {
        // Inside the domain: under a DSU the answer goes back through it.
        dsu* d = dsu_for(k);
        if (data && agent == h.owner_at_start && !h.tx.far) {  // (a far atomic's data goes to the L3)
            if (k == cluster_of(static_cast<int>(h.tx.req.agent)))
                ++m_clusters[k]->core_transfers;
            else if (d)
                ++d->transfers, ++h.traffic.cross_cluster;
        }
        const bool mesh = h.tx.req.at_l3 && d && d->is_mesh();
        const duration at = !d                 ? at_scu
                            : mesh && h.tx.far ? d->answer_to_home(agent_, line, at_scu, data)
                            : mesh             ? d->answer_reaches(agent_, h.tx.req.agent, line, at_scu, data)
                                               : d->answer_leaves(at_scu);
        m_f.q->at(at, rank(phase::response, agent_), [this, line, agent, data, dirty] { answer(line, agent, data, dirty); });
        return;
    }
    // Global: the cluster answers once all its snooped L1s have.
    transaction& tx = h.tx;
    duration left = at_scu;
    if (dsu* g = gateway_mesh(k, line, false)) left = g->core_to_gateway(agent_, at_scu, data);
    if (tx.cluster_ready[k] < left) tx.cluster_ready[k] = left;
    if (agent == h.owner_at_start) h.owner_dirty = dirty, owner_answered(h, data);
    if (--tx.cluster_left[k] > 0) return;
    const duration back = m_f.net->answer_to_home(k, line, tx.cluster_ready[k], data);
    m_f.q->at(back, rank(phase::response, k), [this, line] { answer(line, -1, false, false); });
}

void home::owner_answered(const line_record& h, bool data) {
    if (data && cluster_of(h.owner_at_start) != cluster_of(static_cast<int>(h.tx.req.agent)))
        ++m_ic.transfers, ++record(h.tx.req.line).traffic.cross_cluster;
}

// A snoop answer reaches the point of serialisation.
void home::answer(std::uint64_t line, int agent, bool data, bool dirty) {
    line_record& h = record(line);
    switch (h.answered(agent, data, dirty)) {
        case home_line::answer_check::unexpected: m_f.protocol_error("unexpected snoop answer for line " + hex(line));
        case home_line::answer_check::owner_without_data: m_f.protocol_error("owner answered without data for line " + hex(line));
        case home_line::answer_check::ok: break;
    }
    transaction& tx = h.tx;
    if (tx.ready < kernel::now()) tx.ready = kernel::now();
    if (h.answers_left == 0) grant_now(h);
}

void home::grant_now(line_record& h) {
    transaction& tx = h.tx;
    if (!h.ready(tx.far)) refused("grant without a request for line", tx.req.line);
    if (tx.far) return far_result(h);
    delivery& net = *m_f.net;
    const grant g = h.granted();
    const unsigned agent = tx.req.agent, k = cluster_of(static_cast<int>(agent));
    const std::uint64_t line = tx.req.line;
    const bool data = g == grant::Data_S || g == grant::Data_E || g == grant::Data_M;
    duration at;
    if (tx.global) {
        at = net.scu_to_l1(k, from_interconnect(agent, k, line, tx.ready, data));
        fill_shared(h, k, line);
    } else {
        at = net.scu_to_l1(k, tx.ready);
    }
    l1_port* c = m_f.l1s[agent];
    m_f.q->at(at, rank(phase::response, agent), [c, g, line] { c->grant(g, line); });
}

// A far atomic: every copy is gone; the home performs the operation and
// returns the old value; nobody caches the line now.
// At the interconnect it performs as the last answer arrives, and the line
// serves its next request at once; at a DSU's L3 it performs once the L3
// has the data (tx.ready), which the line waits for, and the L3 keeps it.
void home::far_result(line_record& h) {
    transaction& tx = h.tx;
    const unsigned k = cluster_of(static_cast<int>(tx.req.agent));
    const std::uint64_t line = tx.req.line;
    if (tx.global) {
        ++m_far_atomics;
        // A DSU that performs atomics keeps the line in its L3 for the next.
        if (atomics_dsu(k)) fill_l3(h, k, line);
        const duration at = m_f.net->scu_to_l1(k, from_interconnect(tx.req.agent, k, line, tx.ready, false));
        m_f.l1s[tx.req.agent]->far_result(line, at);
        unblocked(line);
        return;
    }
    const unsigned agent = tx.req.agent;
    m_f.q->at(tx.ready, rank(phase::response, agent), [this, k, agent, line] {
        dsu& d = *dsu_for(k);
        ++d.far_atomics_done;
        for (unsigned j = 0; j < m_clusters.size(); ++j)
            if (same_domain(j, k)) m_clusters[j]->l2_drop(line);
        fill_l3(record(line), k, line);
        const duration out = d.is_mesh() ? d.from_home(agent, line, kernel::now(), false) : d.answer_leaves(kernel::now());
        m_f.l1s[agent]->far_result(line, m_f.net->scu_to_l1(k, out));
        unblocked(line);
    });
}

void home::unblock(std::uint64_t line) {
    // On a mesh, the requester's Unblock travels back to the home node first.
    line_record& h = record(line);
    const request_msg& r = h.tx.req;
    if (h.phase != tstate::Idle && via_home_node(h)) {
        dsu* d = dsu_for(cluster_of(static_cast<int>(r.agent)));
        m_f.q->at(d->to_home(r.agent, line, kernel::now()), rank(phase::response, r.agent),
                  [this, line] { unblocked(line); });
        return;
    }
    unblocked(line);
}

void home::unblocked(std::uint64_t line) {
    line_record& h = record(line);
    if (!h.unblocked()) refused("unblock of an idle line", line);
    while (h.phase == tstate::Idle && !h.waiting.empty()) process(h, h.waiting.take(m_ic));
}

std::vector<line_traffic> home::traffic() const {
    std::vector<line_traffic> out;
    for (const auto& [line, h] : m_lines) {
        line_traffic t = h.traffic;
        t.line = line;
        out.push_back(t);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.line < b.line; });
    return out;
}

std::string home::describe(std::uint64_t line) const {
    auto it = m_lines.find(line);
    if (it == m_lines.end()) return "the home has never seen it";
    const line_record& h = it->second;
    std::ostringstream os;
    const bool landed = h.kept.on && !(kernel::now() < h.kept.at);  // an Unblock kept (send_unblock) counts from its time
    os << "the home has it in " << name(h.e.state) << (h.phase == tstate::Idle || landed ? ", idle" : ", busy") << ", owner " << h.e.owner << ", "
       << h.e.sharers.size() << " sharers, " << h.waiting.size() << " requests waiting";
    return os.str();
}

}  // namespace cohsim

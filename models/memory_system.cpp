#include "models/memory_system.h"

#include "models/mem/functional_memory.h"
#include "models/mem/socket_link.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "sim/kernel.h"

namespace cohsim {

using namespace protocol;

// ---- implementation -------------------------------------------------------------

namespace {

// Same-time ordering: finish things first, then snoops, then new requests.
enum phase : std::uint64_t { ph_response = 0, ph_snoop = 1, ph_request = 2 };
constexpr std::uint64_t rank(phase p, std::uint64_t key) { return (std::uint64_t(p) << 40) | key; }

}  // namespace

struct memory_system::impl {
    using l1 = l1_cache;

    struct request_msg {
        unsigned agent;
        request r;
        std::uint64_t line;
        bool at_ic;
        duration arrived;
        bool far = false;  // a far atomic: served at the interconnect, no copy for the requester
        bool exclusive = false;  // a store-exclusive's upgrade (fails if the copy is lost meanwhile)
    };

    struct transaction {
        request_msg req;
        const home_cell* cell = nullptr;
        int owner_at_start = -1;
        bool global = false;
        bool far = false;
        int answers_left = 0;
        bool owner_dirty = false;
        duration ready;  // latest of data and answers, at the point of serialisation
        std::vector<int> cluster_left;  // global: targets still to answer, per cluster
        std::vector<duration> cluster_ready;
    };

    struct home_line {
        home_entry e;
        line_traffic traffic;
        bool busy = false;
        transaction tx;
        std::vector<request_msg> waiting;
    };

    std::vector<std::unique_ptr<cluster>> clusters;
    std::vector<std::unique_ptr<l1>> l1s;
    interconnect_params icp;
    unsigned sockets = 1;
    interconnect ic;
    dram memory;
    counter far_atomics{ic.stats(), "far_atomics", "atomics performed at the interconnect"};
    socket_link link;
    functional_memory words;
    std::unique_ptr<event_queue> q;
    std::unordered_map<std::uint64_t, home_line> home;
    transition_counts counts;
    // A cache-controller cell about to be executed, counted.
    const cache_cell& cache_cell_of(cstate s, cevent e) {
        ++counts.cache[static_cast<std::size_t>(s)][static_cast<std::size_t>(e)];
        return protocol::cache_transition(s, e);
    }
    std::vector<unsigned> socket_of;  // per cluster
    std::vector<int> dsu_of;          // per cluster, -1 for none
    std::vector<std::unique_ptr<dsu>> dsus;
    bool checking = false;
    observers obs;

    // ---- --explain ----
    static std::string op_name(const mem_request& r) {
        switch (r.kind) {
            case mem_request::load: return "LDR";
            case mem_request::load_exclusive: return "LDXR";
            case mem_request::store: return "STR";
            case mem_request::store_exclusive: return "STXR";
            case mem_request::prefetch_unique: return "PRFM PST";
            case mem_request::atomic:
                switch (r.op) {
                    case atomic_op::cas: return "CAS";
                    case atomic_op::add: return "LDADD";
                    case atomic_op::swp: return "SWP";
                    case atomic_op::set: return "LDSET";
                }
        }
        return "?";
    }
    bool explaining(std::uint64_t line) const { return obs.explain && obs.explain->wants(line); }
    void explain(std::uint64_t line, const std::string& text) {
        if (explaining(line)) obs.explain->note(kernel::now(), text);
    }
    // The home serves a request for a line (one cell of its table): counted, and explained.
    void served(std::uint64_t line, hstate before, hevent ev, const home_cell& cell, const request_msg& m) {
        ++counts.home[static_cast<std::size_t>(before)][static_cast<std::size_t>(ev)];
        if (!explaining(line)) return;
        obs.explain->served();
        const l1& c = *l1s[m.agent];
        explain(line, std::string("home (") + (m.at_ic ? "interconnect" : c.core.substr(0, c.core.find('.')) + " SCU") +
                          ") in " + protocol::name(before) + " serves " + protocol::name(ev) + " from " + c.core + ": " +
                          protocol::cell_text(cell));
    }

    // The trace's line tracks: every L1's state of a traced line, now.
    void trace_line(std::uint64_t line) {
        if (!obs.trace || !obs.trace->traces_line(line)) return;
        for (const auto& c : l1s) obs.trace->line_state(line, c->core, protocol::name(c->state_of(line)), kernel::now());
    }

    void check_line(std::uint64_t line) {
        trace_line(line);
        if (!checking) return;
        int writers = 0, readers = 0;
        for (auto& c : l1s) {
            const cstate st = c->state_of(line);
            writers += can_write(st);
            readers += can_read(st);
        }
        if (writers > 1 || (writers == 1 && readers > 1))
            protocol_error("line " + hex(line) + " has " + std::to_string(writers) + " writers and " +
                           std::to_string(readers) + " readers");
    }

    static unsigned sockets_of(const std::vector<cluster_spec>& specs) {
        unsigned n = 1;
        for (const auto& c : specs) n = std::max(n, c.socket + 1);
        return n;
    }
    static unsigned agents_of(const std::vector<cluster_spec>& specs) {
        unsigned n = 0;
        for (const auto& c : specs) n += c.cores;
        return n;
    }

    impl(const std::vector<cluster_spec>& specs, const interconnect_params& icp_, const memory_params& memp,
         const std::vector<dsu_spec>& dsu_specs)
        : icp(icp_), sockets(sockets_of(specs)), ic(icp_, sockets, agents_of(specs)),
          memory(memp, ic.clock(), sockets, ic.stats()), link(icp_.link_latency, icp_.link_bytes_per_second, ic.stats()) {
        q = std::make_unique<event_queue>("queue");
        for (const auto& d : dsu_specs)
            dsus.push_back(std::make_unique<dsu>(d.name, *d.clock, d.l3, static_cast<std::uint32_t>(line_bytes)));
        unsigned agent = 0;
        for (unsigned c = 0; c < specs.size(); ++c) {
            const cluster_spec& sp = specs[c];
            clusters.push_back(std::make_unique<cluster>(sp.name, *sp.clock, sp.params.l2, sp.params.scu,
                                                         static_cast<std::uint32_t>(line_bytes)));
            socket_of.push_back(sp.socket);
            dsu_of.push_back(sp.dsu);
            for (unsigned i = 0; i < sp.cores; ++i)
                l1s.push_back(std::make_unique<l1>(agent++, c, sp.name + "." + std::to_string(i), sp.params.l1,
                                                   sp.params.exclusive));
        }
    }

    // ---- time ----
    const clock_domain& clk(unsigned c) const { return clusters[c]->clock(); }
    duration in_cluster(unsigned c, duration t, cycles n) const { return clusters[c]->after(t, n); }
    duration to_cluster(unsigned c, duration t) const { return clusters[c]->arrive(t); }
    unsigned home_socket(std::uint64_t line) const { return ic.home_socket(line, line_bytes); }
    // Through a channel of the interconnect of `line`'s home.
    duration through(duration t, std::uint64_t line, interconnect::channel ch, cycles occ, cycles lat) {
        return ic.through(t, home_socket(line), ch, occ, lat);
    }
    // A hop between cluster `c` and the home of `line`: crosses the
    // inter-socket link when they are on different sockets.
    duration cross(duration t, unsigned c, std::uint64_t line, bool to_home, bool data) {
        const unsigned a = socket_of[c], h = home_socket(line);
        return to_home ? link.cross(t, a, h, data ? line_bytes : 16) : link.cross(t, h, a, data ? line_bytes : 16);
    }
    std::uint64_t arb_key(unsigned agent) const { return ic.arbitration_key(agent); }

    [[noreturn]] void protocol_error(const std::string& what) const {
        std::ostringstream os;
        os << "coherence protocol error at " << kernel::now().ns() << " ns: " << what;
        throw std::logic_error(os.str());
    }

    // ---- functional memory ----
    std::uint64_t read(std::uint64_t addr, unsigned size) const { return words.read(addr, size); }
    void write(std::uint64_t addr, unsigned size, std::uint64_t v) { words.write(addr, size, v); }

    // ---- core side ----
    void access(unsigned agent, const mem_request& r, std::function<void(const mem_response&)> done) {
        if (r.size != 1 && r.size != 2 && r.size != 4 && r.size != 8)
            throw std::invalid_argument("access size must be 1, 2, 4 or 8 bytes");
        if (r.addr % r.size != 0) throw std::invalid_argument("unaligned access");
        l1& c = *l1s.at(agent);
        if (c.op_for(line_of(r.addr))) throw std::logic_error("core issued a second access to a line with one outstanding");
        auto free = std::find_if(c.ops.begin(), c.ops.end(), [](const auto& o) { return !o.active; });
        if (free == c.ops.end()) throw std::logic_error("core issued more accesses than it may have outstanding");
        l1::op& o = *free;
        o.active = true;
        o.issued_at = kernel::now();
        o.req = r;
        o.done = std::move(done);
        (is_write(r) ? c.stores : c.loads) += 1;
        const duration now = kernel::now();
        if (r.kind == mem_request::store_exclusive && !c.mon.holds(r.addr)) {
            // The local monitor is open: fail without touching memory.
            c.mon.store_exclusive(r.addr);
            ++c.stxr_fail;
            if (obs.trace) obs.trace->instant(timeline_observer::group::cores, c.core + " memory", "STXR fails: no reservation", now);
            explain(line_of(r.addr), c.core + " STXR: no reservation (the local monitor is open) → fails at once");
            finish(c, o, mem_response{0, false, in_cluster(c.cluster, now, c.p.hit_latency)});
            return;
        }
        if (r.kind == mem_request::prefetch_unique && !c.p.prefetch_store) {
            finish(c, o, mem_response{0, true, in_cluster(c.cluster, now, c.p.hit_latency)});
            return;
        }
        if (r.kind == mem_request::atomic && icp.far_atomics) {
            const std::uint64_t line = line_of(r.addr);
            const cstate st = c.state_of(line);
            if (!can_write(st) && !c.wb.count(line)) {
                // Far: to the interconnect; the L1 keeps whatever it holds
                // until the home's snoops take it away.
                ++c.misses;
                request_msg m{c.agent, request::GetM, line, false,
                              in_cluster(c.cluster, in_cluster(c.cluster, now, c.p.hit_latency),
                                         clusters[c.cluster]->scu().request_latency)};
                m.far = true;
                q->at(m.arrived, rank(ph_request, arb_key(c.agent)), [this, m] { arrive(m); });
                return;
            }
        }
        switch (r.kind) {
            case mem_request::load: o.ev = cevent::Load; break;
            case mem_request::load_exclusive:
                o.ev = c.ex.load_unique ? cevent::Unique : cevent::Load;
                break;
            case mem_request::prefetch_unique: o.ev = cevent::Unique; break;
            default: o.ev = cevent::Store; break;
        }
        start(c, o, now);
    }

    // The core's access as a cache event in state `st`: an exclusive load
    // that may ask for Unique needs no upgrade once the line is readable.
    static cevent event_in(const l1::op& o, cstate st) {
        if (o.ev == cevent::Unique && o.req.kind == mem_request::load_exclusive && can_read(st)) return cevent::Load;
        return o.ev;
    }

    void finish(l1& c, l1::op& o, const mem_response& resp) {
        if (obs.trace && o.missed) obs.trace->slice(timeline_observer::group::cores, c.core + " memory", o.what, o.issued_at, resp.done);
        o.missed = false;
        o.active = false;
        auto done = std::move(o.done);
        done(resp);
    }

    void start(l1& c, l1::op& o, duration now) {
        const std::uint64_t line = line_of(o.req.addr);
        cstate st = c.state_of(line);
        const cevent ev = event_in(o, st);
        const cache_cell& cell = cache_cell_of(st, ev);
        const duration lookup = in_cluster(c.cluster, now, c.p.hit_latency);
        if (cell.kind == outcome::stall) {
            explain(line, c.core + " " + op_name(o.req) + " finds " + protocol::name(st) + ": waits for the eviction");
            return;  // retried when the line's eviction completes
        }
        if (cell.kind == outcome::impossible)
            protocol_error("L1 " + c.stats.name() + " line " + hex(line) + ": " + protocol::name(st) + " x " + protocol::name(ev));
        if (cell.actions & a_hit) {
            ++c.hits;
            if (auto* e = c.array.find(line)) {
                e->payload.st = cell.next;
                c.array.touch(*e);
            }
            check_line(line);
            const mem_response resp = perform(c, o, lookup);
            if (explaining(line))
                explain(line, c.core + " " + op_name(o.req) + " hits " + protocol::name(st) + " → " + protocol::name(cell.next) +
                                  (o.req.kind == mem_request::store_exclusive ? (resp.success ? ": success" : ": fails (reservation lost)")
                                                                              : ""));
            finish(c, o, resp);
            return;
        }
        ++c.misses;
        if (cell.actions & a_send_Upg) ++c.upgrades;
        auto* e = c.array.find(line);
        if (!e) e = &fill_way(c, line, now);
        e->payload.st = cell.next;
        const request r = (cell.actions & a_send_GetS) ? request::GetS
                          : (cell.actions & a_send_GetM) ? request::GetM
                                                         : request::Upg;
        if (explaining(line))
            explain(line, c.core + " " + op_name(o.req) + " misses in " + protocol::name(st) + " → " + protocol::name(cell.next) +
                              ", sends " + protocol::name(r));
        if (obs.trace) {
            o.missed = true;
            o.what = std::string(protocol::name(r)) + " " + hex(line);
            trace_line(line);
            if (obs.trace->traces_line(line)) o.flow = obs.trace->flow_start(timeline_observer::group::cores, c.core + " memory", lookup);
        }
        send_request(c, r, line, lookup);
    }

    cache_array<l1_line>::entry& fill_way(l1& c, std::uint64_t line, duration now) {
        auto* v = c.array.victim(line, [](const auto& e) { return is_stable(e.payload.st); });
        if (!v) protocol_error("L1 " + c.stats.name() + ": no way to evict");
        if (v->valid) {
            const cache_cell& cell = cache_cell_of(v->payload.st, cevent::Replacement);
            if (cell.kind != outcome::ok) protocol_error("cannot evict a line in " + std::string(protocol::name(v->payload.st)));
            ++c.writebacks;
            c.wb[v->line] = cell.next;
            if (c.ex.evict_clears && c.mon.line_lost(v->line, line_bytes)) lose_reservation(c, v->line);
            const request r = (cell.actions & a_send_PutS)   ? request::PutS
                              : (cell.actions & a_send_PutE) ? request::PutE
                              : (cell.actions & a_send_PutO) ? request::PutO
                                                             : request::PutM;
            send_request(c, r, v->line, now);
            const std::uint64_t victim = v->line;
            c.array.invalidate(*v);
            trace_line(victim);
        }
        return c.array.install(*v, line);
    }

    void lose_reservation(l1& c, std::uint64_t line) {
        if (explaining(line))
            explain(line, "  " + c.core + "'s reservation is cleared → event" +
                              (c.port && c.port->asleep() ? " → " + c.core + " wakes from WFE" : " (it is not asleep)"));
        if (obs.trace) obs.trace->instant(timeline_observer::group::cores, c.core + " memory", "reservation lost", kernel::now());
        ++c.reservation_losses;
        if (c.port) c.port->monitor_cleared();
    }

    // The access performs now in the L1: read or write the functional memory.
    mem_response perform(l1& c, const l1::op& o, duration done_at) {
        const mem_request& r = o.req;
        mem_response out;
        out.done = done_at;
        switch (r.kind) {
            case mem_request::load: out.value = read(r.addr, r.size); break;
            case mem_request::load_exclusive:
                out.value = read(r.addr, r.size);
                c.mon.load_exclusive(r.addr);
                c.armed_at = kernel::now();
                break;
            case mem_request::prefetch_unique: break;
            case mem_request::store:
                write(r.addr, r.size, r.value);
                others_wrote(c, r.addr);
                break;
            case mem_request::store_exclusive:
                out.success = c.mon.store_exclusive(r.addr);
                if (out.success) {
                    ++c.stxr_success;
                    write(r.addr, r.size, r.value);
                    others_wrote(c, r.addr);
                } else {
                    ++c.stxr_fail;
                    if (obs.trace) obs.trace->instant(timeline_observer::group::cores, c.core + " memory", "STXR fails: reservation lost", done_at);
                }
                break;
            case mem_request::atomic: {
                const std::uint64_t old = read(r.addr, r.size);
                out.value = old;
                std::uint64_t v = old;
                bool wr = true;
                switch (r.op) {
                    case atomic_op::add: v = old + r.value; break;
                    case atomic_op::swp: v = r.value; break;
                    case atomic_op::set: v = old | r.value; break;
                    case atomic_op::cas:
                        wr = old == r.compare, v = r.value;
                        ++(wr ? c.cas_success : c.cas_fail);
                        break;
                }
                if (wr) {
                    write(r.addr, r.size, v);
                    others_wrote(c, r.addr);
                }
                break;
            }
        }
        return out;
    }

    void others_wrote(l1& writer, std::uint64_t addr) {
        for (auto& o : l1s)
            if (o.get() != &writer && o->mon.other_write(addr)) lose_reservation(*o, line_of(addr));
    }

    // ---- requests to the home ----
    void send_request(l1& c, request r, std::uint64_t line, duration t) {
        request_msg m{c.agent, r, line, false, in_cluster(c.cluster, t, clusters[c.cluster]->scu().request_latency)};
        const l1::op* o = c.op_for(line);
        m.exclusive = r == request::Upg && o && o->req.kind == mem_request::store_exclusive;
        q->at(m.arrived, rank(ph_request, arb_key(c.agent)), [this, m] { arrive(m); });
    }

    void arrive(request_msg m) {
        m.arrived = kernel::now();
        home_line& h = home[m.line];
        if (h.busy) {
            h.waiting.push_back(m);
            return;
        }
        process(h, m);
    }

    unsigned cluster_of(int agent) const { return l1s[static_cast<unsigned>(agent)]->cluster; }

    std::vector<int> targets(const home_line& h, const home_cell& cell, unsigned requester) const {
        std::vector<int> t;
        if (cell.to_owner != snoop::none && h.e.owner >= 0 && h.e.owner != static_cast<int>(requester))
            t.push_back(h.e.owner);
        if (cell.to_sharers != snoop::none)
            for (int s : h.e.sharers)
                if (s != static_cast<int>(requester)) t.push_back(s);
        return t;
    }

    // Clusters k and j are one coherence domain: the same cluster, or under one DSU.
    bool same_domain(unsigned j, unsigned k) const { return j == k || (dsu_of[j] >= 0 && dsu_of[j] == dsu_of[k]); }
    dsu* dsu_for(unsigned k) const { return dsu_of[k] >= 0 ? dsus[static_cast<unsigned>(dsu_of[k])].get() : nullptr; }

    // A shared cache outside k's domain holds the line (stale once k writes).
    bool cached_outside(std::uint64_t line, unsigned k) {
        for (unsigned j = 0; j < clusters.size(); ++j)
            if (!same_domain(j, k) && clusters[j]->l2_holds(line)) return true;
        for (unsigned d = 0; d < dsus.size(); ++d)
            if (static_cast<int>(d) != dsu_of[k] && dsus[d]->l3_holds(line)) return true;
        return false;
    }

    // k writes the line: every other shared cache's copy is stale.
    void drop_stale(std::uint64_t line, unsigned k) {
        for (unsigned j = 0; j < clusters.size(); ++j)
            if (j != k)
                clusters[j]->l2_drop(line);
        for (unsigned d = 0; d < dsus.size(); ++d)
            if (static_cast<int>(d) != dsu_of[k])
                dsus[d]->l3_drop(line);
    }

    // Forwards a request from its SCU to the interconnect.
    void to_interconnect(const request_msg& m, unsigned k, duration now) {
        request_msg fwd = m;
        fwd.at_ic = true;
        const duration at = through(cross(now, k, m.line, true, false), m.line, interconnect::channel::request, icp.request_occupancy,
                                    icp.request_latency);
        q->at(at, rank(ph_request, arb_key(m.agent)), [this, fwd] { arrive(fwd); });
    }

    void process(home_line& h, const request_msg& m) {
        const duration now = kernel::now();
        const unsigned k = l1s[m.agent]->cluster;
        // A far atomic snoops every copy, the requester's own included.
        const hevent ev = m.far ? hevent::GetM : h.e.classify(m.r, static_cast<int>(m.agent), m.exclusive);
        const home_cell& cell = home_transition(h.e.state, ev);
        if (cell.kind != outcome::ok)
            protocol_error("home " + hex(m.line) + " in " + protocol::name(h.e.state) + ": " + protocol::name(ev) + " from core " +
                           std::to_string(m.agent));
        cluster& cl = *clusters[k];
        if (m.r >= request::PutS) {
            ++h.traffic.puts;
            served(m.line, h.e.state, ev, cell, m);
            h.e.apply(cell, static_cast<int>(m.agent), false);
            fill_shared(k, m.line);
            const unsigned agent = m.agent;
            const std::uint64_t line = m.line;
            q->at(in_cluster(k, now, cl.scu().snoop_latency), rank(ph_response, agent),
                  [this, agent, line] { put_ack(*l1s[agent], line); });
            return;
        }
        if (cell.grant_clean == grant::Excl_Fail) {
            ++h.traffic.exclusive_fails;
            served(m.line, h.e.state, ev, cell, m);
            // No transaction: the answer goes straight back (no data).
            const unsigned agent = m.agent;
            const std::uint64_t line = m.line;
            duration at = now;
            if (m.at_ic)
                at = to_cluster(k, cross(through(now, line, interconnect::channel::data, cycles{1}, icp.data_latency), k, line, false, false));
            q->at(in_cluster(k, at, cl.scu().snoop_latency), rank(ph_response, agent),
                  [this, agent, line] { exclusive_failed(*l1s[agent], line); });
            return;
        }
        const auto t = targets(h, cell, m.far ? ~0u : m.agent);
        dsu* d = dsu_for(k);
        const bool in_l2 = cl.l2_holds(m.line);
        const bool in_l3 = d && d->l3_holds(m.line);
        if (!m.at_ic) {
            bool local = !m.far && std::all_of(t.begin(), t.end(), [&](int a) { return same_domain(cluster_of(a), k); });
            if (cell.mem_read) local = local && (in_l2 || in_l3);
            if (m.r != request::GetS) local = local && !cached_outside(m.line, k);
            if (!local) return to_interconnect(m, k, now);
        }
        // The line is ours until the requester's Unblock.
        h.busy = true;
        served(m.line, h.e.state, ev, cell, m);
        ++(m.r == request::GetS ? h.traffic.gets : m.r == request::GetM ? h.traffic.getm : h.traffic.upgrades);
        if (socket_of[k] != home_socket(m.line)) ++h.traffic.cross_socket;
        transaction& tx = h.tx;
        tx = transaction{};
        tx.req = m;
        tx.cell = &cell;
        tx.owner_at_start = h.e.owner;
        tx.global = m.at_ic;
        tx.far = m.far;
        tx.ready = now;
        ic.served(m.agent);
        const std::uint64_t line = m.line;
        if (m.r != request::GetS) drop_stale(line, k);
        if (!tx.global) {
            ++cl.local_transactions;
            if (cell.mem_read) {
                if (in_l2) {
                    ++cl.l2_hits;
                    tx.ready = in_cluster(k, now, cl.l2_latency());
                } else {
                    ++d->l3_hits;
                    tx.ready = d->l3_data(now);
                }
            }
            tx.answers_left = static_cast<int>(t.size());
            for (int a : t) {
                const snoop s = a == h.e.owner ? cell.to_owner : cell.to_sharers;
                const unsigned j = cluster_of(a);  // the target's own SCU hop, in its own clock
                q->at(in_cluster(j, now, clusters[j]->scu().snoop_latency), rank(ph_snoop, a),
                      [this, a, s, line] { snoop_at_l1(*l1s[a], s, line); });
            }
        } else {
            ++ic.requests;
            ++(m.r == request::GetS ? ic.requests_gets : m.r == request::GetM ? ic.requests_getm : ic.requests_upgrade);
            tx.cluster_left.assign(clusters.size(), 0);
            tx.cluster_ready.assign(clusters.size(), duration{});
            std::vector<bool> snooped(clusters.size(), false);
            for (int a : t) ++tx.cluster_left[cluster_of(a)], snooped[cluster_of(a)] = true;
            if (!icp.snoop_filter)
                for (unsigned j = 0; j < clusters.size(); ++j)
                    if (j != k || m.far) snooped[j] = true;
            if (cell.mem_read) {
                tx.ready = memory_data(m.line, k, now);
            }
            for (unsigned j = 0; j < clusters.size(); ++j) {
                if (!snooped[j]) continue;
                ++tx.answers_left;
                ++ic.snoops;
                const duration at =
                    to_cluster(j, cross(through(now, line, interconnect::channel::snoop, cycles{1}, icp.snoop_latency), j, line, false, false));
                if (tx.cluster_left[j] == 0) {
                    // Nothing to see here: the SCU answers from its duplicate tags.
                    ++clusters[j]->interconnect_snoops;
                    const duration back =
                        ic.through(cross(in_cluster(j, at, clusters[j]->scu().snoop_miss_latency), j, line, true, false),
                                   icp.response_latency);
                    q->at(back, rank(ph_response, j), [this, line] { answer_at_home(line, -1, false, false); });
                    continue;
                }
                ++clusters[j]->interconnect_snoops;
                for (int a : t) {
                    if (cluster_of(a) != j) continue;
                    const snoop s = a == h.e.owner ? cell.to_owner : cell.to_sharers;
                    q->at(in_cluster(j, at, clusters[j]->scu().snoop_latency), rank(ph_snoop, a),
                          [this, a, s, line] { snoop_at_l1(*l1s[a], s, line); });
                }
            }
        }
        if (tx.answers_left == 0) grant_now(h);
    }

    // When a line that no cache owns reaches the interconnect: from another
    // cluster's L2 if one holds it, else from memory.
    duration memory_data(std::uint64_t line, unsigned k, duration now) {
        for (unsigned j = 0; j < clusters.size(); ++j) {
            if (j == k || !clusters[j]->l2_holds(line)) continue;
            ++clusters[j]->l2_hits;
            ++ic.transfers;
            ++home[line].traffic.cross_cluster;
            const duration at =
                to_cluster(j, cross(through(now, line, interconnect::channel::snoop, cycles{1}, icp.snoop_latency), j, line, false, false));
            return through(cross(in_cluster(j, at, clusters[j]->l2_latency()), j, line, true, true), line, interconnect::channel::data,
                           icp.data_occupancy, icp.response_latency);
        }
        return memory.read_line(home_socket(line), now, line_bytes);
    }

    // The cluster's L2, and its DSU's L3, now hold the line.
    void fill_shared(unsigned k, std::uint64_t line) {
        clusters[k]->l2_fill(line);
        if (dsu* d = dsu_for(k)) d->l3_fill(line);
    }

    // ---- the L1 side of snoops and grants ----
    void snoop_at_l1(l1& c, snoop s, std::uint64_t line) {
        // A core holding a fresh reservation on this line keeps it a little
        // longer: the snoop waits until the hold window closes.
        const cycles hold = c.ex.hold_window;
        if (hold.n > 0 && c.mon.overlaps(line, line_bytes)) {
            const duration until = clk(c.cluster).edge_after(c.armed_at, hold);
            if (kernel::now() < until) {
                ++c.held_snoops;
                q->at(until, rank(ph_snoop, c.agent), [this, &c, s, line] { snoop_now(c, s, line); });
                return;
            }
        }
        snoop_now(c, s, line);
    }

    void snoop_now(l1& c, snoop s, std::uint64_t line) {
        if (obs.trace)
            obs.trace->instant(timeline_observer::group::cores, c.core + " memory",
                             std::string("snoop ") + protocol::name(s) + " " + hex(line), kernel::now());
        ++c.snoops;
        ++home[line].traffic.snoops;
        ++(s == snoop::Fwd_GetS ? c.snoops_fwd_gets : s == snoop::Fwd_GetM ? c.snoops_fwd_getm : c.snoops_inv);
        const cevent ev = as_event(s);
        const cstate st = c.state_of(line);
        const cache_cell& cell = cache_cell_of(st, ev);
        if (cell.kind != outcome::ok)
            protocol_error("L1 " + c.stats.name() + " line " + hex(line) + ": " + protocol::name(st) + " x " + protocol::name(ev));
        explain(line, c.core + " receives " + protocol::name(s) + " in " + protocol::name(st) + " → " + protocol::name(cell.next) +
                          (cell.actions & (a_snp_clean | a_snp_dirty) ? ", supplies the data" : ""));
        if (auto* e = c.array.find(line)) {
            if (cell.next == cstate::I)
                c.array.invalidate(*e);
            else
                e->payload.st = cell.next;
        } else if (c.wb.count(line)) {
            c.wb[line] = cell.next;
        }
        check_line(line);
        if (cell.actions & a_drop) {
            ++c.lines_lost;
            if (c.mon.line_lost(line, line_bytes)) lose_reservation(c, line);
        }
        const bool data = cell.actions & (a_snp_clean | a_snp_dirty);
        const bool dirty = cell.actions & a_snp_dirty;
        home_line& h = home[line];
        const unsigned k = c.cluster;
        const duration at_scu = in_cluster(k, kernel::now(), clusters[k]->scu().request_latency);
        const int agent = static_cast<int>(c.agent);
        if (!h.tx.global) {
            q->at(at_scu, rank(ph_response, c.agent),
                  [this, line, agent, data, dirty] { answer_at_home(line, agent, data, dirty); });
            return;
        }
        // Global: the cluster answers once all its snooped L1s have.
        transaction& tx = h.tx;
        if (tx.cluster_ready[k] < at_scu) tx.cluster_ready[k] = at_scu;
        if (agent == tx.owner_at_start) tx.owner_dirty = dirty, owner_answered(tx, data);
        if (--tx.cluster_left[k] > 0) return;
        const duration leave = cross(tx.cluster_ready[k], k, line, true, data);
        const duration back = data ? through(leave, line, interconnect::channel::data, icp.data_occupancy, icp.response_latency)
                                   : ic.through(leave, icp.response_latency);
        q->at(back, rank(ph_response, k), [this, line] { answer_at_home(line, -1, false, false); });
    }

    void owner_answered(transaction& tx, bool data) {
        if (data && cluster_of(tx.owner_at_start) != l1s[tx.req.agent]->cluster)
            ++ic.transfers, ++home[tx.req.line].traffic.cross_cluster;
    }

    // A snoop answer reaches the point of serialisation.
    void answer_at_home(std::uint64_t line, int agent, bool data, bool dirty) {
        home_line& h = home[line];
        transaction& tx = h.tx;
        if (!h.busy || tx.answers_left <= 0) protocol_error("unexpected snoop answer for line " + hex(line));
        if (agent >= 0 && agent == tx.owner_at_start) {
            if (!data) protocol_error("owner answered without data for line " + hex(line));
            tx.owner_dirty = dirty;
        }
        if (tx.ready < kernel::now()) tx.ready = kernel::now();
        if (--tx.answers_left == 0) grant_now(h);
    }

    void grant_now(home_line& h) {
        transaction& tx = h.tx;
        if (tx.far) return far_result(h);
        const grant g = tx.owner_dirty ? tx.cell->grant_dirty : tx.cell->grant_clean;
        h.e.apply(*tx.cell, static_cast<int>(tx.req.agent), tx.owner_dirty);
        const unsigned agent = tx.req.agent, k = l1s[agent]->cluster;
        const std::uint64_t line = tx.req.line;
        const bool data = g == grant::Data_S || g == grant::Data_E || g == grant::Data_M;
        duration at;
        if (tx.global) {
            const duration at_scu = to_cluster(
                k, cross(through(tx.ready, line, interconnect::channel::data, data ? icp.data_occupancy : cycles{1}, icp.data_latency), k, line,
                         false, data));
            at = in_cluster(k, at_scu, clusters[k]->scu().snoop_latency);
            fill_shared(k, line);
        } else {
            at = in_cluster(k, tx.ready, clusters[k]->scu().snoop_latency);
        }
        q->at(at, rank(ph_response, agent), [this, agent, g, line] { grant_at_l1(*l1s[agent], g, line); });
    }

    // A far atomic: every copy is gone; the home performs the operation and
    // returns the old value; nobody caches the line now.
    void far_result(home_line& h) {
        transaction& tx = h.tx;
        ++far_atomics;
        h.e = home_entry{};
        l1& c = *l1s[tx.req.agent];
        const unsigned k = c.cluster;
        const std::uint64_t line = tx.req.line;
        const duration at_scu = to_cluster(
            k, cross(through(tx.ready, line, interconnect::channel::data, cycles{1}, icp.data_latency), k, line, false, false));
        const duration at = in_cluster(k, at_scu, clusters[k]->scu().snoop_latency);
        l1::op& o = *c.op_for(line);
        const mem_response resp = perform(c, o, at);
        q->at(at, rank(ph_response, c.agent), [this, &c, line, resp] { finish(c, *c.op_for(line), resp); });
        unblock(line);
    }

    void grant_at_l1(l1& c, grant g, std::uint64_t line) {
        const cevent ev = as_event(g);
        const cstate st = c.state_of(line);
        const cache_cell& cell = cache_cell_of(st, ev);
        explain(line, c.core + " receives " + protocol::name(g) + " in " + protocol::name(st) + " → " + protocol::name(cell.next));
        if (cell.kind != outcome::ok)
            protocol_error("L1 " + c.stats.name() + " line " + hex(line) + ": " + protocol::name(st) + " x " + protocol::name(ev));
        auto* e = c.array.find(line);
        if (!e) protocol_error("grant for a line not in the L1");
        e->payload.st = cell.next;
        c.array.touch(*e);
        // Unblock the home.
        const unsigned k = c.cluster;
        const bool global = home[line].tx.global;
        duration at = in_cluster(k, kernel::now(), clusters[k]->scu().request_latency);
        if (global) at = ic.through(cross(at, k, line, true, false), icp.response_latency);
        q->at(at, rank(ph_response, c.agent), [this, line] { unblock(line); });
        // The core's access now performs.
        l1::op& o = *c.op_for(line);
        const cevent replay = event_in(o, cell.next);
        const bool was_explaining = explaining(line);
        const cache_cell& again = cache_cell_of(cell.next, replay);
        if (again.kind != outcome::ok || !(again.actions & a_hit))
            protocol_error("replayed access does not hit in " + std::string(protocol::name(cell.next)));
        e->payload.st = again.next;
        check_line(line);
        if (obs.trace && o.flow) obs.trace->flow_end(timeline_observer::group::lines, hex(line) + " " + c.core, kernel::now(), o.flow);
        o.flow = 0;
        const std::string op = op_name(o.req);
        const bool stxr = o.req.kind == mem_request::store_exclusive;
        const mem_response resp = perform(c, o, kernel::now());
        if (was_explaining)
            explain(line, "  " + c.core + " " + op + " completes in " + protocol::name(again.next) +
                              (stxr ? (resp.success ? ": success" : ": fails (reservation lost)") : ""));
        finish(c, o, resp);
    }

    // The home failed this core's store-exclusive upgrade.
    void exclusive_failed(l1& c, std::uint64_t line) {
        explain(line, c.core + " receives Excl_Fail in " + std::string(protocol::name(c.state_of(line))) + " → I: STXR fails");
        const cache_cell& cell = cache_cell_of(c.state_of(line), cevent::Excl_Fail);
        if (cell.kind != outcome::ok) protocol_error("Excl_Fail in " + std::string(protocol::name(c.state_of(line))));
        if (auto* e = c.array.find(line)) c.array.invalidate(*e);
        check_line(line);
        l1::op& o = *c.op_for(line);
        c.mon.store_exclusive(o.req.addr);  // an STXR always leaves the local monitor open
        ++c.stxr_fail;
        ++c.stxr_fail_at_home;
        if (obs.trace) {
            obs.trace->instant(timeline_observer::group::cores, c.core + " memory", "STXR fails at the home", kernel::now());
            if (o.flow) obs.trace->flow_end(timeline_observer::group::lines, hex(line) + " " + c.core, kernel::now(), o.flow);
            o.flow = 0;
        }
        finish(c, o, mem_response{0, false, kernel::now()});
    }

    void put_ack(l1& c, std::uint64_t line) {
        const cstate st = c.state_of(line);
        const cache_cell& cell = cache_cell_of(st, cevent::Put_Ack);
        if (cell.kind != outcome::ok) protocol_error("Put_Ack in " + std::string(protocol::name(st)));
        c.wb.erase(line);
        trace_line(line);
        if (auto* o = c.op_for(line)) start(c, *o, kernel::now());  // it was waiting for this eviction
    }

    void unblock(std::uint64_t line) {
        home_line& h = home[line];
        if (!h.busy) protocol_error("unblock of an idle line " + hex(line));
        h.busy = false;
        while (!h.busy && !h.waiting.empty()) {
            auto best = h.waiting.begin();
            for (auto it = h.waiting.begin(); it != h.waiting.end(); ++it) {
                if (ic.before(it->agent, it->arrived, best->agent, best->arrived)) best = it;
            }
            const request_msg m = *best;
            h.waiting.erase(best);
            process(h, m);
        }
    }
};

memory_system::memory_system(const sc_core::sc_module_name& name, const std::vector<cluster_spec>& clusters,
                             const interconnect_params& ic, const memory_params& mem, const std::vector<dsu_spec>& dsus)
    : sc_module(name), m(std::make_unique<impl>(clusters, ic, mem, dsus)) {}

memory_system::~memory_system() = default;

void memory_system::attach(unsigned agent, core_port* port) { m->l1s.at(agent)->port = port; }

void memory_system::check_invariants(bool on) { m->checking = on; }

void memory_system::observe(const observers& o) { m->obs = o; }

const memory_system::transition_counts& memory_system::transitions() const { return m->counts; }

std::vector<memory_system::line_traffic> memory_system::traffic() const {
    std::vector<line_traffic> out;
    for (const auto& [line, h] : m->home) {
        line_traffic t = h.traffic;
        t.line = line;
        out.push_back(t);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.line < b.line; });
    return out;
}

std::string memory_system::stuck_access(duration older_than) const {
    const duration now = kernel::now();
    for (const auto& c : m->l1s)
        for (const auto& o : c->ops) {
            if (!o.active || now.fs - o.issued_at.fs < older_than.fs) continue;
            const std::uint64_t line = line_of(o.req.addr);
            std::ostringstream os;
            os << "core " << c->stats.name().substr(0, c->stats.name().size() - 3) << " has waited "
               << to_string(duration{now.fs - o.issued_at.fs}) << " for line " << hex(line)
               << ": its L1 holds it in " << protocol::name(c->state_of(line));
            auto it = m->home.find(line);
            if (it != m->home.end()) {
                const auto& h = it->second;
                os << "; the home has it in " << protocol::name(h.e.state) << (h.busy ? ", busy" : ", idle") << ", owner "
                   << h.e.owner << ", " << h.e.sharers.size() << " sharers, " << h.waiting.size() << " requests waiting";
            } else {
                os << "; the home has never seen it";
            }
            return os.str();
        }
    return {};
}

void memory_system::access(unsigned agent, const mem_request& r, std::function<void(const mem_response&)> done) {
    m->access(agent, r, std::move(done));
}

cycles memory_system::l1_hit_latency(unsigned agent) const { return m->l1s.at(agent)->p.hit_latency; }

std::uint64_t memory_system::peek(std::uint64_t addr, unsigned size) const { return m->read(addr, size); }
void memory_system::poke(std::uint64_t addr, unsigned size, std::uint64_t value) { m->write(addr, size, value); }

protocol::cstate memory_system::l1_state(unsigned agent, std::uint64_t addr) const {
    return m->l1s.at(agent)->state_of(line_of(addr));
}

void memory_system::clear_exclusive(unsigned agent) { m->l1s.at(agent)->mon.clrex(); }

bool memory_system::reservation_held(unsigned agent, std::uint64_t addr) const {
    return m->l1s.at(agent)->mon.holds(addr);
}

std::vector<const stat_group*> memory_system::stat_groups() const {
    std::vector<const stat_group*> out;
    for (const auto& c : m->l1s) out.push_back(&c->stats);
    for (const auto& c : m->clusters) out.push_back(&c->stats());
    for (const auto& d : m->dsus) out.push_back(&d->stats());
    out.push_back(&m->ic.stats());
    return out;
}

}  // namespace cohsim

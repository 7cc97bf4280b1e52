#include "models/mem/l1_controller.h"

#include <algorithm>
#include <stdexcept>

#include "models/mem/delivery.h"
#include "models/mem/functional_memory.h"
#include "sim/kernel.h"

namespace cohsim {

using namespace protocol;

namespace {
constexpr auto cores_group = timeline_observer::group::cores;
// A 16-byte access of the kinds that have one: LDXP, STXP, CASP.
bool is_pair(const mem_request& r) {
    return r.size == 16 && (r.kind == mem_request::load_exclusive || r.kind == mem_request::store_exclusive ||
                            (r.kind == mem_request::atomic && r.op == atomic_op::cas));
}
// `v` as an access of `size` bytes sees it: unsigned, and sign-extended.
std::uint64_t sized(std::uint64_t v, unsigned size) { return size >= 8 ? v : v & ((std::uint64_t{1} << (8 * size)) - 1); }
std::int64_t signed_of(std::uint64_t v, unsigned size) {
    if (size >= 8) return static_cast<std::int64_t>(v);
    const unsigned shift = 64 - 8 * size;
    return static_cast<std::int64_t>(v << shift) >> shift;
}
}

void l1_controller::l1_error(std::uint64_t line, cstate st, cevent ev) const {
    m_f.protocol_error("L1 " + m_c.stats.name() + " line " + hex(line) + ": " + name(st) + " x " + name(ev));
}

void l1_controller::access(const mem_request& r, const access_done& done) {
    const bool whole_line = r.kind == mem_request::zero_line;
    if (r.size != 1 && r.size != 2 && r.size != 4 && r.size != 8 ? !(whole_line && r.size == line_bytes) && !is_pair(r) : whole_line)
        throw std::invalid_argument("access size must be 1, 2, 4 or 8 bytes (16: an exclusive pair or CASP; a line: DC ZVA alone)");
    if (r.addr % r.size != 0) throw std::invalid_argument("unaligned access");
    l1_cache& c = m_c;
    if (c.op_for(line_of(r.addr))) throw std::logic_error("core issued a second access to a line with one outstanding");
    auto free = std::find_if(c.ops.begin(), c.ops.end(), [](const auto& o) { return !o.active; });
    if (free == c.ops.end()) throw std::logic_error("core issued more accesses than it may have outstanding");
    op& o = *free;
    o.active = true;
    ++c.active_ops;
    o.issued_at = kernel::now();
    o.req = r;
    o.done = done;
    (is_write(r) ? c.stores : c.loads) += 1;
    const duration now = kernel::now();
    const delivery& net = *m_f.net;
    if (r.kind == mem_request::store_exclusive && !c.mon.holds(r.addr)) {
        // The local monitor is open: fail without touching memory.
        c.mon.store_exclusive(r.addr);
        ++c.stxr_fail;
        if (m_f.obs.trace) m_f.obs.trace->instant(cores_group, c.core + " memory", "STXR fails: no reservation", now);
        if (m_f.explaining(line_of(r.addr)))
            m_f.explain(line_of(r.addr), c.core + " STXR: no reservation (the local monitor is open) → fails at once");
        finish(o, mem_response{0, false, net.in_cluster(c.cluster, now, c.p.hit_latency)});
        return;
    }
    if (r.kind == mem_request::prefetch_unique && !c.p.prefetch_store) {
        finish(o, mem_response{0, true, net.in_cluster(c.cluster, now, c.p.hit_latency)});
        return;
    }
    if (r.kind == mem_request::atomic && m_f.far_atomics[c.cluster]) {
        const std::uint64_t line = line_of(r.addr);
        const cstate st = c.state_of(line);
        if (!can_write(st) && !c.wb.count(line)) {
            // Far: to the home (the DSU's L3 or the interconnect); the L1 keeps whatever it holds
            // until the home's snoops take it away.
            ++c.misses;
            request_msg m{c.agent, request::GetM, line, false,
                          net.l1_to_scu(c.cluster, now, c.p.hit_latency)};
            m.far = true;
            home_port* h = m_f.point;
            m_f.q->at(m.arrived, rank(phase::request, h->arbitration_key(c.agent)), [h, m] { h->arrive(m); });
            return;
        }
    }
    switch (r.kind) {
        case mem_request::load: o.ev = cevent::Load; break;
        case mem_request::load_exclusive: o.ev = c.ex.load_unique ? cevent::Unique : cevent::Load; break;
        case mem_request::prefetch_unique: o.ev = cevent::Unique; break;
        case mem_request::zero_line: o.ev = cevent::Zero; break;
        default: o.ev = cevent::Store; break;
    }
    start(o, now);
}

// An exclusive load that may ask for Unique needs no upgrade once the line is readable.
cevent l1_controller::event_in(const op& o, cstate st) {
    if (o.ev == cevent::Unique && o.req.kind == mem_request::load_exclusive && can_read(st)) return cevent::Load;
    return o.ev;
}

void l1_controller::finish(op& o, const mem_response& resp) {
    if (m_f.obs.trace && o.missed) m_f.obs.trace->slice(cores_group, m_c.core + " memory", o.what, o.issued_at, resp.done);
    o.missed = false;
    o.active = false;
    --m_c.active_ops;
    access_done done = o.done;
    done(resp);
}

void l1_controller::start(op& o, duration now) {
    l1_cache& c = m_c;
    const std::uint64_t line = line_of(o.req.addr);
    auto* const way = c.array.find(line);  // the line's way, looked up once (nothing below moves it before it is used)
    const cstate st = way ? way->payload.st : c.evicting_state(line);
    if (!way && st == cstate::I && !c.array.victim(line, [](const auto& e) { return is_stable(e.payload.st); })) {
        // Every way of the set waits for its own miss: wait for one to complete.
        if (!o.waiting_for_way) {
            o.waiting_for_way = true;
            ++c.way_stalls;
            if (m_f.explaining(line))
                m_f.explain(line,
                        c.core + " " + op_name(o.req) + ": every way of its set is in transition: waits for one");
        }
        c.way_waiters.push_back(&o);
        return;
    }
    o.waiting_for_way = false;
    const cevent ev = event_in(o, st);
    const cache_cell& cell = m_f.cache_cell(st, ev);
    if (cell.kind == outcome::stall) {
        if (m_f.explaining(line))
            m_f.explain(line, c.core + " " + op_name(o.req) + " finds " + name(st) + ": waits for the eviction");
        return;  // retried when the line's eviction completes
    }
    if (cell.kind == outcome::impossible) l1_error(line, st, ev);
    // The core's access: it hits (and performs), or it misses and asks the home.
    struct core_access : cache_actions {
        l1_controller& self;
        op& o;
        const cache_cell& cell;
        cstate st;
        cache_array<l1_line>::entry* way;  // null: the line has none yet
        std::uint64_t line;
        duration now;
        // The lookup's end: hit_latency cycles on.
        duration lookup() const { return self.m_f.net->in_cluster(self.m_c.cluster, now, self.m_c.p.hit_latency); }
        void hit() {
            l1_cache& c = self.m_c;
            fabric& f = self.m_f;
            ++c.hits;
            if (way) {
                way->payload.st = cell.next;
                c.array.touch(*way);
            }
            f.check_line(line);
            const mem_response resp = self.perform(o, lookup());
            if (f.explaining(line))
                f.explain(line, c.core + " " + op_name(o.req) + " hits " + name(st) + " → " + name(cell.next) +
                                    (o.req.kind == mem_request::store_exclusive
                                         ? (resp.success ? ": success" : ": fails (reservation lost)")
                                         : ""));
            self.finish(o, resp);
        }
        void send(request r) {
            l1_cache& c = self.m_c;
            fabric& f = self.m_f;
            ++c.misses;
            if (r == request::Upg) ++c.upgrades;
            auto* e = way ? way : &self.fill_way(line, now);
            e->payload.st = cell.next;
            if (f.explaining(line))
                f.explain(line, c.core + " " + op_name(o.req) + " misses in " + name(st) + " → " + name(cell.next) +
                                    ", sends " + name(r));
            if (f.obs.trace) {
                o.missed = true;
                o.what = std::string(name(r)) + " " + hex(line);
                f.trace_line(line);
                if (f.obs.trace->traces_line(line)) o.flow = f.obs.trace->flow_start(cores_group, c.core + " memory", lookup());
            }
            self.send_request(r, line, now, c.p.hit_latency);  // after the lookup
        }
    };
    execute(cell, core_access{{}, *this, o, cell, st, way, line, now});
}

cache_array<l1_line>::entry& l1_controller::fill_way(std::uint64_t line, duration now) {
    l1_cache& c = m_c;
    auto* v = c.array.victim(line, [](const auto& e) { return is_stable(e.payload.st); });
    if (!v) m_f.protocol_error("L1 " + c.stats.name() + ": no way to evict");
    if (v->valid) {
        const cache_cell& cell = m_f.cache_cell(v->payload.st, cevent::Replacement);
        if (cell.kind != outcome::ok) m_f.protocol_error("cannot evict a line in " + std::string(name(v->payload.st)));
        // The victim waits in the writeback buffer for its Put_Ack.
        struct eviction : cache_actions {
            l1_controller& self;
            std::uint64_t victim;
            cstate next;
            duration now;
            void send(request r) {
                l1_cache& c = self.m_c;
                ++c.writebacks;
                c.wb[victim] = next;
                if (c.ex.evict_clears && c.mon.line_lost(victim, line_bytes)) self.lose_reservation(victim);
                self.send_request(r, victim, now);
            }
        };
        execute(cell, eviction{{}, *this, v->line, cell.next, now});
        const std::uint64_t victim = v->line;
        c.array.invalidate(*v);
        m_f.trace_line(victim);
    }
    return c.array.install(*v, line);
}

void l1_controller::lose_reservation(std::uint64_t line) {
    l1_cache& c = m_c;
    if (m_f.explaining(line))
        m_f.explain(line, "  " + c.core + "'s reservation is cleared → event" +
                              (c.port && c.port->asleep() ? " → " + c.core + " wakes from WFE" : " (it is not asleep)"));
    if (m_f.obs.trace) m_f.obs.trace->instant(cores_group, c.core + " memory", "reservation lost", kernel::now());
    ++c.reservation_losses;
    if (c.port) c.port->monitor_cleared();
}

// The access performs now in the L1: read or write the functional memory.
mem_response l1_controller::perform(const op& o, duration done_at) {
    l1_cache& c = m_c;
    functional_memory& mem = *m_f.data;
    const mem_request& r = o.req;
    // Another core's write clears every other reservation of the granule
    // (of every granule of the line, for DC ZVA).
    const std::uint64_t written = r.kind == mem_request::zero_line ? line_bytes : 1;
    auto wrote = [&] {
        if (m_f.armed_monitors <= (c.mon.armed() ? 1u : 0u)) return;  // no other monitor to clear
        for (l1_cache* other : m_f.states)
            if (other != &c && other->mon.other_write(r.addr, written)) m_f.l1s[other->agent]->reservation_lost(line_of(r.addr));
    };
    mem_response out;
    out.done = done_at;
    // A 16-byte pair: the low half here, the high half at addr + 8, in the same line.
    const bool pair = r.size == 16;
    const unsigned size = pair ? 8 : r.size;
    auto read_hi = [&] {
        if (pair) out.value_hi = mem.read(r.addr + 8, 8);
    };
    auto write_hi = [&](std::uint64_t v) {
        if (pair) mem.write(r.addr + 8, 8, v);
    };
    switch (r.kind) {
        case mem_request::load: out.value = mem.read(r.addr, size), read_hi(); break;
        case mem_request::load_exclusive:
            out.value = mem.read(r.addr, size), read_hi();
            c.mon.load_exclusive(r.addr);
            c.armed_at = kernel::now();
            break;
        case mem_request::prefetch_unique: break;
        case mem_request::zero_line:
            for (std::uint64_t a = r.addr; a < r.addr + line_bytes; a += 8) mem.write(a, 8, 0);
            wrote();
            break;
        case mem_request::store:
            mem.write(r.addr, size, r.value), write_hi(r.value_hi);
            wrote();
            break;
        case mem_request::store_exclusive:
            out.success = c.mon.store_exclusive(r.addr);
            if (out.success) {
                ++c.stxr_success;
                mem.write(r.addr, size, r.value), write_hi(r.value_hi);
                wrote();
            } else {
                ++c.stxr_fail;
                if (m_f.obs.trace) m_f.obs.trace->instant(cores_group, c.core + " memory", "STXR fails: reservation lost", done_at);
            }
            break;
        case mem_request::atomic: {
            const std::uint64_t old = mem.read(r.addr, size);
            out.value = old;
            read_hi();
            std::uint64_t v = old;
            bool wr = true;
            switch (r.op) {
                case atomic_op::add: v = old + r.value; break;
                case atomic_op::swp: v = r.value; break;
                case atomic_op::set: v = old | r.value; break;
                case atomic_op::clr: v = old & ~r.value; break;
                case atomic_op::eor: v = old ^ r.value; break;
                case atomic_op::umax: v = std::max(old, sized(r.value, r.size)); break;
                case atomic_op::umin: v = std::min(old, sized(r.value, r.size)); break;
                case atomic_op::smax: v = signed_of(old, r.size) >= signed_of(r.value, r.size) ? old : r.value; break;
                case atomic_op::smin: v = signed_of(old, r.size) <= signed_of(r.value, r.size) ? old : r.value; break;
                case atomic_op::cas:
                    wr = old == r.compare && (!pair || out.value_hi == r.compare_hi), v = r.value;
                    ++(wr ? c.cas_success : c.cas_fail);
                    break;
            }
            if (wr) {
                mem.write(r.addr, size, v), write_hi(r.value_hi);
                wrote();
            }
            break;
        }
    }
    return out;
}

void l1_controller::send_request(request r, std::uint64_t line, duration t, cycles first) {
    l1_cache& c = m_c;
    request_msg m{c.agent, r, line, false, m_f.net->l1_to_scu(c.cluster, t, first)};
    const op* o = c.op_for(line);
    m.exclusive = r == request::Upg && o && o->req.kind == mem_request::store_exclusive;
    home_port* h = m_f.point;
    m_f.q->at(m.arrived, rank(phase::request, h->arbitration_key(c.agent)), [h, m] { h->arrive(m); });
}

void l1_controller::snoop(protocol::snoop s, std::uint64_t line) {
    l1_cache& c = m_c;
    // A core holding a fresh reservation on this line keeps it a little
    // longer: the snoop waits until the hold window closes.
    const cycles hold = c.ex.hold_window;
    if (hold.n > 0 && c.mon.overlaps(line, line_bytes)) {
        const duration until = m_f.net->in_cluster(c.cluster, c.armed_at, hold);
        if (kernel::now() < until) {
            ++c.held_snoops;
            m_f.q->at(until, rank(phase::snoop, c.agent), [this, s, line] { snoop_now(s, line); });
            return;
        }
    }
    const cycles standby = c.p.standby_snoop_latency;
    if (standby.n > 0 && c.port && c.port->asleep()) {
        ++c.standby_snoops;
        const duration until = m_f.net->in_cluster(c.cluster, kernel::now(), standby);
        m_f.q->at(until, rank(phase::snoop, c.agent), [this, s, line] { snoop_now(s, line); });
        return;
    }
    snoop_now(s, line);
}

void l1_controller::snoop_now(protocol::snoop s, std::uint64_t line) {
    l1_cache& c = m_c;
    if (m_f.obs.trace)
        m_f.obs.trace->instant(cores_group, c.core + " memory", std::string("snoop ") + name(s) + " " + hex(line),
                               kernel::now());
    ++c.snoops;
    m_f.point->count_snoop(line);
    ++(s == snoop::Fwd_GetS ? c.snoops_fwd_gets : s == snoop::Fwd_GetM ? c.snoops_fwd_getm : c.snoops_inv);
    const cevent ev = as_event(s);
    const cstate st = c.state_of(line);
    const cache_cell& cell = m_f.cache_cell(st, ev);
    if (cell.kind != outcome::ok) l1_error(line, st, ev);
    if (m_f.explaining(line))
        m_f.explain(line, c.core + " receives " + name(s) + " in " + name(st) + " → " + name(cell.next) +
                              (cell.actions & (a_snp_clean | a_snp_dirty) ? ", supplies the data" : ""));
    if (auto* e = c.array.find(line)) {
        if (cell.next == cstate::I)
            c.array.invalidate(*e);
        else
            e->payload.st = cell.next;
    } else if (c.wb.count(line)) {
        c.wb[line] = cell.next;
    }
    m_f.check_line(line);
    // The line may be taken away (and the reservation with it); the snoop is answered.
    struct snooped : cache_actions {
        l1_controller& self;
        std::uint64_t line;
        void drop() {
            l1_cache& c = self.m_c;
            ++c.lines_lost;
            if (c.mon.line_lost(line, line_bytes)) self.lose_reservation(line);
        }
        void answer(answer_kind a) {
            const l1_cache& c = self.m_c;
            self.m_f.point->snoop_answered(c.cluster, c.agent, line, a != answer_kind::ack, a == answer_kind::dirty);
        }
    };
    execute(cell, snooped{{}, *this, line});
    retry_way_waiters();  // a way may have been freed
}

void l1_controller::grant(protocol::grant g, std::uint64_t line) {
    l1_cache& c = m_c;
    const cevent ev = as_event(g);
    const cstate st = c.state_of(line);
    const cache_cell& cell = m_f.cache_cell(st, ev);
    if (m_f.explaining(line))
        m_f.explain(line, c.core + " receives " + name(g) + " in " + name(st) + " → " + name(cell.next));
    if (cell.kind != outcome::ok) l1_error(line, st, ev);
    auto* e = c.array.find(line);
    if (!e) m_f.protocol_error("grant for a line not in the L1");
    e->payload.st = cell.next;
    c.array.touch(*e);
    // The home is unblocked.
    struct granted : cache_actions {
        l1_controller& self;
        std::uint64_t line;
        void unblock() {
            const l1_cache& c = self.m_c;
            fabric& f = self.m_f;
            home_port* h = f.point;
            h->send_unblock(c.agent, c.cluster, line, f.net->l1_to_scu(c.cluster, kernel::now()));
        }
    };
    execute(cell, granted{{}, *this, line});
    // The core's access is replayed: it now hits, and performs.
    op& o = *c.op_for(line);
    const cevent replay = event_in(o, cell.next);
    const bool was_explaining = m_f.explaining(line);
    const cache_cell& again = m_f.cache_cell(cell.next, replay);
    if (again.kind != outcome::ok || !(again.actions & a_hit))
        m_f.protocol_error("replayed access does not hit in " + std::string(name(cell.next)));
    struct replayed : cache_actions {
        l1_controller& self;
        op& o;
        l1_line& entry;
        const cache_cell& again;
        std::uint64_t line;
        bool was_explaining;
        void hit() {
            l1_cache& c = self.m_c;
            fabric& f = self.m_f;
            entry.st = again.next;
            f.check_line(line);
            if (f.obs.trace && o.flow)
                f.obs.trace->flow_end(timeline_observer::group::lines, hex(line) + " " + c.core, kernel::now(), o.flow);
            o.flow = 0;
            const char* op_text = op_name(o.req);
            const bool stxr = o.req.kind == mem_request::store_exclusive;
            const mem_response resp = self.perform(o, kernel::now());
            if (was_explaining)
                f.explain(line, "  " + c.core + " " + op_text + " completes in " + name(again.next) +
                                    (stxr ? (resp.success ? ": success" : ": fails (reservation lost)") : ""));
            self.finish(o, resp);
        }
    };
    execute(again, replayed{{}, *this, o, e->payload, again, line, was_explaining});
    retry_way_waiters();  // the line is stable: its way may be given up
}

void l1_controller::exclusive_failed(std::uint64_t line) {
    l1_cache& c = m_c;
    if (m_f.explaining(line))
        m_f.explain(line,
                    c.core + " receives Excl_Fail in " + std::string(name(c.state_of(line))) + " → I: STXR fails");
    const cache_cell& cell = m_f.cache_cell(c.state_of(line), cevent::Excl_Fail);
    if (cell.kind != outcome::ok) m_f.protocol_error("Excl_Fail in " + std::string(name(c.state_of(line))));
    execute(cell, cache_actions{});  // no action: the line is gone (I), the STXR fails
    if (auto* e = c.array.find(line)) c.array.invalidate(*e);
    m_f.check_line(line);
    op& o = *c.op_for(line);
    c.mon.store_exclusive(o.req.addr);  // an STXR always leaves the local monitor open
    ++c.stxr_fail;
    ++c.stxr_fail_at_home;
    if (m_f.obs.trace) {
        m_f.obs.trace->instant(cores_group, c.core + " memory", "STXR fails at the home", kernel::now());
        if (o.flow) m_f.obs.trace->flow_end(timeline_observer::group::lines, hex(line) + " " + c.core, kernel::now(), o.flow);
        o.flow = 0;
    }
    finish(o, mem_response{0, false, kernel::now()});
    retry_way_waiters();  // the line's way is free
}

void l1_controller::restart_way_waiters() {
    std::vector<op*> waiting;
    waiting.swap(m_c.way_waiters);
    for (op* o : waiting) start(*o, kernel::now());
}

void l1_controller::put_ack(std::uint64_t line) {
    l1_cache& c = m_c;
    const cstate st = c.state_of(line);
    const cache_cell& cell = m_f.cache_cell(st, cevent::Put_Ack);
    if (cell.kind != outcome::ok) m_f.protocol_error("Put_Ack in " + std::string(name(st)));
    execute(cell, cache_actions{});  // no action: the eviction is over (I)
    c.wb.erase(line);
    m_f.trace_line(line);
    if (auto* o = c.op_for(line)) start(*o, kernel::now());  // it was waiting for this eviction
}

void l1_controller::far_result(std::uint64_t line, duration at) {
    const mem_response resp = perform(*m_c.op_for(line), at);
    m_f.q->at(at, rank(phase::response, m_c.agent), [this, line, resp] { finish(*m_c.op_for(line), resp); });
}

}  // namespace cohsim

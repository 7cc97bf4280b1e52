#include "models/memory_system.h"

#include <algorithm>
#include <sstream>

#include "models/mem/delivery.h"
#include "models/mem/functional_memory.h"
#include "models/mem/l1_controller.h"
#include "models/mem/socket_link.h"
#include "sim/kernel.h"

namespace cohsim {

// The components, in the order their stats are declared (the interconnect's
// group is shared with DRAM, the home's far atomics and the socket link).
struct memory_system::impl {
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
    static std::vector<unsigned> socket_of(const std::vector<cluster_spec>& specs) {
        std::vector<unsigned> out;
        for (const auto& c : specs) out.push_back(c.socket);
        return out;
    }
    // Built before the home, which asks whether a DSU is a mesh.
    static std::vector<std::unique_ptr<dsu>> make_dsus(const std::vector<dsu_spec>& specs) {
        std::vector<std::unique_ptr<dsu>> out;
        for (const auto& d : specs)
            out.push_back(std::make_unique<dsu>(d.name, *d.clock, d.params, static_cast<std::uint32_t>(line_bytes)));
        return out;
    }
    static std::vector<int> dsu_of(const std::vector<cluster_spec>& specs) {
        std::vector<int> out;
        for (const auto& c : specs) out.push_back(c.dsu);
        return out;
    }

    fabric f;
    std::vector<std::unique_ptr<cluster>> clusters;
    std::vector<std::unique_ptr<dsu>> dsus;
    interconnect ic;
    dram memory;
    counter far_atomics{ic.stats(), "far_atomics", "atomics performed at the interconnect"};
    socket_link link;
    delivery net;
    functional_memory data;
    std::vector<std::unique_ptr<l1_controller>> l1s;
    home point;
    event_queue* q = &kernel::queue();

    impl(const std::vector<cluster_spec>& specs, const interconnect_params& icp, const memory_params& memp,
         const std::vector<dsu_spec>& dsu_specs, const noise& n)
        : dsus(make_dsus(dsu_specs)),
          ic(icp, sockets_of(specs), agents_of(specs)),
          memory(memp, ic.clock(), sockets_of(specs), ic.stats(), n),
          link(icp.link_latency, icp.link_bytes_per_second, ic.stats()),
          net(clusters, socket_of(specs), ic, link, n),
          point(f, clusters, dsu_of(specs), dsus, ic, memory, far_atomics) {
        unsigned agent = 0;
        for (unsigned c = 0; c < specs.size(); ++c) {
            const cluster_spec& sp = specs[c];
            clusters.push_back(std::make_unique<cluster>(sp.name, *sp.clock, sp.params.l2, sp.params.scu,
                                                         static_cast<std::uint32_t>(line_bytes)));
            for (unsigned i = 0; i < sp.cores; ++i) {
                l1s.push_back(std::make_unique<l1_controller>(f, agent++, c, sp.name + "." + std::to_string(i),
                                                              sp.params.l1, sp.params.exclusive));
                f.l1s.push_back(l1s.back().get());
                f.states.push_back(&l1s.back()->state());
            }
        }
        // A mesh DSU places its cores on its crosspoints, in order.
        for (unsigned d = 0; d < dsus.size(); ++d) {
            std::vector<unsigned> members;
            for (unsigned c = 0, a = 0; c < specs.size(); a += specs[c].cores, ++c)
                if (specs[c].dsu == static_cast<int>(d))
                    for (unsigned i = 0; i < specs[c].cores; ++i) members.push_back(a + i);
            dsus[d]->place(members, agent);
        }
        f.q = q;
        f.net = &net;
        f.data = &data;
        f.point = &point;
        for (const auto& sp : specs)
            f.far_atomics.push_back(icp.far_atomics || (sp.dsu >= 0 && dsus[static_cast<unsigned>(sp.dsu)]->far_atomics()));
    }

    l1_cache& l1(unsigned agent) { return l1s.at(agent)->state(); }
    const l1_cache& l1(unsigned agent) const { return l1s.at(agent)->state(); }
};

memory_system::memory_system(const sc_core::sc_module_name& name, const std::vector<cluster_spec>& clusters,
                             const interconnect_params& ic, const memory_params& mem, const std::vector<dsu_spec>& dsus,
                             const noise& n)
    : sc_module(name), m(std::make_unique<impl>(clusters, ic, mem, dsus, n)) {}

memory_system::~memory_system() = default;

void memory_system::attach(unsigned agent, core_port* port) { m->l1(agent).port = port; }

void memory_system::check_invariants(bool on) { m->f.checking = on; }

void memory_system::observe(const observers& o) { m->f.obs = o; }

const memory_system::transition_counts& memory_system::transitions() const { return m->f.counts; }

std::vector<memory_system::line_traffic> memory_system::traffic() const { return m->point.traffic(); }

std::string memory_system::stuck_access(duration older_than) const {
    const duration now = kernel::now();
    for (const auto& ctl : m->l1s) {
        const l1_cache& c = ctl->state();
        for (const auto& o : c.ops) {
            if (!o.active || now.fs - o.issued_at.fs < older_than.fs) continue;
            const std::uint64_t line = line_of(o.req.addr);
            std::ostringstream os;
            os << "core " << c.core << " has waited " << to_string(duration{now.fs - o.issued_at.fs}) << " for line "
               << hex(line) << ": its L1 holds it in " << protocol::name(c.state_of(line)) << "; "
               << m->point.describe(line);
            return os.str();
        }
    }
    return {};
}

std::optional<duration> memory_system::oldest_access() const {
    std::optional<duration> oldest;
    for (const auto& ctl : m->l1s)
        for (const auto& o : ctl->state().ops)
            if (o.active && (!oldest || o.issued_at < *oldest)) oldest = o.issued_at;
    return oldest;
}

void memory_system::access(unsigned agent, const mem_request& r, const access_done& done) {
    m->l1s.at(agent)->access(r, done);
}

cycles memory_system::l1_hit_latency(unsigned agent) const { return m->l1(agent).p.hit_latency; }
unsigned memory_system::socket_of_agent(unsigned agent) const { return m->net.socket_of(m->l1(agent).cluster); }

std::uint64_t memory_system::peek(std::uint64_t addr, unsigned size) const { return m->data.read(addr, size); }
void memory_system::poke(std::uint64_t addr, unsigned size, std::uint64_t value) { m->data.write(addr, size, value); }

protocol::cstate memory_system::l1_state(unsigned agent, std::uint64_t addr) const {
    return m->l1(agent).state_of(line_of(addr));
}

void memory_system::clear_exclusive(unsigned agent) { m->l1(agent).mon.clrex(); }

bool memory_system::reservation_held(unsigned agent, std::uint64_t addr) const { return m->l1(agent).mon.holds(addr); }

std::vector<const stat_group*> memory_system::stat_groups() const {
    std::vector<const stat_group*> out;
    for (const auto& c : m->l1s) out.push_back(&c->state().stats);
    for (const auto& c : m->clusters) out.push_back(&c->stats());
    for (const auto& d : m->dsus) {
        out.push_back(&d->stats());
        if (d->geometry()) out.push_back(&d->geometry()->stats());
    }
    out.push_back(&m->ic.stats());
    return out;
}

}  // namespace cohsim

#include "workloads/interpreter.h"

#include <cstdio>

#include <algorithm>

namespace cohsim {

using namespace asmx;

interpreter::interpreter(core& c, const program& p, std::uint64_t shared_base, std::uint64_t private_base,
                         lock_metrics* metrics, mutex_checker* mutex, region_profile* profile)
    : m_core(c), m_prog(p), m_shared(shared_base), m_private(private_base), m_metrics(metrics), m_mutex(mutex),
      m_profile(profile), m_lse(has_lse(c.type())), m_rcpc(has_rcpc(c.type())) {}

void interpreter::feature_fault(const insn& i, const std::string& feature, const std::string& lacks,
                                const std::string& advice) const {
    const core_preset& p = preset_of(m_core.type());
    fault(i, feature + " on a " + p.name + " (Armv" + std::to_string(p.arch / 10) + "." + std::to_string(p.arch % 10) + ", " +
                 lacks + "): the core would take an undefined-instruction exception" + advice);
}

void interpreter::set(int n, std::uint64_t v, bool wide) {
    if (n == zr || n < 0) return;
    m_x[n] = wide ? v : (v & 0xffffffffULL);
}

std::uint64_t interpreter::operand2(const insn& i) const {
    if (i.has_imm) return i.wide ? i.imm : (i.imm & 0xffffffffULL);
    std::uint64_t v = reg(i.rm);
    const unsigned bits = i.wide ? 64 : 32;
    if (!i.wide) v &= 0xffffffffULL;
    const unsigned a = i.sh_amount;
    switch (i.sh) {
        case shift::none: break;
        case shift::lsl: v <<= a; break;
        case shift::lsr: v >>= a; break;
        case shift::ror:
            if (a) v = (v >> a) | (v << (bits - a));
            break;
    }
    return i.wide ? v : (v & 0xffffffffULL);
}

bool interpreter::holds(cond c) const {
    switch (c) {
        case cond::eq: return m_z;
        case cond::ne: return !m_z;
        case cond::hs: return m_c;
        case cond::lo: return !m_c;
        case cond::mi: return m_n;
        case cond::pl: return !m_n;
        case cond::vs: return m_v;
        case cond::vc: return !m_v;
        case cond::hi: return m_c && !m_z;
        case cond::ls: return !m_c || m_z;
        case cond::ge: return m_n == m_v;
        case cond::lt: return m_n != m_v;
        case cond::gt: return !m_z && m_n == m_v;
        case cond::le: return m_z || m_n != m_v;
        case cond::al: return true;
    }
    return true;
}

void interpreter::fault(const insn& i, const std::string& what) const {
    // Where: the nearest code label at or before the instruction, and the
    // offset from it in bytes (4 per instruction, as AArch64 code is laid out).
    const auto index = static_cast<std::size_t>(&i - m_prog.code.data());
    std::string where;
    std::size_t best = 0;
    for (const auto& [name, at] : m_prog.labels)
        if (at <= index && (where.empty() || at > best || (at == best && name < where))) where = name, best = at;
    char off[64];
    std::snprintf(off, sizeof off, "+0x%zx", (index - best) * 4);
    char addr[32];
    std::snprintf(addr, sizeof addr, "0x%zx", index * 4);
    throw std::runtime_error(i.loc.str() + ": " + i.text + ": " + what + " (core " + m_core.id() + ", at " +
                             (where.empty() ? std::string("the program's start") : where) + off +
                             ", instruction address " + addr + ")");
}

void interpreter::use(int n) {
    if (n < 0 || n >= zr || m_pending[n].ticket < 0) return;
    const pending p = m_pending[n];
    m_pending[n].ticket = -1;
    set(n, m_core.load_result(static_cast<unsigned>(p.ticket)), p.wide);
}

void interpreter::use_all() {
    for (int n = 0; n < zr; ++n) use(n);
}

void interpreter::run() {
    run_program();
    use_all();  // every register final, every load's data in
}

void interpreter::run_program() {
    std::size_t pc = m_prog.entry;
    for (;;) {
        // Past the last instruction: a function without its ret, or a program
        // without its halt. Real code would run on into whatever follows.
        if (pc >= m_prog.code.size()) {
            if (m_prog.code.empty()) return;
            fault(m_prog.code.back(), "execution ran past the last instruction of the program (a function "
                                      "missing its ret, or a program missing its halt)");
        }
        const insn& i = m_prog.code[pc];
        // A loop whose instructions all cost nothing would never let simulated
        // time pass (the run would hang): stop it with the reason.
        if ((++m_retired & 0xFFFFF) == 0) {
            const duration t = m_core.local_time();
            if (t == m_time_at_check)
                fault(i, "2^20 instructions without simulated time passing: a loop whose instructions all cost 0 "
                         "cycles (clusters." + m_core.cluster() + ".timing.alu/branch/hint); give them at least 1 cycle");
            m_time_at_check = t;
        }
        // Load-to-use: an instruction that names a register whose load is
        // still in flight (to read it, or to overwrite it) waits for the data.
        use(i.rd), use(i.rn), use(i.rm), use(i.rs);
        if (i.o == op::bl || i.o == op::ret) use(30);
        if (!m_lse && is_lse(i.o))
            feature_fault(i, "an LSE atomic (FEAT_LSE, Armv8.1)", "no LSE",
                          " (expected the LDXR/STXR build on this core, as Linux's alternatives choose: a program's `.equ LSE` "
                          "is set per core)");
        if (i.o == op::ldapr && !m_rcpc)
            feature_fault(i, "LDAPR (FEAT_LRCPC, Armv8.3; an Armv8.2 extension on the A55/A75 generation)", "without it");
        std::size_t next = pc + 1;
        const unsigned bits = i.wide ? 64 : 32;
        const std::uint64_t mask = i.wide ? ~0ULL : 0xffffffffULL;
        switch (i.o) {
            case op::nop: case op::yield: m_core.retire(insn_class::hint); break;
            case op::wfe: m_core.wfe(); break;
            case op::sev: m_core.sev(); break;
            case op::sevl: m_core.sevl(); break;
            case op::clrex: m_core.clrex(); break;
            case op::barrier: m_core.barrier(); break;
            case op::work:
                if (!i.has_imm && reg(i.rn) > max_work_cycles)
                    fault(i, "work of " + std::to_string(reg(i.rn)) + " cycles from a register, more than the " +
                                 std::to_string(max_work_cycles) + " one work may take");
                m_core.work(cycles{!i.has_imm ? reg(i.rn) : i.imm_hi ? m_core.random().between(i.imm, i.imm_hi) : i.imm});
                break;
            case op::halt: return;
            case op::region:
                if (m_profile) m_profile->enter(i.name, m_core.local_time());
                break;
            case op::endregion:
                if (m_profile && !m_profile->leave(m_core.local_time())) fault(i, "endregion with no region open");
                break;
            case op::mark: lock_mark(i.mark, m_core.id(), m_core.local_time(), m_metrics, m_mutex); break;
            case op::mov: set(i.rd, operand2(i), i.wide), m_core.retire(insn_class::alu); break;
            case op::mvn: set(i.rd, ~operand2(i) & mask, i.wide), m_core.retire(insn_class::alu); break;
            case op::csel: {
                std::uint64_t v = reg(i.rn);
                if (!holds(i.c)) {
                    v = reg(i.rm);
                    switch (i.ck) {
                        case csel_kind::sel: break;
                        case csel_kind::inc: v = v + 1; break;
                        case csel_kind::inv: v = ~v; break;
                        case csel_kind::neg: v = 0 - v; break;
                    }
                }
                set(i.rd, v & mask, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            // ISB: a context synchronization, the pipeline refilled; no
            // memory ordering (the barrier's cost, without its wait).
            case op::isb: m_core.work(m_core.params().barrier_latency); break;
            case op::mrs: {
                const clock_domain* counter = m_core.system_counter();
                if (!counter) fault(i, "no generic timer on this core");
                // CNTVCT = CNTPCT here (no virtual offset); read at the core's own time.
                set(i.rd, i.sr == sysreg::cntfrq ? counter->freq().hz : counter->cycle_at(m_core.local_time()), true);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::add: set(i.rd, (reg(i.rn) + operand2(i)) & mask, i.wide), m_core.retire(insn_class::alu); break;
            case op::sub: set(i.rd, (reg(i.rn) - operand2(i)) & mask, i.wide), m_core.retire(insn_class::alu); break;
            case op::and_: set(i.rd, reg(i.rn) & operand2(i) & mask, i.wide), m_core.retire(insn_class::alu); break;
            case op::orr: set(i.rd, (reg(i.rn) | operand2(i)) & mask, i.wide), m_core.retire(insn_class::alu); break;
            case op::eor: set(i.rd, (reg(i.rn) ^ operand2(i)) & mask, i.wide), m_core.retire(insn_class::alu); break;
            case op::lsl: case op::lsr: case op::ror: {
                const std::uint64_t a = operand2(i) % bits, v = reg(i.rn) & mask;
                std::uint64_t r = i.o == op::lsl ? v << a : v >> a;
                if (i.o == op::ror && a) r = (v >> a) | (v << (bits - a));
                set(i.rd, r & mask, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::cmp: {
                const std::uint64_t a = reg(i.rn) & mask, b = operand2(i) & mask, r = (a - b) & mask;
                const std::uint64_t sign = i.wide ? (1ULL << 63) : (1ULL << 31);
                m_n = r & sign;
                m_z = r == 0;
                m_c = a >= b;
                m_v = ((a ^ b) & (a ^ r) & sign) != 0;
                m_core.retire(insn_class::alu);
                break;
            }
            case op::adr: {
                const auto& syms = m_prog.symbols;
                auto it = std::find_if(syms.begin(), syms.end(), [&](const data_symbol& s) { return s.name == i.name; });
                set(i.rd, (it->priv ? m_private : m_shared) + it->offset, true);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::b: next = i.target, m_core.retire(insn_class::branch); break;
            case op::bcond: if (holds(i.c)) next = i.target; m_core.retire(insn_class::branch); break;
            case op::cbz: if ((reg(i.rd) & mask) == 0) next = i.target; m_core.retire(insn_class::branch); break;
            case op::cbnz: if ((reg(i.rd) & mask) != 0) next = i.target; m_core.retire(insn_class::branch); break;
            case op::tbz: if (!((reg(i.rd) >> i.imm) & 1)) next = i.target; m_core.retire(insn_class::branch); break;
            case op::tbnz: if ((reg(i.rd) >> i.imm) & 1) next = i.target; m_core.retire(insn_class::branch); break;
            case op::bl: set(30, pc + 1, true), next = i.target, m_core.retire(insn_class::branch); break;
            case op::ret: next = reg(30), m_core.retire(insn_class::branch); break;
            case op::ldr:
                if (i.rd == zr) {
                    m_core.load(address(i), i.size);
                } else {
                    // Issued, not waited for: the data is needed only when the register is used.
                    m_pending[i.rd] = {static_cast<int>(m_core.load_async(address(i), i.size)), i.wide};
                    m_core.retire(insn_class::alu);
                }
                break;
            case op::ldar: set(i.rd, m_core.load(address(i), i.size), i.wide); break;
            // RCpc: may pass an earlier STLR to another address, which the
            // model does not exploit (it orders LDAPR as LDAR: conservative).
            case op::ldapr: set(i.rd, m_core.load(address(i), i.size), i.wide); break;
            case op::str: case op::stlr:
                m_core.store(address(i), reg(i.rd), i.size, i.o == op::stlr);
                m_core.retire(insn_class::store);
                break;
            case op::ldxr: set(i.rd, m_core.load_exclusive(address(i), i.size), i.wide); break;
            case op::stxr: set(i.rs, m_core.store_exclusive(address(i), reg(i.rd), i.size) ? 0 : 1, false); break;
            case op::cas: set(i.rs, m_core.atomic(atomic_op::cas, address(i), reg(i.rd), i.size, reg(i.rs) & (i.size == 8 ? ~0ULL : (1ULL << (8 * i.size)) - 1)), i.wide); break;
            case op::ldadd: set(i.rd, m_core.atomic(atomic_op::add, address(i), reg(i.rs), i.size), i.wide); break;
            case op::swp: set(i.rd, m_core.atomic(atomic_op::swp, address(i), reg(i.rs), i.size), i.wide); break;
            case op::ldset: set(i.rd, m_core.atomic(atomic_op::set, address(i), reg(i.rs), i.size), i.wide); break;
            case op::ldclr: set(i.rd, m_core.atomic(atomic_op::clr, address(i), reg(i.rs), i.size), i.wide); break;
            case op::ldeor: set(i.rd, m_core.atomic(atomic_op::eor, address(i), reg(i.rs), i.size), i.wide); break;
            case op::ldsmax: set(i.rd, m_core.atomic(atomic_op::smax, address(i), reg(i.rs), i.size), i.wide); break;
            case op::ldsmin: set(i.rd, m_core.atomic(atomic_op::smin, address(i), reg(i.rs), i.size), i.wide); break;
            case op::ldumax: set(i.rd, m_core.atomic(atomic_op::umax, address(i), reg(i.rs), i.size), i.wide); break;
            case op::ldumin: set(i.rd, m_core.atomic(atomic_op::umin, address(i), reg(i.rs), i.size), i.wide); break;
            case op::prfm:
                if (i.rd == 1) m_core.prefetch_store(address(i));
                else m_core.retire(insn_class::hint);
                break;
        }
        pc = next;
    }
}

}  // namespace cohsim

#include "workloads/interpreter.h"

#include <cstdio>

#include <algorithm>

namespace cohsim {

using namespace asmx;

interpreter::interpreter(core& c, const program& p, std::uint64_t shared_base, std::uint64_t private_base,
                         lock_metrics* metrics, mutex_checker* mutex, region_profile* profile)
    : m_core(c), m_prog(p), m_shared(shared_base), m_private(private_base), m_metrics(metrics), m_mutex(mutex),
      m_profile(profile), m_lse(has_lse(c.type())), m_rcpc(has_rcpc(c.type())), m_rcpc2(has_lrcpc2(c.type())) {
    m_entry = p.entry;
    const std::size_t n = p.code.size();
    m_checks.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const insn& i = p.code[k];
        const bool direct = i.o == op::b || i.o == op::bcond || i.o == op::cbz || i.o == op::cbnz || i.o == op::tbz ||
                            i.o == op::tbnz || i.o == op::bl;
        const bool moves_sp =
            i.rd == sp || ((i.am == addr_mode::pre || i.am == addr_mode::post) && (i.rn == sp || i.rn == zr));
        if (is_lse(i.o) || i.rcpc2 || i.o == op::ldapr) m_checks[k] |= check_before;
        if ((!p.function_end.empty() && p.function_end[k]) || (direct && i.target >= n) || moves_sp)
            m_checks[k] |= check_after;
    }
}

void interpreter::set(int n, std::uint64_t v, bool wide) {
    if (n == zr || n < 0) return;
    m_x[n] = wide ? v : (v & 0xffffffffULL);
}

namespace {

std::uint64_t sign_extend(std::uint64_t v, unsigned bits) {
    if (bits >= 64) return v;
    const std::uint64_t m = 1ULL << (bits - 1);
    v &= (1ULL << bits) - 1;
    return (v ^ m) - m;
}

// A register operand extended (UXTB..SXTX), then shifted left.
std::uint64_t extended(std::uint64_t v, extend e, unsigned amount) {
    switch (e) {
        case extend::none: case extend::uxtx: case extend::sxtx: break;
        case extend::uxtb: v &= 0xff; break;
        case extend::uxth: v &= 0xffff; break;
        case extend::uxtw: v &= 0xffffffffULL; break;
        case extend::sxtb: v = sign_extend(v, 8); break;
        case extend::sxth: v = sign_extend(v, 16); break;
        case extend::sxtw: v = sign_extend(v, 32); break;
    }
    return v << amount;
}

std::uint64_t ror(std::uint64_t v, unsigned a, unsigned bits) {
    a %= bits;
    return a ? (v >> a) | (v << (bits - a)) : v;
}

std::string hex_address(std::uint64_t a) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(a));
    return b;
}

}  // namespace

std::uint64_t interpreter::address(const insn& i) const {
    switch (i.am) {
        case addr_mode::offset: case addr_mode::pre: return reg(i.rn) + i.imm;
        case addr_mode::post: return reg(i.rn);
        case addr_mode::reg: return reg(i.rn) + extended(reg(i.rm), i.ext, i.sh_amount);
    }
    return 0;
}

void interpreter::writeback(const insn& i) {
    if (i.am == addr_mode::pre || i.am == addr_mode::post) m_x[i.rn == zr ? sp : i.rn] = reg(i.rn) + i.imm;
}

std::size_t interpreter::jump(const insn& i, std::uint64_t to) const {
    const std::uint64_t base = m_prog.code_base;
    if (to % 4 || to < base || (to - base) / 4 >= m_prog.code.size())
        fault(i, "a branch to address " + hex_address(to) + ", outside the program's code (" + hex_address(base) + ".." +
                     hex_address(base + 4 * m_prog.code.size()) + "): a corrupted return address or function pointer");
    return static_cast<std::size_t>((to - base) / 4);
}

void interpreter::aligned(const insn& i, std::uint64_t addr, unsigned size) const {
    if (addr % size)
        fault(i, "address " + hex_address(addr) + " is not a multiple of the access size (" + std::to_string(size) +
                     " bytes): exclusives, acquire/release accesses and atomics take an alignment fault there");
}

void interpreter::flags_add(std::uint64_t a, std::uint64_t b, bool carry, bool wide) {
    const std::uint64_t mask = wide ? ~0ULL : 0xffffffffULL, sign = wide ? (1ULL << 63) : (1ULL << 31);
    a &= mask, b &= mask;
    const unsigned __int128 u = static_cast<unsigned __int128>(a) + b + (carry ? 1 : 0);
    const std::uint64_t r = static_cast<std::uint64_t>(u) & mask;
    m_n = r & sign;
    m_z = r == 0;
    m_c = wide ? (u >> 64) != 0 : (u >> 32) != 0;
    m_v = ((a ^ r) & (b ^ r) & sign) != 0;
}

void interpreter::loads_to(int n, std::uint64_t addr, const insn& i) {
    if (n == zr) {
        m_core.load(addr, i.size);
        return;
    }
    m_pending[n] = {static_cast<int>(m_core.load_async(addr, i.size)), i.wide, i.sign ? 8 * i.size : 0};
    m_pending_mask |= std::uint32_t{1} << n;
}

std::uint64_t interpreter::operand2(const insn& i) const {
    if (i.has_imm) return i.wide ? i.imm : (i.imm & 0xffffffffULL);
    if (i.ext != extend::none) {
        const std::uint64_t v = extended(reg(i.rm), i.ext, i.sh_amount);
        return i.wide ? v : (v & 0xffffffffULL);
    }
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
        case shift::asr:
            v = static_cast<std::uint64_t>(static_cast<std::int64_t>(sign_extend(v, bits)) >> a);
            break;
    }
    if (i.invert) v = ~v;
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
    const std::string addr = hex_address(m_prog.code_base + index * 4);
    throw std::runtime_error(i.loc.str() + ": " + i.text + ": " + what + " (core " + m_core.id() + ", at " +
                             (where.empty() ? std::string("the program's start") : where) + off +
                             ", instruction address " + addr + ")");
}

void interpreter::use_pending(int n) {
    const pending p = m_pending[n];
    m_pending[n].ticket = -1;
    m_pending_mask &= ~(std::uint32_t{1} << n);
    const std::uint64_t v = m_core.load_result(static_cast<unsigned>(p.ticket));
    set(n, p.sign_bits ? sign_extend(v, p.sign_bits) : v, p.wide);
}

void interpreter::use_all() {
    for (int n = 0; n < zr; ++n) use(n);
}

void interpreter::run() {
    run_program();
    use_all();  // every register final, every load's data in
}

void interpreter::checks_before(const insn& i) const {
    if (!m_lse && is_lse(i.o))
        feature_fault(i, "an LSE atomic (FEAT_LSE, Armv8.1)", "no LSE",
                      m_prog.machine_code
                          ? " (expected code built for Armv8.0 on this core: -march=armv8-a, or GCC's outline atomics, "
                            "which choose at run time)"
                          : " (expected the LDXR/STXR build on this core, as Linux's alternatives choose: a program's "
                            "`.equ LSE` is set per core)");
    if (is_lse(i.o)) aligned(i, address(i), i.o == op::casp ? 2 * i.size : i.size);
    if (i.rcpc2 && !m_rcpc2)
        feature_fault(i, "LDAPUR/STLUR (FEAT_LRCPC2, Armv8.4)", "without it",
                      " (expected code built for the core: -march=armv8.2-a, or the core's own -mcpu)");
    if (i.o == op::ldapr && !m_rcpc)
        feature_fault(i, "LDAPR (FEAT_LRCPC, Armv8.3; an Armv8.2 extension on the A55/A75 generation)", "without it");
}

void interpreter::checks_after(const insn& i, std::size_t pc, std::size_t next) const {
    // Machine code running on from a function's last instruction into whatever follows.
    if (next == pc + 1 && !m_prog.function_end.empty() && m_prog.function_end[pc])
        fault(i, "execution ran past the end of the function (a function missing its ret, or a call that returned "
                 "nowhere): the next instruction belongs to something else");
    // A direct branch whose target lies outside the program (machine code only).
    if (next >= m_prog.code.size() && next != pc + 1)
        fault(i, "a branch to address " + hex_address(i.dest) + ", outside the program's code");
    // The stack pointer below the thread's stack: the function's frames overflowed it.
    if (m_x[sp] < m_stack_bottom)
        fault(i, "stack overflow: sp is " + hex_address(m_x[sp]) + ", below the thread's stack (" +
                     hex_address(m_stack_bottom) + "..): deep recursion, or large local arrays");
}

void interpreter::feature_fault(const insn& i, const std::string& feature, const std::string& lacks,
                                const std::string& advice) const {
    const core_preset& p = preset_of(m_core.type());
    fault(i, feature + " on a " + p.name + " (Armv" + std::to_string(p.arch / 10) + "." + std::to_string(p.arch % 10) + ", " +
                 lacks + "): the core would take an undefined-instruction exception" + advice);
}

void interpreter::run_program() {
    std::size_t pc = m_entry;
    // The program never changes while it runs: its code and the checks
    // worked out for it, read through locals (not reloaded after every call).
    const insn* const code = m_prog.code.data();
    const std::size_t n = m_prog.code.size();
    const std::uint8_t* const checks_of = m_checks.data();
    for (;;) {
        // Past the last instruction: a function without its ret, or a program
        // without its halt. Real code would run on into whatever follows.
        if (pc >= n) {
            if (n == 0) return;
            fault(code[n - 1], "execution ran past the last instruction of the program (a function "
                               "missing its ret, or a program missing its halt)");
        }
        const insn& i = code[pc];
        // Every 4096 instructions (a count, so the same in every timing mode):
        // a lock no core takes any more stops the run (mutex_checker); a loop
        // whose instructions all cost nothing would never let simulated time
        // pass (the run would hang): stop it with the reason.
        if ((++m_retired & 0xFFF) == 0) {
            const duration t = m_core.local_time();
            if (m_mutex) m_mutex->check_stuck(t);
            if ((m_retired & 0xFFFFF) == 0) {
                if (t == m_time_at_check)
                    fault(i, "2^20 instructions without simulated time passing: a loop whose instructions all cost 0 "
                             "cycles (clusters." + m_core.cluster() + ".timing.alu/branch/hint); give them at least 1 cycle");
                m_time_at_check = t;
            }
        }
        // Load-to-use: an instruction that names a register whose load is
        // still in flight (to read it, or to overwrite it) waits for the data.
        if (m_pending_mask != 0) {
            use(i.rd), use(i.rn), use(i.rm), use(i.rs), use(i.rt2);
            if (i.o == op::bl || i.o == op::blr || i.o == op::ret) use(30);
            if (i.o == op::casp) use(i.rs + 1);
        }
        const std::uint8_t checks = checks_of[pc];
        if (checks & check_before) checks_before(i);
        std::size_t next = pc + 1;
        const unsigned bits = i.wide ? 64 : 32;
        const std::uint64_t mask = i.wide ? ~0ULL : 0xffffffffULL;
        switch (i.o) {
            case op::nop: case op::yield: m_core.retire(insn_class::hint); break;
            case op::wfe:
                m_core.wfe();
                if (m_mutex) m_mutex->check_stuck(m_core.local_time());  // a waiter that sleeps runs few instructions
                break;
            case op::sev: m_core.sev(); break;
            case op::sevl: m_core.sevl(); break;
            case op::clrex: m_core.clrex(); break;
            case op::barrier: m_core.barrier(); break;
            case op::work:
                if (!i.has_imm && (reg(i.rn) > max_work_cycles || (i.rm >= 0 && reg(i.rm) > max_work_cycles)))
                    fault(i, "work of " + std::to_string(reg(i.rn)) + (i.rm >= 0 ? " + 0.." + std::to_string(reg(i.rm)) : "") +
                                 " cycles from registers, more than the " + std::to_string(max_work_cycles) + " one work may take");
                if (!i.has_imm && i.rm >= 0)  // machine code's `work N, N+J`: x16 and x17
                    m_core.work(cycles{reg(i.rm) ? m_core.random().between(reg(i.rn), reg(i.rn) + reg(i.rm)) : reg(i.rn)});
                else
                    m_core.work(cycles{!i.has_imm ? reg(i.rn) : i.imm_hi ? m_core.random().between(i.imm, i.imm_hi) : i.imm});
                break;
            case op::halt: return;
            case op::region:
                if (m_profile) {
                    if (i.rn < 0) {
                        m_profile->enter(i.name, m_core.local_time());
                    } else {  // machine code: the name is a C string at the address in x16
                        std::string name;
                        for (std::uint64_t a = reg(i.rn); name.size() < 64; ++a) {
                            const char ch = static_cast<char>(m_core.peek(a, 1));
                            if (!ch) break;
                            name += ch;
                        }
                        m_profile->enter(name.empty() ? "(unnamed)" : name, m_core.local_time());
                    }
                }
                break;
            case op::endregion:
                if (m_profile && !m_profile->leave(m_core.local_time())) fault(i, "endregion with no region open");
                break;
            case op::mark: lock_mark(i.mark, m_core.agent(), m_core.id(), m_core.local_time(), m_metrics, m_mutex); break;
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
            case op::add: case op::sub: {
                const std::uint64_t a = reg(i.rn), b = operand2(i);
                const bool sub = i.o == op::sub;
                if (i.flags) flags_add(a, sub ? ~b : b, sub, i.wide);
                set(i.rd, (sub ? a - b : a + b) & mask, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::and_: {
                const std::uint64_t r = reg(i.rn) & operand2(i) & mask;
                if (i.flags) m_n = (r >> (bits - 1)) & 1, m_z = r == 0, m_c = false, m_v = false;
                set(i.rd, r, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::orr: set(i.rd, (reg(i.rn) | operand2(i)) & mask, i.wide), m_core.retire(insn_class::alu); break;
            case op::eor: set(i.rd, (reg(i.rn) ^ operand2(i)) & mask, i.wide), m_core.retire(insn_class::alu); break;
            case op::lsl: case op::lsr: case op::ror: case op::asr: {
                const std::uint64_t a = operand2(i) % bits, v = reg(i.rn) & mask;
                std::uint64_t r = i.o == op::lsl ? v << a : v >> a;
                if (i.o == op::ror && a) r = (v >> a) | (v << (bits - a));
                if (i.o == op::asr) r = static_cast<std::uint64_t>(static_cast<std::int64_t>(sign_extend(v, bits)) >> a);
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
            case op::bl: set(30, m_prog.code_base + 4 * (pc + 1), true), next = i.target, m_core.retire(insn_class::branch); break;
            case op::ret: case op::br: case op::blr: {
                const std::uint64_t to = reg(i.rn < 0 ? 30 : i.rn);
                m_core.retire(insn_class::branch);
                // Machine code: a thread's function returning to the address
                // it was called with (0) ends the thread.
                if (m_prog.machine_code && to == 0 && i.o != op::blr) return;
                if (i.o == op::blr) set(30, m_prog.code_base + 4 * (pc + 1), true);
                next = jump(i, to);
                break;
            }
            case op::ldr:
                // Issued, not waited for: the data is needed only when the register is used.
                loads_to(i.rd, address(i), i);
                if (i.rd != zr) m_core.retire(insn_class::alu);
                writeback(i);
                break;
            case op::ldp: {
                const std::uint64_t a = address(i);
                loads_to(i.rd, a, i);
                loads_to(i.rt2, a + i.size, i);
                m_core.retire(insn_class::alu);
                writeback(i);
                break;
            }
            case op::stp: {
                // Two stores, the first register's at the lower address.
                const std::uint64_t a = address(i), lo = reg(i.rd), hi = reg(i.rt2);
                m_core.store(a, lo, i.size, false);
                m_core.store(a + i.size, hi, i.size, false);
                m_core.retire(insn_class::store);
                writeback(i);
                break;
            }
            // The pairs: 32-bit ones are one 8-byte access, 64-bit ones one
            // 16-byte access (the first register's element at the lower address).
            case op::ldxp: {
                const std::uint64_t a = address(i);
                aligned(i, a, 2 * i.size);
                std::pair<std::uint64_t, std::uint64_t> v;
                if (i.wide) v = m_core.load_exclusive_pair(a);
                else {
                    const std::uint64_t d = m_core.load_exclusive(a, 8);
                    v = {d & 0xffffffffULL, d >> 32};
                }
                set(i.rd, v.first, i.wide);
                set(i.rt2, v.second, i.wide);
                break;
            }
            case op::stxp: {
                const std::uint64_t a = address(i), lo = reg(i.rd), hi = reg(i.rt2);
                aligned(i, a, 2 * i.size);
                const bool ok = i.wide ? m_core.store_exclusive_pair(a, lo, hi)
                                       : m_core.store_exclusive(a, (lo & 0xffffffffULL) | (hi << 32), 8);
                set(i.rs, ok ? 0 : 1, false);
                break;
            }
            case op::casp: {
                const std::uint64_t a = address(i);
                const int rs2 = i.rs + 1;
                std::pair<std::uint64_t, std::uint64_t> old;
                if (i.wide) {
                    old = m_core.cas_pair(a, {reg(i.rs), reg(rs2)}, {reg(i.rd), reg(i.rt2)});
                } else {
                    auto join = [&](int r1, int r2) { return (reg(r1) & 0xffffffffULL) | (reg(r2) << 32); };
                    const std::uint64_t d = m_core.atomic(atomic_op::cas, a, join(i.rd, i.rt2), 8, join(i.rs, rs2));
                    old = {d & 0xffffffffULL, d >> 32};
                }
                set(i.rs, old.first, i.wide);
                set(rs2, old.second, i.wide);
                break;
            }
            case op::movk: {
                const std::uint64_t keep = reg(i.rd) & ~(0xffffULL << i.sh_amount);
                set(i.rd, (keep | (i.imm << i.sh_amount)) & mask, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::bfm: {
                // The architecture's BFM/SBFM/UBFM, with the masks decoded once.
                const std::uint64_t src = reg(i.rn) & mask, rot = ror(src, i.sh_amount, bits) & i.mask_w;
                std::uint64_t r = 0;
                switch (i.bf) {
                    case bf_kind::ubfm: r = rot & i.mask_t; break;
                    case bf_kind::sbfm: r = (((src >> i.imm) & 1) ? mask & ~i.mask_t : 0) | (rot & i.mask_t); break;
                    case bf_kind::bfm: {
                        const std::uint64_t dst = reg(i.rd), bot = (dst & ~i.mask_w) | rot;
                        r = (dst & ~i.mask_t) | (bot & i.mask_t);
                        break;
                    }
                }
                set(i.rd, r & mask, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::extr: {
                const std::uint64_t hi = reg(i.rn) & mask, lo = reg(i.rm) & mask;
                set(i.rd, i.imm ? ((lo >> i.imm) | (hi << (bits - i.imm))) & mask : lo, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::mul: {
                const std::uint64_t n = reg(i.rn), m = reg(i.rm), a = reg(i.rs);
                std::uint64_t r = 0;
                switch (i.mk) {
                    case mul_kind::madd: r = a + n * m; break;
                    case mul_kind::msub: r = a - n * m; break;
                    case mul_kind::smaddl: r = a + sign_extend(n, 32) * sign_extend(m, 32); break;
                    case mul_kind::smsubl: r = a - sign_extend(n, 32) * sign_extend(m, 32); break;
                    case mul_kind::umaddl: r = a + (n & 0xffffffffULL) * (m & 0xffffffffULL); break;
                    case mul_kind::umsubl: r = a - (n & 0xffffffffULL) * (m & 0xffffffffULL); break;
                    case mul_kind::smulh:
                        r = static_cast<std::uint64_t>((static_cast<__int128>(static_cast<std::int64_t>(n)) * static_cast<std::int64_t>(m)) >> 64);
                        break;
                    case mul_kind::umulh: r = static_cast<std::uint64_t>((static_cast<unsigned __int128>(n) * m) >> 64); break;
                }
                set(i.rd, r & mask, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::div: {
                // Division by zero gives 0, as the architecture says; the most
                // negative number over -1 gives itself.
                const std::uint64_t n = reg(i.rn) & mask, m = reg(i.rm) & mask;
                std::uint64_t r = 0;
                if (m == 0) r = 0;
                else if (!i.sign) r = n / m;
                else {
                    const std::int64_t sn = static_cast<std::int64_t>(sign_extend(n, bits)), sm = static_cast<std::int64_t>(sign_extend(m, bits));
                    r = sm == -1 ? 0 - static_cast<std::uint64_t>(sn) : static_cast<std::uint64_t>(sn / sm);
                }
                set(i.rd, r & mask, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::clz: case op::cls: {
                std::uint64_t v = reg(i.rn) & mask;
                unsigned count = 0;
                if (i.o == op::cls) {  // leading bits equal to the sign bit, the sign bit not counted
                    const bool s = (v >> (bits - 1)) & 1;
                    for (int b = static_cast<int>(bits) - 2; b >= 0 && (((v >> b) & 1) != 0) == s; --b) ++count;
                } else {
                    for (int b = static_cast<int>(bits) - 1; b >= 0 && !((v >> b) & 1); --b) ++count;
                }
                set(i.rd, count, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::rbit: {
                const std::uint64_t v = reg(i.rn) & mask;
                std::uint64_t r = 0;
                for (unsigned b = 0; b < bits; ++b) r |= ((v >> b) & 1) << (bits - 1 - b);
                set(i.rd, r, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::rev: {  // bytes reversed within each imm-byte container
                const std::uint64_t v = reg(i.rn) & mask;
                std::uint64_t r = 0;
                for (unsigned c = 0; c < bits / 8; c += static_cast<unsigned>(i.imm))
                    for (unsigned k = 0; k < i.imm; ++k) r |= ((v >> (8 * (c + k))) & 0xff) << (8 * (c + i.imm - 1 - k));
                set(i.rd, r & mask, i.wide);
                m_core.retire(insn_class::alu);
                break;
            }
            case op::ccmp:
                if (holds(i.c)) {
                    const std::uint64_t a = reg(i.rn), b = operand2(i);
                    if (i.invert) flags_add(a, b, false, i.wide);  // CCMN
                    else flags_add(a, ~b, true, i.wide);
                } else {
                    m_n = i.nzcv & 8, m_z = i.nzcv & 4, m_c = i.nzcv & 2, m_v = i.nzcv & 1;
                }
                m_core.retire(insn_class::alu);
                break;
            case op::undef: fault(i, "an undefined instruction: " + i.name + "; the core would take an undefined-instruction exception");
            case op::ldar: aligned(i, address(i), i.size), set(i.rd, m_core.load(address(i), i.size), i.wide); break;
            // RCpc: may pass an earlier STLR to another address, which the
            // model does not exploit (it orders LDAPR as LDAR: conservative).
            case op::ldapr: {
                aligned(i, address(i), i.size);
                const std::uint64_t v = m_core.load(address(i), i.size);
                set(i.rd, i.sign ? sign_extend(v, 8 * i.size) : v, i.wide);  // LDAPURS*: sign-extended
                break;
            }
            case op::str: case op::stlr:
                if (i.o == op::stlr) aligned(i, address(i), i.size);
                m_core.store(address(i), reg(i.rd), i.size, i.o == op::stlr);
                m_core.retire(insn_class::store);
                writeback(i);
                break;
            case op::ldxr: aligned(i, address(i), i.size), set(i.rd, m_core.load_exclusive(address(i), i.size), i.wide); break;
            case op::stxr: aligned(i, address(i), i.size), set(i.rs, m_core.store_exclusive(address(i), reg(i.rd), i.size) ? 0 : 1, false); break;
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
            case op::dczva: m_core.zero_line(reg(i.rn)); break;
        }
        if (checks & check_after) checks_after(i, pc, next);
        pc = next;
    }
}

}  // namespace cohsim

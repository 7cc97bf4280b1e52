#include "workloads/decoder.h"

#include <cstdio>
#include <string>

namespace cohsim::asmx {
namespace {

std::uint32_t bits(std::uint32_t w, unsigned hi, unsigned lo) { return (w >> lo) & ((1u << (hi - lo + 1)) - 1); }
bool bit(std::uint32_t w, unsigned b) { return (w >> b) & 1; }
std::int64_t sext(std::uint64_t v, unsigned width) {
    const std::uint64_t m = 1ULL << (width - 1);
    v &= (width == 64 ? ~0ULL : (1ULL << width) - 1);
    return static_cast<std::int64_t>((v ^ m) - m);
}

// Register names: 31 is the zero register or, where `sp_ok`, the stack pointer.
int reg_or_sp(std::uint32_t n, bool sp_ok) { return n == 31 && sp_ok ? sp : static_cast<int>(n); }
std::string rn(int n, bool wide) {
    if (n == sp) return wide ? "sp" : "wsp";
    if (n == zr) return wide ? "xzr" : "wzr";
    return (wide ? "x" : "w") + std::to_string(n);
}
std::string imm(std::int64_t v) { return "#" + std::to_string(v); }
std::string hex(std::uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "#0x%llx", static_cast<unsigned long long>(v));
    return b;
}
std::string rel(std::int64_t off) { return off < 0 ? ".-" + std::to_string(-off) : ".+" + std::to_string(off); }

const char* const cond_names[] = {"eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"};
cond to_cond(std::uint32_t c) { return c >= 14 ? cond::al : static_cast<cond>(c); }

const char* const shift_names[] = {"lsl", "lsr", "asr", "ror"};
shift to_shift(std::uint32_t s) {
    switch (s) {
        case 0: return shift::lsl;
        case 1: return shift::lsr;
        case 2: return shift::asr;
        default: return shift::ror;
    }
}
const char* const extend_names[] = {"uxtb", "uxth", "uxtw", "uxtx", "sxtb", "sxth", "sxtw", "sxtx"};
extend to_extend(std::uint32_t option) { return static_cast<extend>(option + 1); }

insn undefined(std::uint32_t w, const std::string& why) {
    insn i;
    i.o = op::undef;
    i.name = why;
    char b[32];
    std::snprintf(b, sizeof b, ".inst 0x%08x", w);
    i.text = b;
    i.imm = w;
    return i;
}

std::uint64_t ones(unsigned n) { return n >= 64 ? ~0ULL : (1ULL << n) - 1; }
std::uint64_t ror_e(std::uint64_t v, unsigned r, unsigned esize) {
    v &= ones(esize);
    if (r == 0) return v;
    return ((v >> r) | (v << (esize - r))) & ones(esize);
}
std::uint64_t replicate(std::uint64_t v, unsigned esize, unsigned datasize) {
    std::uint64_t out = 0;
    for (unsigned p = 0; p < datasize; p += esize) out |= v << p;
    return out;
}

// The architecture's DecodeBitMasks: the bitmask immediates of the logical
// instructions and the two masks of the bitfield moves. False when reserved.
bool decode_bit_masks(unsigned n, unsigned imms, unsigned immr, bool immediate, unsigned datasize, std::uint64_t& wmask,
                      std::uint64_t& tmask) {
    const unsigned combined = (n << 6) | (~imms & 0x3f);
    int len = -1;
    for (int b = 6; b >= 0; --b)
        if (combined & (1u << b)) {
            len = b;
            break;
        }
    if (len < 1) return false;
    const unsigned esize = 1u << len;
    if (esize > datasize) return false;
    const unsigned levels = esize - 1;
    if (immediate && (imms & levels) == levels) return false;
    const unsigned s = imms & levels, r = immr & levels, d = (s - r) & levels;
    const std::uint64_t welem = ones(s + 1), telem = ones(d + 1);
    wmask = replicate(ror_e(welem, r, esize), esize, datasize);
    tmask = replicate(telem, esize, datasize);
    return true;
}

insn dp_immediate(std::uint32_t w, std::uint64_t pc) {
    insn i;
    const bool wide = bit(w, 31);
    i.wide = wide;
    const std::uint32_t rd = bits(w, 4, 0), rnr = bits(w, 9, 5);
    switch (bits(w, 28, 23)) {
        case 0b100000: case 0b100001: {  // ADR, ADRP
            const std::int64_t off = sext((bits(w, 23, 5) << 2) | bits(w, 30, 29), 21);
            const bool page = bit(w, 31);
            i.o = op::mov, i.wide = true, i.rd = static_cast<int>(rd), i.has_imm = true;
            i.imm = page ? (pc & ~0xfffULL) + static_cast<std::uint64_t>(off * 4096) : pc + static_cast<std::uint64_t>(off);
            i.text = std::string(page ? "adrp " : "adr ") + rn(i.rd, true) + ", " + rel(page ? off * 4096 : off);
            return i;
        }
        case 0b100010: {  // ADD/SUB (immediate)
            const bool sub = bit(w, 30), s = bit(w, 29);
            i.o = sub ? op::sub : op::add, i.flags = s;
            i.rd = reg_or_sp(rd, !s), i.rn = reg_or_sp(rnr, true), i.has_imm = true;
            const unsigned sh = bit(w, 22) ? 12 : 0;
            if (bit(w, 23)) return undefined(w, "an ADD/SUB immediate with a reserved shift");
            i.imm = static_cast<std::uint64_t>(bits(w, 21, 10)) << sh;
            i.text = std::string(sub ? "sub" : "add") + (s ? "s " : " ") + rn(i.rd, wide) + ", " + rn(i.rn, wide) + ", " +
                     imm(bits(w, 21, 10)) + (sh ? ", lsl #12" : "");
            return i;
        }
        case 0b100100: {  // logical (immediate)
            const unsigned opc = bits(w, 30, 29);
            std::uint64_t wmask = 0, tmask = 0;
            if ((!wide && bit(w, 22)) || !decode_bit_masks(bit(w, 22), bits(w, 15, 10), bits(w, 21, 16), true, wide ? 64 : 32, wmask, tmask))
                return undefined(w, "a logical immediate with a reserved bitmask");
            static const op ops[] = {op::and_, op::orr, op::eor, op::and_};
            static const char* const names[] = {"and", "orr", "eor", "ands"};
            i.o = ops[opc], i.flags = opc == 3;
            i.rd = reg_or_sp(rd, opc != 3), i.rn = static_cast<int>(rnr), i.has_imm = true, i.imm = wmask;
            i.text = std::string(names[opc]) + " " + rn(i.rd, wide) + ", " + rn(i.rn, wide) + ", " + hex(wmask);
            return i;
        }
        case 0b100101: {  // move wide
            const unsigned opc = bits(w, 30, 29), hw = bits(w, 22, 21);
            if (opc == 1 || (!wide && hw > 1)) return undefined(w, "a reserved move-wide form");
            const std::uint64_t v = static_cast<std::uint64_t>(bits(w, 20, 5)) << (16 * hw);
            i.rd = static_cast<int>(rd), i.has_imm = true;
            if (opc == 3) {
                i.o = op::movk, i.imm = bits(w, 20, 5), i.sh_amount = 16 * hw;
            } else {
                i.o = op::mov, i.imm = opc == 0 ? (~v & (wide ? ~0ULL : 0xffffffffULL)) : v;
            }
            static const char* const names[] = {"movn", "", "movz", "movk"};
            i.text = std::string(names[opc]) + " " + rn(i.rd, wide) + ", " + imm(bits(w, 20, 5)) +
                     (hw ? ", lsl #" + std::to_string(16 * hw) : "");
            return i;
        }
        case 0b100110: {  // bitfield
            const unsigned opc = bits(w, 30, 29), immr = bits(w, 21, 16), imms = bits(w, 15, 10);
            if (opc == 3 || bit(w, 22) != wide || (!wide && (immr > 31 || imms > 31)))
                return undefined(w, "a reserved bitfield form");
            if (!decode_bit_masks(bit(w, 22), imms, immr, false, wide ? 64 : 32, i.mask_w, i.mask_t))
                return undefined(w, "a bitfield move with reserved masks");
            static const bf_kind kinds[] = {bf_kind::sbfm, bf_kind::bfm, bf_kind::ubfm};
            static const char* const names[] = {"sbfm", "bfm", "ubfm"};
            i.o = op::bfm, i.bf = kinds[opc], i.rd = static_cast<int>(rd), i.rn = static_cast<int>(rnr);
            i.sh_amount = immr, i.imm = imms;
            i.text = std::string(names[opc]) + " " + rn(i.rd, wide) + ", " + rn(i.rn, wide) + ", " + imm(immr) + ", " + imm(imms);
            return i;
        }
        case 0b100111: {  // EXTR
            const unsigned lsb = bits(w, 15, 10);
            if (bits(w, 30, 29) != 0 || bit(w, 21) || bit(w, 22) != wide || (!wide && lsb > 31))
                return undefined(w, "a reserved extract form");
            i.o = op::extr, i.rd = static_cast<int>(rd), i.rn = static_cast<int>(rnr), i.rm = static_cast<int>(bits(w, 20, 16));
            i.imm = lsb;
            i.text = "extr " + rn(i.rd, wide) + ", " + rn(i.rn, wide) + ", " + rn(i.rm, wide) + ", " + imm(lsb);
            return i;
        }
        default: return undefined(w, "an add/subtract-with-tags instruction (memory tagging, not modelled)");
    }
}

insn branch_system(std::uint32_t w, std::uint64_t pc) {
    insn i;
    auto target = [&](std::int64_t off) { i.dest = pc + static_cast<std::uint64_t>(off); return rel(off); };
    if (bits(w, 30, 26) == 0b00101) {  // B, BL
        i.o = bit(w, 31) ? op::bl : op::b;
        i.text = std::string(bit(w, 31) ? "bl " : "b ") + target(sext(bits(w, 25, 0), 26) * 4);
        return i;
    }
    if (bits(w, 30, 25) == 0b011010) {  // CBZ, CBNZ
        i.o = bit(w, 24) ? op::cbnz : op::cbz, i.wide = bit(w, 31), i.rd = static_cast<int>(bits(w, 4, 0));
        i.text = std::string(bit(w, 24) ? "cbnz " : "cbz ") + rn(i.rd, i.wide) + ", " + target(sext(bits(w, 23, 5), 19) * 4);
        return i;
    }
    if (bits(w, 30, 25) == 0b011011) {  // TBZ, TBNZ
        const unsigned b = (bit(w, 31) << 5) | bits(w, 23, 19);
        i.o = bit(w, 24) ? op::tbnz : op::tbz, i.wide = b >= 32, i.rd = static_cast<int>(bits(w, 4, 0)), i.imm = b;
        i.text = std::string(bit(w, 24) ? "tbnz " : "tbz ") + rn(i.rd, i.wide) + ", " + imm(b) + ", " +
                 target(sext(bits(w, 18, 5), 14) * 4);
        return i;
    }
    if (bits(w, 31, 24) == 0b01010100 && !bit(w, 4)) {  // B.cond
        i.o = op::bcond, i.c = to_cond(bits(w, 3, 0));
        i.text = std::string("b.") + cond_names[bits(w, 3, 0)] + " " + target(sext(bits(w, 23, 5), 19) * 4);
        return i;
    }
    if ((w & 0xff9ffc1fu) == 0xd61f0000u) {  // BR, BLR, RET
        const unsigned opc = bits(w, 22, 21);
        if (opc == 3) return undefined(w, "a reserved branch-to-register form");
        static const op ops[] = {op::br, op::blr, op::ret};
        static const char* const names[] = {"br", "blr", "ret"};
        i.o = ops[opc], i.rn = static_cast<int>(bits(w, 9, 5));
        i.text = std::string(names[opc]) + " " + rn(i.rn, true);
        return i;
    }
    if ((w & 0xfffff01fu) == 0xd503201fu) {  // the hints
        const unsigned h = bits(w, 11, 5);
        switch (h) {
            case 0: i.o = op::nop, i.text = "nop"; return i;
            case 1: i.o = op::yield, i.text = "yield"; return i;
            case 2: case 3: i.o = op::wfe, i.text = h == 2 ? "wfe" : "wfi"; return i;  // WFI: no interrupts to wait for but the ones that wake WFE
            case 4: i.o = op::sev, i.text = "sev"; return i;
            case 5: i.o = op::sevl, i.text = "sevl"; return i;
            case hint_mark_begin: case hint_mark_acquired: case hint_mark_release:
                i.o = op::mark;
                i.mark = h == hint_mark_begin ? mark_kind::lock_begin : h == hint_mark_acquired ? mark_kind::lock_acquired
                                                                                                 : mark_kind::lock_release;
                break;
            case hint_work: i.o = op::work, i.rn = hint_work_reg; break;
            case hint_work_jitter: i.o = op::work, i.rn = hint_work_reg, i.rm = hint_jitter_reg; break;
            case hint_region: i.o = op::region, i.rn = hint_work_reg; break;
            case hint_endregion: i.o = op::endregion; break;
            case hint_halt: i.o = op::halt; break;
            default: i.o = op::nop; break;  // the architecture's rule for hints a core does not implement
        }
        i.text = "hint " + hex(h);
        return i;
    }
    if ((w & 0xfffff01fu) == 0xd503301fu) {  // CLREX, DSB, DMB, ISB (every option)
        const unsigned op2 = bits(w, 7, 5), crm = bits(w, 11, 8);
        static const char* const options[] = {"#0x0", "oshld", "oshst", "osh", "#0x4", "nshld", "nshst", "nsh",
                                              "#0x8", "ishld", "ishst", "ish", "#0xc", "ld",    "st",    "sy"};
        switch (op2) {
            case 2: i.o = op::clrex, i.text = crm == 15 ? "clrex" : "clrex " + hex(crm); return i;
            case 4: case 5:
                if (op2 == 4 && (crm == 0 || crm == 4)) break;  // SSBB, PSSBB
                i.o = op::barrier, i.text = std::string(op2 == 4 ? "dsb " : "dmb ") + options[crm];
                return i;
            case 6: i.o = op::isb, i.text = crm == 15 ? "isb" : "isb " + hex(crm); return i;
            default: break;
        }
        return undefined(w, "a barrier cohsim does not model (SB, SSBB, TCOMMIT, ...)");
    }
    if ((w & 0xffffffe0u) == 0xd50b7420u) {  // DC ZVA, Xt (SYS #3, C7, C4, #1, Xt)
        i.o = op::dczva, i.rn = static_cast<int>(bits(w, 4, 0));
        i.text = "dc zva, " + rn(i.rn, true);
        return i;
    }
    if ((w & 0xfff00000u) == 0xd5300000u) {  // MRS
        const unsigned sysreg_bits = bits(w, 19, 5);
        i.o = op::mrs, i.rd = static_cast<int>(bits(w, 4, 0));
        switch (sysreg_bits) {
            case 0x5f02: i.sr = sysreg::cntvct, i.text = "mrs " + rn(i.rd, true) + ", cntvct_el0"; return i;
            case 0x5f01: i.sr = sysreg::cntpct, i.text = "mrs " + rn(i.rd, true) + ", cntpct_el0"; return i;
            case 0x5f00: i.sr = sysreg::cntfrq, i.text = "mrs " + rn(i.rd, true) + ", cntfrq_el0"; return i;
            default: return undefined(w, "MRS of a system register cohsim does not model (it has CNTVCT_EL0, CNTPCT_EL0, CNTFRQ_EL0)");
        }
    }
    if (bits(w, 31, 24) == 0b11010100) return undefined(w, "an exception-generating instruction (SVC, HVC, SMC, BRK, HLT)");
    return undefined(w, "a system instruction cohsim does not model (MSR, SYS, ...)");
}

// The address text: [xn], [xn, #imm], [xn, #imm]!, [xn], #imm.
// A register offset's amount is written when the S bit is set (`lsl #3`,
// `uxtw #2`, or `#0` for a byte), and UXTX without it is no extension at all.
std::string address_text(const insn& i, std::int64_t off, bool s_bit = false) {
    const std::string base = rn(i.rn, true);
    switch (i.am) {
        case addr_mode::offset: return off ? "[" + base + ", " + imm(off) + "]" : "[" + base + "]";
        case addr_mode::pre: return "[" + base + ", " + imm(off) + "]!";
        case addr_mode::post: return "[" + base + "], " + imm(off);
        case addr_mode::reg: break;
    }
    const bool x = i.ext == extend::uxtx || i.ext == extend::sxtx;
    std::string t = "[" + base + ", " + rn(i.rm, x);
    if (i.ext == extend::uxtx) return t + (s_bit ? ", lsl " + imm(i.sh_amount) : "") + "]";
    t += std::string(", ") + extend_names[static_cast<int>(i.ext) - 1];
    return t + (s_bit ? " " + imm(i.sh_amount) : "") + "]";
}

const char* size_suffix(unsigned size) { return size == 1 ? "b" : size == 2 ? "h" : ""; }

// Loads and stores: exclusives, acquire/release, pairs, single registers, LSE atomics.
insn load_store(std::uint32_t w, std::uint64_t pc) {
    insn i;
    const unsigned size_log = bits(w, 31, 30);
    const int rt = static_cast<int>(bits(w, 4, 0));
    i.rn = reg_or_sp(bits(w, 9, 5), true);
    if (bit(w, 26)) return undefined(w, "a SIMD&FP load or store");
    if (bits(w, 29, 24) == 0b001000) {  // exclusives, LDAR/STLR, CAS
        const bool o2 = bit(w, 23), l = bit(w, 22), o1 = bit(w, 21), o0 = bit(w, 15);
        const int rs = static_cast<int>(bits(w, 20, 16)), rt2 = static_cast<int>(bits(w, 14, 10));
        const unsigned size = 1u << size_log;
        i.size = size, i.wide = size == 8;
        const std::string sfx = size_suffix(size);
        const std::string addr = "[" + rn(i.rn, true) + "]";
        if (o2 && o1) {  // CAS
            if (rt2 != 31) return undefined(w, "a reserved CAS form");
            i.o = op::cas, i.acquire = l, i.release = o0, i.rs = rs, i.rd = rt;
            i.text = "cas" + std::string(l ? "a" : "") + (o0 ? "l" : "") + sfx + " " + rn(rs, i.wide) + ", " + rn(rt, i.wide) + ", " + addr;
            return i;
        }
        if (!o2 && o1 && size_log < 2) {  // CASP: the pairs (Rs, Rs+1) and (Rt, Rt+1), even registers
            if (rt2 != 31 || rs % 2 || rt % 2 || rs == 31 || rt == 31) return undefined(w, "a reserved CASP form (odd register pair)");
            i.o = op::casp, i.acquire = l, i.release = o0, i.rs = rs, i.rd = rt, i.rt2 = rt + 1;
            i.wide = size_log == 1, i.size = i.wide ? 8 : 4;
            i.text = "casp" + std::string(l ? "a" : "") + (o0 ? "l" : "") + " " + rn(rs, i.wide) + ", " + rn(rs + 1, i.wide) + ", " +
                     rn(rt, i.wide) + ", " + rn(rt + 1, i.wide) + ", " + addr;
            return i;
        }
        if (o2) {  // LDAR / STLR (and the LORegion LDLAR/STLLR, as them)
            i.o = l ? op::ldar : op::stlr, i.acquire = l, i.release = !l, i.rd = rt;
            if (!o0) return undefined(w, "LDLAR/STLLR (limited-ordering regions, not modelled)");
            i.text = std::string(l ? "ldar" : "stlr") + sfx + " " + rn(rt, i.wide) + ", " + addr;
            return i;
        }
        const bool pair = o1;
        if (pair) i.rt2 = rt2;  // LDXP/STXP: two registers of the size
        if (l) {
            i.o = pair ? op::ldxp : op::ldxr, i.acquire = o0, i.rd = rt;
            i.text = std::string(o0 ? "ldax" : "ldx") + (pair ? "p" : "r" + sfx) + " " + rn(rt, i.wide) + ", " +
                     (pair ? rn(rt2, i.wide) + ", " : "") + addr;
        } else {
            i.o = pair ? op::stxp : op::stxr, i.release = o0, i.rs = rs, i.rd = rt;
            i.text = std::string(o0 ? "stlx" : "stx") + (pair ? "p" : "r" + sfx) + " " + rn(rs, false) + ", " + rn(rt, i.wide) +
                     ", " + (pair ? rn(rt2, i.wide) + ", " : "") + addr;
        }
        return i;
    }
    if (bits(w, 29, 24) == 0b011000) {  // LDR (literal), LDRSW (literal), PRFM (literal)
        const std::int64_t off = sext(bits(w, 23, 5), 19) * 4;
        i.rn = zr, i.has_imm = true, i.imm = pc + static_cast<std::uint64_t>(off), i.rd = rt;
        switch (size_log) {
            case 0: case 1: i.o = op::ldr, i.size = size_log ? 8 : 4, i.wide = size_log == 1; break;
            case 2: i.o = op::ldr, i.size = 4, i.wide = true, i.sign = true; break;
            default: i.o = op::prfm, i.rd = bits(w, 4, 3) == 2 ? 1 : 0; break;
        }
        i.text = std::string(size_log == 2 ? "ldrsw " : size_log == 3 ? "prfm " : "ldr ") +
                 (size_log == 3 ? hex(rt) : rn(rt, i.wide)) + ", " + rel(off);
        return i;
    }
    if (bits(w, 29, 27) == 0b101) {  // LDP/STP (and LDNP/STNP, LDPSW)
        const unsigned opc = size_log, mode = bits(w, 24, 23);
        const bool l = bit(w, 22);
        if (opc == 3 || (opc == 1 && !l)) return undefined(w, "a reserved load/store pair form (or STGP)");
        if (opc == 1 && mode == 0) return undefined(w, "a reserved LDNP form");
        i.wide = opc != 0, i.size = opc == 2 ? 8 : 4, i.sign = opc == 1;
        i.o = l ? op::ldp : op::stp, i.rd = rt, i.rt2 = static_cast<int>(bits(w, 14, 10));
        static const addr_mode modes[] = {addr_mode::offset, addr_mode::post, addr_mode::offset, addr_mode::pre};
        i.am = modes[mode], i.has_imm = true;
        const std::int64_t off = sext(bits(w, 21, 15), 7) * i.size;
        i.imm = static_cast<std::uint64_t>(off);
        const char* name = mode == 0 ? (l ? "ldnp" : "stnp") : opc == 1 ? "ldpsw" : (l ? "ldp" : "stp");
        i.text = std::string(name) + " " + rn(rt, i.wide) + ", " + rn(i.rt2, i.wide) + ", " + address_text(i, off);
        return i;
    }
    if (bits(w, 29, 24) == 0b011001 && !bit(w, 21) && bits(w, 11, 10) == 0) {  // LDAPUR/STLUR (FEAT_LRCPC2)
        const unsigned opc = bits(w, 23, 22), size = 1u << size_log;
        if ((opc == 2 && size == 8) || (opc == 3 && size >= 4)) return undefined(w, "a reserved LDAPUR form");
        const std::int64_t off = sext(bits(w, 20, 12), 9);
        i.rcpc2 = true, i.has_imm = true, i.imm = static_cast<std::uint64_t>(off), i.rd = rt, i.size = size;
        i.sign = opc >= 2;
        i.wide = opc == 2 || (opc < 2 && size == 8);
        if (opc == 0) i.o = op::stlr, i.release = true;
        else i.o = op::ldapr, i.acquire = true;
        i.text = std::string(opc == 0 ? "stlur" : i.sign ? "ldapurs" : "ldapur") + (size == 4 && i.sign ? "w" : size_suffix(size)) + " " +
                 rn(rt, i.wide) + ", " + address_text(i, off);
        return i;
    }
    if (bits(w, 29, 27) != 0b111) return undefined(w, "a load/store form cohsim does not model");
    // Single registers: size and opc say which.
    const unsigned opc = bits(w, 23, 22);
    const unsigned size = 1u << size_log;
    bool s_bit = false;
    auto single = [&](std::int64_t off) -> insn {
        i.rd = rt;
        if (size_log == 3 && opc == 2) {
            i.o = op::prfm, i.rd = bits(w, 4, 3) == 2 ? 1 : 0, i.wide = true;
            i.text = (i.am == addr_mode::offset && bits(w, 25, 24) == 0 && !bit(w, 21) ? "prfum " : "prfm ") + hex(rt) + ", " +
                     address_text(i, off, s_bit);
            return i;
        }
        if (opc >= 2 && (size_log == 3 || (size_log == 2 && opc == 3)))
            return undefined(w, "a reserved load/store register form");
        i.size = size;
        i.o = opc == 0 ? op::str : op::ldr;
        i.sign = opc >= 2;
        i.wide = opc == 2 || (opc < 2 && size == 8);
        std::string name = opc == 0 ? "str" : opc == 1 ? "ldr" : "ldrs";
        name += size == 4 && i.sign ? "w" : size_suffix(size);
        const bool unscaled = i.am == addr_mode::offset && bits(w, 25, 24) == 0 && !bit(w, 21);
        if (unscaled) name.insert(2, "u");
        i.text = name + " " + rn(rt, i.wide) + ", " + address_text(i, off, s_bit);
        return i;
    };
    if (bits(w, 25, 24) == 0b01) {  // unsigned immediate, scaled
        const std::int64_t off = static_cast<std::int64_t>(bits(w, 21, 10)) * (size_log == 3 && opc == 2 ? 8 : size);
        i.has_imm = true, i.imm = static_cast<std::uint64_t>(off);
        return single(off);
    }
    if (!bit(w, 21)) {  // unscaled, post-index, unprivileged, pre-index (9-bit signed offset)
        const unsigned kind = bits(w, 11, 10);
        if (kind == 2) return undefined(w, "an unprivileged load/store (LDTR/STTR)");
        static const addr_mode modes[] = {addr_mode::offset, addr_mode::post, addr_mode::offset, addr_mode::pre};
        i.am = modes[kind];
        if (i.am != addr_mode::offset && size_log == 3 && opc == 2) return undefined(w, "a reserved prefetch form");
        const std::int64_t off = sext(bits(w, 20, 12), 9);
        i.has_imm = true, i.imm = static_cast<std::uint64_t>(off);
        return single(off);
    }
    if (bits(w, 11, 10) == 0b10) {  // register offset
        const unsigned option = bits(w, 15, 13);
        if (!(option & 2)) return undefined(w, "a reserved register-offset extension");
        i.am = addr_mode::reg, i.rm = static_cast<int>(bits(w, 20, 16)), i.ext = to_extend(option);
        i.sh_amount = bit(w, 12) ? (size_log == 3 && opc == 2 ? 3 : size_log) : 0;
        s_bit = bit(w, 12);
        return single(0);
    }
    if (bits(w, 11, 10) == 0b00) {  // the LSE atomics (and LDAPR)
        const bool a = bit(w, 23), r = bit(w, 22), o3 = bit(w, 15);
        const unsigned aop = bits(w, 14, 12);
        const int rs = static_cast<int>(bits(w, 20, 16));
        i.size = size, i.wide = size == 8, i.acquire = a, i.release = r, i.rs = rs, i.rd = rt;
        const std::string order = std::string(a ? "a" : "") + (r ? "l" : "");
        const std::string addr = "[" + rn(i.rn, true) + "]";
        if (o3 && aop == 4 && a && !r && rs == 31) {
            i.o = op::ldapr, i.rs = -1;
            i.text = std::string("ldapr") + size_suffix(size) + " " + rn(rt, i.wide) + ", " + addr;
            return i;
        }
        if (o3 && aop != 0) return undefined(w, "a reserved atomic memory form");
        static const op ops[] = {op::ldadd, op::ldclr, op::ldeor, op::ldset, op::ldsmax, op::ldsmin, op::ldumax, op::ldumin};
        static const char* const names[] = {"add", "clr", "eor", "set", "smax", "smin", "umax", "umin"};
        i.o = o3 ? op::swp : ops[aop];
        i.text = (o3 ? std::string("swp") : std::string("ld") + names[aop]) + order + size_suffix(size) + " " + rn(rs, i.wide) +
                 ", " + rn(rt, i.wide) + ", " + addr;
        return i;
    }
    return undefined(w, "a load/store form cohsim does not model");
}

insn dp_register(std::uint32_t w) {
    insn i;
    const bool wide = bit(w, 31);
    i.wide = wide;
    i.rd = static_cast<int>(bits(w, 4, 0)), i.rn = static_cast<int>(bits(w, 9, 5)), i.rm = static_cast<int>(bits(w, 20, 16));
    const std::string d = rn(i.rd, wide), n = rn(i.rn, wide), m = rn(i.rm, wide);
    const unsigned amount = bits(w, 15, 10);
    auto shifted = [&](unsigned sh) {
        i.sh = amount || sh ? to_shift(sh) : shift::none, i.sh_amount = amount;
        return amount || sh ? std::string(", ") + shift_names[sh] + " " + imm(amount) : std::string();
    };
    if (bits(w, 28, 24) == 0b01010) {  // logical (shifted register)
        if (!wide && bit(w, 15)) return undefined(w, "a reserved logical shift amount");
        const unsigned opc = bits(w, 30, 29);
        static const op ops[] = {op::and_, op::orr, op::eor, op::and_};
        static const char* const names[] = {"and", "orr", "eor", "ands", "bic", "orn", "eon", "bics"};
        i.o = ops[opc], i.flags = opc == 3, i.invert = bit(w, 21);
        i.text = std::string(names[opc + (i.invert ? 4 : 0)]) + " " + d + ", " + n + ", " + m + shifted(bits(w, 23, 22));
        return i;
    }
    if (bits(w, 28, 24) == 0b01011) {  // ADD/SUB shifted or extended register
        const bool sub = bit(w, 30), s = bit(w, 29);
        i.o = sub ? op::sub : op::add, i.flags = s;
        const std::string name = std::string(sub ? "sub" : "add") + (s ? "s" : "");
        if (!bit(w, 21)) {
            if (bits(w, 23, 22) == 3 || (!wide && bit(w, 15))) return undefined(w, "a reserved add/sub shift");
            i.text = name + " " + d + ", " + n + ", " + m + shifted(bits(w, 23, 22));
            return i;
        }
        const unsigned option = bits(w, 15, 13), sh = bits(w, 12, 10);
        if (bits(w, 23, 22) != 0 || sh > 4) return undefined(w, "a reserved add/sub extension");
        i.rd = reg_or_sp(bits(w, 4, 0), !s), i.rn = reg_or_sp(bits(w, 9, 5), true);
        i.ext = to_extend(option), i.sh_amount = sh;
        const bool x = (option & 3) == 3;
        i.text = name + " " + rn(i.rd, wide) + ", " + rn(i.rn, wide) + ", " + rn(i.rm, wide && x) + ", " + extend_names[option] +
                 (sh ? " " + imm(sh) : "");
        return i;
    }
    const unsigned top = bits(w, 28, 21);
    if (top == 0b11010010) {  // CCMP, CCMN
        if (!bit(w, 29) || bit(w, 10) || bit(w, 4)) return undefined(w, "a reserved conditional compare");
        i.o = op::ccmp, i.invert = !bit(w, 30), i.c = to_cond(bits(w, 15, 12)), i.nzcv = static_cast<std::uint8_t>(bits(w, 3, 0));
        i.rd = -1;
        if (bit(w, 11)) i.has_imm = true, i.imm = bits(w, 20, 16), i.rm = -1;
        i.text = std::string(bit(w, 30) ? "ccmp " : "ccmn ") + n + ", " + (bit(w, 11) ? imm(bits(w, 20, 16)) : m) + ", " +
                 imm(bits(w, 3, 0)) + ", " + cond_names[bits(w, 15, 12)];
        return i;
    }
    if (top == 0b11010100) {  // CSEL, CSINC, CSINV, CSNEG
        const unsigned op2 = bits(w, 11, 10);
        if (bit(w, 29) || op2 > 1) return undefined(w, "a reserved conditional select");
        static const csel_kind kinds[] = {csel_kind::sel, csel_kind::inc, csel_kind::inv, csel_kind::neg};
        static const char* const names[] = {"csel", "csinc", "csinv", "csneg"};
        const unsigned k = (bit(w, 30) << 1) | op2;
        i.o = op::csel, i.ck = kinds[k], i.c = to_cond(bits(w, 15, 12));
        if (bits(w, 15, 12) == 15) return undefined(w, "a conditional select on `nv` (cohsim reads it as `al`)");
        i.text = std::string(names[k]) + " " + d + ", " + n + ", " + m + ", " + cond_names[bits(w, 15, 12)];
        return i;
    }
    if (bits(w, 28, 24) == 0b11011) {  // data processing, three sources
        const unsigned op31 = bits(w, 23, 21);
        const bool o0 = bit(w, 15);
        i.rs = static_cast<int>(bits(w, 14, 10));  // Ra
        mul_kind k;
        const char* name = nullptr;
        switch (op31) {
            case 0: k = o0 ? mul_kind::msub : mul_kind::madd, name = o0 ? "msub" : "madd"; break;
            case 1: k = o0 ? mul_kind::smsubl : mul_kind::smaddl, name = o0 ? "smsubl" : "smaddl"; break;
            case 5: k = o0 ? mul_kind::umsubl : mul_kind::umaddl, name = o0 ? "umsubl" : "umaddl"; break;
            case 2: k = mul_kind::smulh, name = "smulh"; break;
            case 6: k = mul_kind::umulh, name = "umulh"; break;
            default: return undefined(w, "a reserved multiply");
        }
        if (bits(w, 30, 29) != 0 || (op31 != 0 && !wide) || ((op31 == 2 || op31 == 6) && (o0 || i.rs != 31)))
            return undefined(w, "a reserved multiply");
        i.o = op::mul, i.mk = k;
        const bool longs = op31 == 1 || op31 == 5;
        i.text = std::string(name) + " " + d + ", " + rn(i.rn, wide && !longs) + ", " + rn(i.rm, wide && !longs);
        if (op31 != 2 && op31 != 6) i.text += ", " + rn(i.rs, wide);
        else i.rs = -1;
        return i;
    }
    if (top == 0b11010110) {
        const unsigned opcode = bits(w, 15, 10);
        if (bit(w, 29)) return undefined(w, "a reserved data-processing form");
        if (!bit(w, 30)) {  // two sources
            switch (opcode) {
                case 2: case 3: i.o = op::div, i.sign = opcode == 3; break;
                case 8: i.o = op::lsl; break;
                case 9: i.o = op::lsr; break;
                case 10: i.o = op::asr; break;
                case 11: i.o = op::ror; break;
                default: return undefined(w, "a two-source instruction cohsim does not model (CRC32, PACGA, ...)");
            }
            static const char* const names[] = {"", "", "udiv", "sdiv", "", "", "", "", "lslv", "lsrv", "asrv", "rorv"};
            i.text = std::string(names[opcode]) + " " + d + ", " + n + ", " + m;
            return i;
        }
        if (bits(w, 20, 16) != 0) return undefined(w, "a one-source instruction cohsim does not model (pointer authentication)");
        i.rm = -1;
        switch (opcode) {
            case 0: i.o = op::rbit, i.text = "rbit"; break;
            case 1: i.o = op::rev, i.imm = 2, i.text = "rev16"; break;
            case 2: i.o = op::rev, i.imm = wide ? 4 : 4, i.text = wide ? "rev32" : "rev"; break;
            case 3:
                if (!wide) return undefined(w, "a reserved REV form");
                i.o = op::rev, i.imm = 8, i.text = "rev";
                break;
            case 4: i.o = op::clz, i.text = "clz"; break;
            case 5: i.o = op::cls, i.text = "cls"; break;
            default: return undefined(w, "a one-source instruction cohsim does not model");
        }
        i.text += " " + d + ", " + n;
        return i;
    }
    return undefined(w, "a data-processing instruction cohsim does not model (ADC/SBC, RMIF, SETF, ...)");
}

}  // namespace

insn decode(std::uint32_t w, std::uint64_t pc) {
    const unsigned op0 = bits(w, 28, 25);
    insn i;
    if ((op0 & 0b1110) == 0b1000) i = dp_immediate(w, pc);
    else if ((op0 & 0b1110) == 0b1010) i = branch_system(w, pc);
    else if ((op0 & 0b0101) == 0b0100) i = load_store(w, pc);
    else if ((op0 & 0b0111) == 0b0101) i = dp_register(w);
    else if ((op0 & 0b0111) == 0b0111) i = undefined(w, "a SIMD or floating-point instruction");
    else i = undefined(w, w == 0 ? "a zero word (UDF #0: padding, or code that is not there)" : "an unallocated or reserved encoding");
    return i;
}

}  // namespace cohsim::asmx

// The AArch64 decoder: one 32-bit instruction word (A64, little-endian) to
// the instruction form the interpreter runs (workloads/program.h), with its
// text in the canonical GNU assembler syntax (base forms, not aliases:
// `orr x0, xzr, x1` for `mov x0, x1`; branch targets as `.+N`).
//
// Decoded: what compiled lock code and the Linux arm64 lock, atomic and
// cmpxchg code use (docs/guide/locks.md, "Instructions"):
//   data processing, immediate: ADR/ADRP, ADD/SUB(S) immediate, AND/ORR/EOR/ANDS
//     immediate (bitmask immediates), MOVZ/MOVN/MOVK, SBFM/BFM/UBFM, EXTR;
//   data processing, register: logical shifted register (AND/BIC/ORR/ORN/EOR/
//     EON/ANDS/BICS), ADD/SUB(S) shifted and extended register, CCMP/CCMN
//     (register and immediate), CSEL/CSINC/CSINV/CSNEG, MADD/MSUB/SMADDL/
//     SMSUBL/UMADDL/UMSUBL/SMULH/UMULH, UDIV/SDIV, LSLV/LSRV/ASRV/RORV, RBIT/
//     REV16/REV32/REV/CLZ/CLS;
//   branches and system: B/BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, BR/BLR/RET, the
//     hints (NOP, YIELD, WFE, SEV, SEVL; WFI as WFE; the rest as NOP, as the
//     architecture says; cohsim's own, below), CLREX, DMB/DSB (every option),
//     ISB, MRS of CNTVCT_EL0/CNTPCT_EL0/CNTFRQ_EL0;
//   loads and stores: LDR/STR (B, H, W, X; LDRSB/LDRSH/LDRSW) with unsigned,
//     unscaled, pre- and post-indexed immediate and register offsets, LDR
//     literal, LDP/STP/LDPSW/LDNP/STNP, PRFM, LDAR/STLR (B, H, W, X), LDAPR,
//     LDAPUR/LDAPURS*/STLUR (Armv8.4's RCpc with an offset),
//     LDXR/LDAXR/STXR/STLXR, LDXP/LDAXP/STXP/STLXP, CAS(A)(L) (B, H, W, X), CASP,
//     SWP and the LD<op>s (ADD, CLR, EOR, SET, SMAX, SMIN, UMAX, UMIN) with
//     every ordering and size.
// Not decoded (op::undef; running one stops the run with the reason): SIMD
// and floating point, ADC/SBC, exception generation (SVC, BRK, ...),
// MSR and other system registers, pointer authentication, memory tags.
//
// cohsim's hints: HINT #0x70..#0x77 are unallocated in the architecture, so
// real cores (and qemu-aarch64) run them as NOP; cohsim reads them as its
// directives (workloads/include/cohsim.h):
//   hint #0x70 / #0x71 / #0x72   mark lock_begin / lock_acquired / lock_release
//   hint #0x73                   work x16 (cycles)
//   hint #0x74                   halt
//   hint #0x75                   work x16 plus 0..x17 cycles, uniform (`work N, M`)
//   hint #0x76 / #0x77           region (its name: the C string x16 points at) / endregion
#pragma once

#include <cstdint>

#include "workloads/program.h"

namespace cohsim::asmx {

constexpr unsigned hint_mark_begin = 0x70, hint_mark_acquired = 0x71, hint_mark_release = 0x72, hint_work = 0x73,
                   hint_halt = 0x74, hint_work_jitter = 0x75, hint_region = 0x76, hint_endregion = 0x77;
constexpr int hint_work_reg = 16, hint_jitter_reg = 17;  // `hint #0x73` works for as many cycles as x16 holds

// Decodes the word at address `pc`. Branches carry their target address in
// `dest` (the loader turns it into an instruction index); PC-relative
// addresses (ADR, ADRP, LDR literal) are resolved to absolute ones. A word
// that is not one of the instructions above gives op::undef, its reason in
// `name`, its text `.inst 0x...`.
insn decode(std::uint32_t word, std::uint64_t pc);

}  // namespace cohsim::asmx

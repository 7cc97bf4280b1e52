// Programs for simulated cores: a small Armv8-flavoured assembly language,
// its assembler, and the decoded form the interpreter runs.
//
// Syntax (one statement per line; `//`, `;` and `@` start comments):
//   label:                       a code or data label
//   mnemonic operands            AArch64 spelling: x0..x30, w0..w30, xzr/wzr,
//                                #imm (decimal, 0x hex, or an .equ name),
//                                [xN] / [xN, #imm] addresses, `, lsl|lsr|ror #n`
//                                on a last register operand
//   .equ NAME, value             a constant; a scenario may override it
//   .include "file.s"            textual include, found by find_source()
//   .macro name a, b ... .endm   a macro; \a \b in its body are replaced
//   .data / .text                data or code follows
//   .shared / .private           data symbols shared by all cores (default)
//                                or one copy per core
//   .align N                     align the next data to N bytes
//   .byte/.hword/.word/.quad v   1/2/4/8-byte data; .space N zero bytes
// Instructions: ldr/str (b/h/w/x by suffix and register), ldar/stlr,
// ldxr/ldaxr/stxr/stlxr, cas/casa/casl/casal, ldadd/swp/ldset with a/l/al
// forms, stadd/staddl, prfm pstl1strm|pstl1keep, dc zva, dmb/dsb, clrex, wfe/sev/sevl/
// yield/nop, add/sub/and/orr/eor/lsl/lsr/ror/mov/cmp/adr, b, b.cond,
// cbz/cbnz, tbz/tbnz, bl/ret.
// Simulator directives (written as instructions):
//   work N | work xN             N cycles of compute (or as many as xN holds)
//   work N, M                    between N and M cycles, uniform, drawn from the
//                                core's seeded stream (timing that varies run to run
//                                on real hardware: branch history, cache state)
//   mark lock_begin | lock_acquired | lock_release
//                                what the metrics read
//   region NAME / endregion      a named region for the function profile
//   halt                         the core stops (sleeps for good)
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/config_tree.h"

namespace cohsim::asmx {

enum class op : std::uint8_t {
    nop, yield, wfe, sev, sevl, clrex, barrier, work, mark, region, endregion, halt,
    mov, add, sub, and_, orr, eor, lsl, lsr, ror, cmp, adr, mvn, csel, isb, mrs,
    b, bcond, cbz, cbnz, tbz, tbnz, bl, ret,
    ldr, str, ldar, ldapr, stlr, ldxr, stxr, cas, ldadd, swp, ldset, ldclr, ldeor, ldsmax, ldsmin, ldumax, ldumin, prfm,
    dczva,  // DC ZVA, xN: zero the line (64 bytes) holding xN, without reading it
    // Decoded from machine code (workloads/decoder.h) only, so far:
    movk, asr, bfm, extr, mul, div, clz, cls, rbit, rev, ccmp, br, blr, ldp, stp, ldxp, stxp, casp,
    undef  // not an instruction cohsim runs: executing it stops the run (`name` says why)
};

// The LSE read-modify-writes (FEAT_LSE, Armv8.1), and LDAPR (FEAT_LRCPC).
inline bool is_lse(op o) {
    return o == op::cas || o == op::casp || o == op::ldadd || o == op::swp || o == op::ldset || o == op::ldclr || o == op::ldeor ||
           o == op::ldsmax || o == op::ldsmin || o == op::ldumax || o == op::ldumin;
}

// csel's family: rd = cond ? rn : f(rm), f by kind (CSINC: rm + 1, CSINV: ~rm, CSNEG: -rm).
enum class csel_kind : std::uint8_t { sel, inc, inv, neg };
// The system registers MRS reads: the generic timer's counter and frequency.
enum class sysreg : std::uint8_t { cntvct, cntpct, cntfrq };

enum class cond : std::uint8_t { eq, ne, hs, lo, mi, pl, vs, vc, hi, ls, ge, lt, gt, le, al };
enum class shift : std::uint8_t { none, lsl, lsr, ror, asr };
// A register operand's extension (ADD/SUB extended register, register-offset
// addresses): the low byte/half/word/all of it, zero- or sign-extended, then
// shifted left by sh_amount.
enum class extend : std::uint8_t { none, uxtb, uxth, uxtw, uxtx, sxtb, sxth, sxtw, sxtx };
// Addressing: [xn, #imm]; [xn, #imm]! (pre-index, xn updated first);
// [xn], #imm (post-index, xn updated after); [xn, rm{, extend #amount}].
enum class addr_mode : std::uint8_t { offset, pre, post, reg };
// The bitfield moves: SBFM (sign-extends), BFM (inserts), UBFM (zero-extends).
enum class bf_kind : std::uint8_t { sbfm, bfm, ubfm };
// The multiplies: MADD/MSUB (ra +/- rn*rm), their widening forms from w
// registers, and the high halves of the 128-bit product.
enum class mul_kind : std::uint8_t { madd, msub, smaddl, smsubl, umaddl, umsubl, smulh, umulh };
enum class mark_kind : std::uint8_t { lock_begin, lock_acquired, lock_release };

constexpr int zr = 31;  // xzr/wzr
constexpr int sp = 32;  // the stack pointer (register 31 as a base address or in ADD/SUB immediate)

struct insn {
    op o = op::nop;
    int rd = -1, rn = -1, rm = -1, rs = -1;  // register numbers; 31 = zero register
    bool wide = true;                         // x (64-bit) or w (32-bit) data registers
    unsigned size = 8;                        // memory access size in bytes
    bool acquire = false, release = false;
    bool has_imm = false;
    std::uint64_t imm = 0;
    std::uint64_t imm_hi = 0;                 // work N, M: the upper bound (0 = fixed)
    shift sh = shift::none;
    unsigned sh_amount = 0;
    cond c = cond::al;
    std::size_t target = 0;  // branch target (instruction index)
    mark_kind mark = mark_kind::lock_begin;
    csel_kind ck = csel_kind::sel;
    sysreg sr = sysreg::cntvct;
    // Decoded forms: S (set flags: ADDS/SUBS/ANDS/BICS), N (invert operand 2:
    // BIC/ORN/EON; for ccmp: CCMN), a second data register (pairs), a signed
    // load or divide, the operand's extension, the addressing mode.
    bool flags = false, invert = false, sign = false;
    bool rcpc2 = false;  // LDAPUR/STLUR: an ldapr/stlr with an unscaled offset (FEAT_LRCPC2)
    int rt2 = -1;
    extend ext = extend::none;
    addr_mode am = addr_mode::offset;
    bf_kind bf = bf_kind::ubfm;
    mul_kind mk = mul_kind::madd;
    std::uint8_t nzcv = 0;   // ccmp: the flags when the condition fails
    std::uint64_t mask_w = 0, mask_t = 0;  // bfm: the wmask and tmask of DecodeBitMasks; sh_amount = R, imm = S
    std::uint64_t dest = 0;  // a decoded branch's target address (target is its index when inside the program)
    std::string name;        // region name
    cfg::source_loc loc;
    std::string text;        // the source statement, for messages and traces
};

struct data_symbol {
    std::string name;
    bool priv = false;           // one copy per core
    std::uint64_t offset = 0;    // in the shared or the private area
};

struct program {
    std::vector<insn> code;
    std::map<std::string, std::size_t> labels;  // code labels
    std::vector<data_symbol> symbols;
    std::vector<std::uint8_t> shared_init, private_init;  // initial data
    std::map<std::string, std::int64_t> constants;        // .equ, after overrides
    std::size_t entry = 0;
    std::string file;
    // Machine code (an ELF file, workloads/elf.h): code[k] is at code_base +
    // 4k; BL writes that address to x30 and RET/BR/BLR jump to one. Its
    // loadable segments are written into memory at their own addresses.
    // Text programs have code_base 0.
    bool machine_code = false;
    std::uint64_t code_base = 0;
    struct segment {
        std::uint64_t addr;
        std::vector<std::uint8_t> bytes;
    };
    std::vector<segment> image;
    std::map<std::string, std::uint64_t> objects;  // machine code: its data symbols' addresses
    // Machine code: true at the last instruction of each function (from its
    // symbol's size); running on from there is running off its end.
    std::vector<bool> function_end;
};

// Assembles `file`. `overrides` replace .equ values of the same names (a
// scenario's parameters); an override naming no .equ is an error. Throws
// cfg::config_error "FILE:LINE:COL: STATEMENT: what is wrong (expected ...)".
// The built-in library: file names relative to workloads/ (e.g.
// "locks/ticket_llsc.s") to their text. Assembling "lib:NAME" reads from
// it, and so do that file's includes.
const std::map<std::string, std::string>& library();

// The most cycles one `work` takes (a second at 1GHz; with the longest run,
// 3600 s, simulated time stays far inside SystemC's 64-bit femtoseconds).
constexpr std::uint64_t max_work_cycles = 1'000'000'000;

// Where a program or an `.include "NAME"` is found; the first match wins:
//   1. "lib:NAME": the built-in library only (e.g. "lib:locks/loop.s");
//   2. an absolute NAME as it is;
//   3. DIR/NAME, DIR being the including file's folder (for a workload's
//      program, the config file's folder);
//   4. the built-in library (workloads/: "locks/loop.s", "locks/ticket_llsc.s");
//   5. each folder of `search` in order (workload.include_path, then
//      --include-path / $COHSIM_INCLUDE_PATH).
// Returns a file path or "lib:NAME"; nullopt when found nowhere.
std::optional<std::string> find_source(const std::string& name, const std::string& dir,
                                       const std::vector<std::string>& search);
// "NAME" found nowhere: the places looked at, and a library file of the same
// name if there is one (for the error message).
std::string not_found_text(const std::string& name, const std::string& dir, const std::vector<std::string>& search);

program assemble_file(const std::string& file, const std::map<std::string, std::int64_t>& overrides = {},
                      const std::vector<std::string>& search = {});
program assemble_text(const std::string& text, const std::string& name,
                      const std::map<std::string, std::int64_t>& overrides = {});

}  // namespace cohsim::asmx

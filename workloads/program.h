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
// forms, stadd/staddl, prfm pstl1strm|pstl1keep, dmb/dsb, clrex, wfe/sev/sevl/
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
    ldr, str, ldar, ldapr, stlr, ldxr, stxr, cas, ldadd, swp, ldset, ldclr, ldeor, ldsmax, ldsmin, ldumax, ldumin, prfm
};

// The LSE read-modify-writes (FEAT_LSE, Armv8.1), and LDAPR (FEAT_LRCPC).
inline bool is_lse(op o) {
    return o == op::cas || o == op::ldadd || o == op::swp || o == op::ldset || o == op::ldclr || o == op::ldeor ||
           o == op::ldsmax || o == op::ldsmin || o == op::ldumax || o == op::ldumin;
}

// csel's family: rd = cond ? rn : f(rm), f by kind (CSINC: rm + 1, CSINV: ~rm, CSNEG: -rm).
enum class csel_kind : std::uint8_t { sel, inc, inv, neg };
// The system registers MRS reads: the generic timer's counter and frequency.
enum class sysreg : std::uint8_t { cntvct, cntpct, cntfrq };

enum class cond : std::uint8_t { eq, ne, hs, lo, mi, pl, vs, vc, hi, ls, ge, lt, gt, le, al };
enum class shift : std::uint8_t { none, lsl, lsr, ror };
enum class mark_kind : std::uint8_t { lock_begin, lock_acquired, lock_release };

constexpr int zr = 31;  // xzr/wzr

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

// Litmus tests in herd7's AArch64 format, and the harness program that runs
// one many times on simulated cores (`cohsim litmus`).
//
// A test:
//   AArch64 NAME
//   "optional description"            (and (* comments *) or // to the end of
//                                     a line, anywhere)
//   { 0:X1=x; 1:X1=x; x=0; }          initial registers (a location's address
//                                     or a number) and locations (default 0),
//                                     over one line or many; C declarations as
//                                     herd7 writes them: int x=1; uint64_t y;
//    P0            | P1            ;  one column per thread, `;` ends a row
//    LDXR W0,[X1]  | MOV W2,#1     ;
//    ...
//   locations [x; 0:X4;]              (optional) more values to report
//   filter (0:X0=1)                   (optional) runs it does not hold for
//                                     are left out of the counts
//   exists (0:X0=0 /\ x=1)            or ~exists (...), forall (...); atoms
//                                     compare with a number or a location's
//                                     address (1:X2=x);
//                                     T:Xn=V, LOC=V, [LOC]=V; /\ \/ ~ ( )
// A comment `(* expect: Never *)` (or Sometimes, Always) states the verdict
// derived from the architecture's rules; `cohsim litmus --check` fails when
// the runs contradict it. `expect: Allowed`: the architecture permits the
// outcome, and whether a platform shows it is what the runs report (no
// observation contradicts it).
//
// The harness (one program for every thread, the thread chosen by the .equ
// TID): each iteration, every thread meets the others at a barrier, touches
// its pre-warm locations (a load for a Shared copy, PRFM PSTL1KEEP for a
// Unique one), meets them again, waits a random 0..JITTER cycles (the core's
// seeded stream), sets its registers, runs its column, stores the registers
// the condition reads into the iteration's record and meets the others a
// third time; thread 0 then records the locations and puts their initial
// values back. Each location is on its own cache line. The harness uses
// x20-x25 and x30: a test may use x0-x19.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

namespace cohsim::litmus {

// A value a condition reads: thread `thread`'s register, or a location.
struct observable {
    int thread = -1;  // -1: a location
    int reg = 0;
    std::string location;
    std::string text() const;  // "0:X4" or "x"
    bool operator<(const observable& o) const {
        // registers first, by thread, then locations (herd7's order)
        const int a = thread < 0 ? 1 << 30 : thread, b = o.thread < 0 ? 1 << 30 : o.thread;
        return a != b ? a < b : thread >= 0 ? reg < o.reg : location < o.location;
    }
    bool operator==(const observable& o) const { return !(*this < o) && !(o < *this); }
};

struct expr {
    enum kind_t { atom, and_, or_, not_, true_, false_ } kind = true_;
    observable what;
    std::uint64_t value = 0;
    std::vector<std::unique_ptr<expr>> args;
};

enum class quantifier { exists, not_exists, forall };

struct test {
    std::string file, name, doc;
    std::vector<std::string> locations;                      // in first-mention order
    std::map<std::string, std::uint64_t> location_init;      // default 0
    std::vector<std::map<int, std::string>> reg_init;        // per thread: register -> location or number
    std::vector<std::vector<std::string>> code;              // per thread: its lines
    std::vector<std::set<int>> registers;                    // per thread: the registers its code names
    quantifier q = quantifier::exists;
    std::string condition_text;                              // as written, after the quantifier
    std::unique_ptr<expr> condition;
    std::string filter_text;                                 // `filter COND`, as written; "" none
    std::unique_ptr<expr> filter;                            // null: every run counts
    std::vector<observable> observed;                        // what each run records, sorted
    std::string expect;                                      // "", "Never", "Sometimes", "Always" or "Allowed"
    int threads() const { return static_cast<int>(code.size()); }
};

// Parses a test; throws cfg::config_error "FILE:LINE: what is wrong (expected ...)".
test parse(const std::string& text, const std::string& file);

// One run's final values, in the order of test::observed. A register that
// holds the address of one of the test's locations is recorded as that
// location's token (herd7 prints it as the name: `1:X2=x`), so that a
// condition can ask for it whatever the harness's layout.
using outcome = std::vector<std::uint64_t>;
constexpr std::uint64_t address_token_base = 0xADD4E55000000000ULL;
inline std::uint64_t address_token(std::size_t location) { return address_token_base + location; }
bool holds(const expr& e, const test& t, const outcome& o);
// "0:X0=1; 1:X2=0; x=2;" (herd7's state line).
std::string state_text(const test& t, const outcome& o);

struct harness_options {
    std::uint64_t iterations = 100;
    std::uint64_t jitter = 0;  // cycles, the most a thread waits before its column
    // Per thread: per location, 0 none, 1 a load (Shared), 2 PRFM PSTL1KEEP (Unique).
    std::vector<std::map<std::string, int>> prewarm;
};

// The harness program (assembly for cohsim's assembler); run it with
// `.equ TID` set per thread. The records sit at the shared symbol
// `litmus_results`: LITMUS_ITERATIONS of them (an .equ), each LITMUS_OBSERVED
// quads (test::observed's values); `litmus_done` counts the threads that
// have finished.
std::string harness_program(const test& t, const harness_options& o);

}  // namespace cohsim::litmus

// Runs an assembled program on a core: architectural registers and flags,
// one instruction at a time, memory instructions through the core's
// operations (and so through the memory system), everything else as local
// compute time. `mark` instructions feed a lock_metrics and the shared
// mutex_checker (lock_metrics.h); `region` feeds a region_profile.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>
#include <stdexcept>
#include <string>

#include "models/core.h"
#include "workloads/lock_metrics.h"
#include "workloads/program.h"

namespace cohsim {

class interpreter {
public:
    // `shared_base` and `private_base` are where the program's .shared and
    // .private data live for this core.
    interpreter(core& c, const asmx::program& p, std::uint64_t shared_base, std::uint64_t private_base,
                lock_metrics* metrics, mutex_checker* mutex, region_profile* profile = nullptr);

    // The core's program: runs until `halt` or for ever.
    void run();

    std::uint64_t reg(int n) const { return n == asmx::zr || n < 0 ? 0 : m_x[n]; }  // n < 0: no such operand
    // Machine code: the thread's stack (sp starts at `top`; below `bottom` is
    // an overflow, which stops the run) and its first argument (x0).
    void set_stack(std::uint64_t bottom, std::uint64_t top) { m_stack_bottom = bottom, m_x[asmx::sp] = top; }
    void set_argument(std::uint64_t x0) { m_x[0] = x0; }
    void set_entry(std::size_t pc) { m_entry = pc; }  // where run() starts (the program's entry unless set)
    std::uint64_t retired() const { return m_retired; }

private:
    void run_program();
    // Waits for the load in flight to register n, if any, and writes its data
    // (inline: asked for every operand, it mostly finds none).
    void use(int n) {
        if (n >= 0 && n < asmx::zr && (m_pending_mask >> n & 1)) use_pending(n);
    }
    void use_pending(int n);
    void use_all();
    void set(int n, std::uint64_t v, bool wide);
    std::uint64_t operand2(const asmx::insn& i) const;
    bool holds(asmx::cond c) const;
    std::uint64_t address(const asmx::insn& i) const;
    void writeback(const asmx::insn& i);  // pre- and post-index: the base register moves
    // The instruction index of code address `to`, for BR/BLR/RET; a fault
    // when it is not in the program.
    std::size_t jump(const asmx::insn& i, std::uint64_t to) const;
    // Exclusives, acquire/release and atomics at an address that is not a
    // multiple of their size: the alignment fault a real core takes.
    void aligned(const asmx::insn& i, std::uint64_t addr, unsigned size) const;
    void flags_add(std::uint64_t a, std::uint64_t b, bool carry, bool wide);
    void loads_to(int n, std::uint64_t addr, const asmx::insn& i);  // LDR's issue, not waited for
    [[noreturn]] void fault(const asmx::insn& i, const std::string& what) const;
    // An instruction of a feature the core lacks (the architecture's undefined
    // instruction): `lacks` says so after the core's architecture, `advice` follows.
    [[noreturn]] void feature_fault(const asmx::insn& i, const std::string& feature, const std::string& lacks,
                                    const std::string& advice = "") const;

    core& m_core;
    const asmx::program& m_prog;
    std::uint64_t m_shared, m_private;
    lock_metrics* m_metrics;
    mutex_checker* m_mutex;
    region_profile* m_profile;
    std::uint64_t m_x[33] = {};  // x0..x30, (31: the zero register, never written), sp
    std::uint64_t m_stack_bottom = 0;
    std::size_t m_entry = 0;
    struct pending {
        int ticket = -1;  // the core's load ticket, -1 = the register holds its value
        bool wide = true;
        unsigned sign_bits = 0;  // LDRS*: sign-extend from this many bits
    };
    pending m_pending[32];
    std::uint32_t m_pending_mask = 0;  // bit n: register n has a load in flight
    bool m_n = false, m_z = false, m_c = false, m_v = false;
    std::uint64_t m_retired = 0;
    bool m_lse;   // the core has LSE atomics (Armv8.1+)
    bool m_rcpc;  // the core has LDAPR (FEAT_LRCPC)
    bool m_rcpc2;  // and LDAPUR/STLUR (FEAT_LRCPC2)
    // Per instruction, the checks it needs, worked out once so that the rest
    // run with no test: before it runs (an LSE or RCpc instruction: the core's
    // features, the access's alignment), after it (the last of a function, a
    // direct branch out of the program, a write to sp).
    enum : std::uint8_t { check_before = 1, check_after = 2 };
    std::vector<std::uint8_t> m_checks;
    void checks_before(const asmx::insn& i) const;
    void checks_after(const asmx::insn& i, std::size_t pc, std::size_t next) const;
    duration m_time_at_check;  // the core's time when m_retired last crossed a multiple of 2^20
};

}  // namespace cohsim

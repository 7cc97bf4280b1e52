// The interpreter: each instruction's effect on registers, flags, memory
// and time.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <map>

#include "platform_fixture.h"
#include "stress.h"
#include "workloads/interpreter.h"
#include "workloads/scenario.h"
#include "workloads/trace.h"

using namespace cohsim;
using namespace cohsim::testing;

namespace {

struct run_result {
    std::vector<std::uint64_t> x;
    std::uint64_t retired = 0;
};

// Runs `text` on little.0 and returns its registers.
run_result run_program(const std::string& text, system_model& sys) {
    static asmx::program prog;
    prog = asmx::assemble_text(text, "test.s");
    for (std::size_t i = 0; i < prog.shared_init.size(); ++i) sys.memory().poke(shared_base + i, 1, prog.shared_init[i]);
    static std::unique_ptr<interpreter> it;
    core& c = *sys.find_core("little.0");
    it = std::make_unique<interpreter>(c, prog, shared_base, private_base, nullptr, nullptr);
    c.set_program([&](core&) { it->run(); });
    run_for_fs(100'000'000'000ULL);
    run_result r;
    for (int n = 0; n < 32; ++n) r.x.push_back(it->reg(n));
    r.retired = it->retired();
    return r;
}

}  // namespace

TEST(Interpreter, ArithmeticLogicShiftsAndWidths) {
    system_model sys(test_platform());
    const auto r = run_program(R"(
        mov x1, #5
        add x2, x1, #3
        sub w3, w1, #6          // 32-bit wrap, zero-extended
        lsl x4, x1, #4
        ror w5, w1, #1
        lsr x6, x4, #2
        mov x7, #0xf0
        and x8, x7, #0x3c
        orr x9, x7, #0x0f
        eor w10, w1, w1, ror #16
        eor x11, x1, x4, lsl #1
        mov x12, xzr
        add xzr, x1, #1         // writes to the zero register vanish
        halt
    )", sys);
    EXPECT_EQ(r.x[2], 8u);
    EXPECT_EQ(r.x[3], 0xffffffffu);
    EXPECT_EQ(r.x[4], 80u);
    EXPECT_EQ(r.x[5], 0x80000002u);
    EXPECT_EQ(r.x[6], 20u);
    EXPECT_EQ(r.x[8], 0x30u);
    EXPECT_EQ(r.x[9], 0xffu);
    EXPECT_EQ(r.x[10], 0x50005u);  // 5 ^ (5 ror 16) in 32 bits
    EXPECT_EQ(r.x[11], 5u ^ 160u);
    EXPECT_EQ(r.x[12], 0u);
    EXPECT_EQ(r.retired, 14u);
}

TEST(Interpreter, BranchesFlagsAndCalls) {
    system_model sys(test_platform());
    const auto r = run_program(R"(
        mov x1, #3
        mov x2, #0
    loop:
        add x2, x2, #10
        sub x1, x1, #1
        cbnz x1, loop           // three times
        mov x3, #7
        cmp x3, #7
        b.ne wrong
        cmp x3, #9
        b.hs wrong              // 7 < 9 unsigned
        b.ge wrong
        mov w4, #0
        sub w4, w4, #1          // -1
        cmp w4, #0
        b.gt wrong              // signed: -1 > 0 is false
        b.hi next               // unsigned: 0xffffffff > 0
        b wrong
    next:
        tbz x3, #3, bit3clear   // 7 has bit 3 clear
        b wrong
    bit3clear:
        tbnz x3, #0, call
        b wrong
    call:
        bl fn
        mov x6, #1
        halt
    wrong:
        mov x9, #1
        halt
    fn:
        mov x5, #42
        ret
    )", sys);
    EXPECT_EQ(r.x[2], 30u);
    EXPECT_EQ(r.x[5], 42u);
    EXPECT_EQ(r.x[6], 1u);
    EXPECT_EQ(r.x[9], 0u) << "a branch went the wrong way";
}

TEST(Interpreter, MemoryExclusivesAndAtomics) {
    system_model sys(test_platform(lse_cores()));
    const auto r = run_program(R"(
    .data
    .align 64
    w: .quad 0x1122334455667788
    v: .quad 10
    .text
        adr x0, w
        ldr x1, [x0]
        ldr w2, [x0]
        ldrh w3, [x0, #2]
        ldrb w4, [x0, #7]
        mov x5, #0xab
        strb w5, [x0, #1]
        ldr x6, [x0]
        adr x0, v
        ldxr x7, [x0]
        add x7, x7, #1
        stxr w8, x7, [x0]       // succeeds: 0
        stxr w9, x7, [x0]       // no reservation: 1
        mov x10, #11
        mov x11, #20
        cas x10, x11, [x0]      // 11 == 11: v = 20, x10 = 11
        mov x12, #5
        mov x13, #30
        cas x12, x13, [x0]      // 20 != 5: v stays, x12 = 20
        mov x14, #3
        ldadd x14, x15, [x0]    // v = 23, x15 = 20
        mov x16, #0x100
        ldset x16, x17, [x0]    // v = 0x117, x17 = 23
        mov x18, #1
        swp x18, x19, [x0]      // v = 1, x19 = 0x117
        stadd x18, [x0]         // v = 2
        ldar x20, [x0]
        ldxr x21, [x0]
        clrex                   // opens the monitor: the STXR fails, v stays 2
        add x21, x21, #40
        stxr w22, x21, [x0]
        ldr x23, [x0]
        ldxr x24, [x0]
        clrex
        ldxr x24, [x0]          // a new reservation after CLREX: succeeds
        stxr w25, xzr, [x0]
        ldr x26, [x0]
        halt
    )", sys);
    EXPECT_EQ(r.x[1], 0x1122334455667788u);
    EXPECT_EQ(r.x[2], 0x55667788u);
    EXPECT_EQ(r.x[3], 0x5566u);
    EXPECT_EQ(r.x[4], 0x11u);
    EXPECT_EQ(r.x[6], 0x112233445566ab88u);
    EXPECT_EQ(r.x[8], 0u);
    EXPECT_EQ(r.x[9], 1u);
    EXPECT_EQ(r.x[10], 11u);
    EXPECT_EQ(r.x[12], 20u);
    EXPECT_EQ(r.x[15], 20u);
    EXPECT_EQ(r.x[17], 23u);
    EXPECT_EQ(r.x[19], 0x117u);
    EXPECT_EQ(r.x[20], 2u);
    EXPECT_EQ(r.x[22], 1u);  // CLREX: the store-exclusive fails ...
    EXPECT_EQ(r.x[23], 2u);  // ... and writes nothing
    EXPECT_EQ(r.x[25], 0u);
    EXPECT_EQ(r.x[26], 0u);
}

TEST(Interpreter, WorkAdvancesOnlyLocalTime) {
    system_model sys(test_platform());
    const std::uint64_t e0 = kernel::events();
    const auto r = run_program("work 400\nwork 400\nnop\nhalt\n", sys);  // 801 cycles = 0.96 us
    (void)r;
    // 801 cycles of compute cost one catch-up wait (before idling at halt),
    // never one per instruction: one resumption at 0.96 us (it cannot run
    // ahead: at time 0 the other cores are still to start). The other
    // resumptions are the four cores' starts; the three idle cores sleep in WFE
    // and cost nothing more. All of it in one activation of the SystemC kernel.
    EXPECT_EQ(kernel::switches(), 4u + 1u);
    EXPECT_EQ(kernel::events() - e0, 1u);
}

TEST(Interpreter, WorkRangeDrawsFromTheCoresSeededStream) {
    // 1000 draws of `work 100, 200`: the time they take equals the sum of
    // the core's own stream (drawn again here, independently), every draw
    // lies in [100, 200] cycles and the mean is near 150 (uniform).
    system_model sys(test_platform());
    core& c = *sys.find_core("little.0");
    random_stream expected = c.random();  // a copy, before the program draws
    const auto prog = asmx::assemble_text("mov x1, #1000\nloop: work 100, 200\nsub x1, x1, #1\ncbnz x1, loop\nhalt\n", "t.s");
    interpreter it(c, prog, shared_base, private_base, nullptr, nullptr);
    duration finished;
    c.set_program([&](core& self) {
        it.run();
        finished = self.local_time();
    });
    run_for_fs(1'000'000'000'000ULL);  // 1 ms; the loop takes ~0.22 ms
    std::uint64_t sum = 0, lo = ~0ULL, hi = 0;
    for (int i = 0; i < 1000; ++i) {
        const std::uint64_t d = expected.between(100, 200);
        sum += d, lo = std::min(lo, d), hi = std::max(hi, d);
    }
    EXPECT_EQ(lo, 100u);
    EXPECT_EQ(hi, 200u);
    EXPECT_NEAR(static_cast<double>(sum) / 1000, 150.0, 3.0);
    // mov + 1000 x (work + sub + cbnz) at the preset's costs, from time 0.
    const clock_domain little("little", frequency{832'000'000});
    const auto& t = c.params();
    const std::uint64_t total = t.alu.value().n * 1001 + t.branch.value().n * 1000 + sum;
    EXPECT_EQ(finished.fs, little.edge_after(duration{}, cycles{total}).fs);
}

TEST(Interpreter, InstructionCostsComeFromTheClusterTiming) {
    // The preset gives 1 cycle per ALU instruction; the config can override it.
    system_model sys(test_platform({"clusters.little.timing={wfe_wake_latency: 4cycles, alu: 3cycles, branch: 2cycles}"}));
    EXPECT_EQ(sys.find_core("big.0")->params().alu->n, 1u);  // preset
    static asmx::program prog;
    prog = asmx::assemble_text("add x1, x1, #1\nadd x1, x1, #1\neor x2, x1, x1\nb next\nnext: halt\n", "t.s");
    core& c = *sys.find_core("little.0");
    duration before, after;
    static std::unique_ptr<interpreter> it;
    it = std::make_unique<interpreter>(c, prog, shared_base, private_base, nullptr, nullptr);  // the core charges the cycles
    c.set_program([&](core& self) {
        before = self.local_time();
        it->run();
        after = self.local_time();
    });
    run_for_fs(10'000'000'000ULL);
    const clock_domain L("little", frequency{832'000'000});
    EXPECT_EQ(after.fs, L.edge_after(before, cycles{3 * 3 + 2}).fs);  // three ALU ops, one branch
}

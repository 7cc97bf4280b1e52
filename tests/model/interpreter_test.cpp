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

// DC ZVA zeroes the whole 64-byte line holding its address (any address in
// it), and nothing beyond: the next line keeps its data.
TEST(Interpreter, DcZvaZeroesTheLineHoldingItsAddress) {
    system_model sys(test_platform());
    const auto r = run_program(R"(
    .data
    .align 64
    a: .quad 1
    .quad 2
    .quad 3
    .quad 4
    .quad 5
    .quad 6
    .quad 7
    .quad 8
    b: .quad 9
    .text
        adr x0, a
        add x1, x0, #40         // any address in the line
        dc zva, x1
        ldr x2, [x0]
        ldr x3, [x0, #56]
        adr x4, b
        ldr x5, [x4]
        halt
    )", sys);
    EXPECT_EQ(r.x[2], 0u);
    EXPECT_EQ(r.x[3], 0u);
    EXPECT_EQ(r.x[5], 9u);
    EXPECT_EQ(sys.memory().l1_state(0, r.x[0]), protocol::cstate::M);
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

TEST(Interpreter, TheLseFamilyConditionalSelectsAndTheCounter) {
    // Each expected value is worked by hand from the Arm ARM's definitions.
    system_model sys(test_platform(lse_cores()));  // A55 + A75: LSE and RCpc
    const auto r = run_program(R"(
    .data
    .align 64
    v: .quad 0xf0
    s: .quad -5
    b: .byte 0x80           // -128 as a signed byte
    .text
        adr x0, v
        mov x1, #0x30
        ldclr x1, x2, [x0]      // x2 = 0xf0; v = 0xf0 & ~0x30 = 0xc0
        mov x1, #0xff
        ldeoral x1, x3, [x0]    // x3 = 0xc0; v = 0xc0 ^ 0xff = 0x3f
        mov x1, #0x40
        ldumax x1, x4, [x0]     // x4 = 0x3f; v = max(0x3f, 0x40) = 0x40
        mov x1, #0x10
        ldumina x1, x5, [x0]    // x5 = 0x40; v = 0x10
        adr x6, s
        mov x1, #3
        ldsmax x1, x7, [x6]     // x7 = -5; s = max(-5, 3) = 3
        mov x1, #-7
        ldsminl x1, x8, [x6]    // x8 = 3; s = -7
        adr x9, b
        mov w1, #1
        ldsmaxb w1, w10, [x9]   // w10 = 0x80 (zero-extended byte); b = max(-128, 1) = 1
        mov w1, #0xff
        stumaxb w1, [x9]        // b = max(1, 0xff) = 0xff, unsigned
        ldarb w11, [x9]
        ldr x12, [x0]
        ldar x13, [x6]
        cmp x12, #0x10
        cset x14, eq            // 1
        csel x15, x2, x3, ne    // ne fails: x3 = 0xc0
        csinc x16, x2, x3, ne   // x3 + 1 = 0xc1
        csinv x17, x2, x3, eq   // eq holds: x2 = 0xf0
        csneg x18, x2, x3, ne   // -0xc0
        mvn x19, x2             // ~0xf0
        neg x20, x2             // -0xf0
        cinc x21, x2, eq        // eq holds: 0xf1
        csetm w22, eq           // 0xffffffff
        cneg x23, x2, ne        // ne fails: 0xf0
        mrs x24, cntfrq_el0     // the platform's 1.92 MHz
        isb
        ldapr x25, [x0]         // 0x10
        work 41600              // 50 us at 832 MHz
        mrs x26, cntvct_el0     // 50 us of 1.92 MHz ticks (96), and a few ns more
        halt
    )", sys);
    EXPECT_EQ(r.x[2], 0xf0u);
    EXPECT_EQ(r.x[3], 0xc0u);
    EXPECT_EQ(r.x[4], 0x3fu);
    EXPECT_EQ(r.x[5], 0x40u);
    EXPECT_EQ(r.x[7], static_cast<std::uint64_t>(-5));
    EXPECT_EQ(r.x[8], 3u);
    EXPECT_EQ(r.x[10], 0x80u);
    EXPECT_EQ(r.x[11], 0xffu);
    EXPECT_EQ(r.x[12], 0x10u);
    EXPECT_EQ(r.x[13], static_cast<std::uint64_t>(-7));
    EXPECT_EQ(r.x[14], 1u);
    EXPECT_EQ(r.x[15], 0xc0u);
    EXPECT_EQ(r.x[16], 0xc1u);
    EXPECT_EQ(r.x[17], 0xf0u);
    EXPECT_EQ(r.x[18], static_cast<std::uint64_t>(-0xc0));
    EXPECT_EQ(r.x[19], ~std::uint64_t{0xf0});
    EXPECT_EQ(r.x[20], static_cast<std::uint64_t>(-0xf0));
    EXPECT_EQ(r.x[21], 0xf1u);
    EXPECT_EQ(r.x[22], 0xffffffffu);
    EXPECT_EQ(r.x[23], 0xf0u);
    EXPECT_EQ(r.x[24], 1920000u);
    EXPECT_EQ(r.x[25], 0x10u);
    EXPECT_EQ(r.x[26], 96u);
}

TEST(Interpreter, LdaprOnACoreWithoutRcpcStopsTheRun) {
    system_model sys(test_platform());  // little: Cortex-A53, Armv8.0
    const auto r = run_program(".data\nv: .quad 1\n.text\n adr x0, v\n ldapr x1, [x0]\n halt\n", sys);
    (void)r;
    const std::string what = sys.program_fault();
    EXPECT_NE(what.find("ldapr x1, [x0]: LDAPR (FEAT_LRCPC"), std::string::npos) << what;
    EXPECT_NE(what.find("on a cortex-a53 (Armv8.0, without it)"), std::string::npos) << what;
}

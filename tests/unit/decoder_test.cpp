// The AArch64 decoder against the Debian cross-compiler's own assembler:
// every line below is assembled by aarch64-linux-gnu-as, each word decoded
// and its text compared with the line (the decoder prints base forms in GNU
// syntax, so the line is the expected text, written by hand). Lines the
// cohsim assembly language also takes are assembled by cohsim too, and the
// two decoded forms must agree field by field.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "workloads/decoder.h"
#include "workloads/elf.h"

using namespace cohsim;
using namespace cohsim::asmx;

namespace {

namespace fs = std::filesystem;

const char* const lines[] = {
    // data processing, immediate
    "add x0, x1, #16", "add w3, w4, #4095, lsl #12", "adds x5, x6, #1", "sub sp, sp, #64", "subs wzr, w1, #7",
    "add x29, sp, #0", "and x0, x1, #0xff", "orr w2, wzr, #0x1", "eor x3, x4, #0xffff0000ffff0000", "ands w5, w6, #0x80000000",
    "and sp, x1, #0xfffffffffffffff0", "movz x0, #4660", "movz w1, #1, lsl #16", "movn x2, #0", "movn w3, #5",
    "movk x4, #48879, lsl #48", "movk w5, #7", "sbfm x0, x1, #0, #31", "bfm w2, w3, #28, #3", "ubfm x4, x5, #60, #59",
    "ubfm w6, w7, #8, #8", "extr x8, x9, x10, #13", "extr w11, w12, w13, #31", "adr x0, .+16", "adr x1, .-8",
    "adrp x2, .+8192",
    // data processing, register
    "and x0, x1, x2", "bic w3, w4, w5, lsl #3", "orr x6, xzr, x7", "orn x8, x9, x10, asr #63", "eor w11, w12, w13, ror #31",
    "eon x14, x15, x16", "ands x17, x18, x19, lsr #1", "bics w20, w21, w22", "add x0, x1, x2, lsl #2",
    "sub w3, w4, w5, asr #7", "adds x6, x7, x8", "subs xzr, x9, x10", "add x11, sp, w12, uxtw #2",
    "sub sp, sp, x13, uxtx", "adds w14, w15, w16, sxtb", "subs x17, x18, w19, sxtw #3", "ccmp x0, x1, #2, ne",
    "ccmp w2, #31, #0, eq", "ccmn x3, #1, #8, lt", "csel x0, x1, x2, eq", "csinc w3, w4, w5, ne", "csinv x6, x7, x8, hs",
    "csneg w9, w10, w11, gt", "madd x0, x1, x2, x3", "msub w4, w5, w6, w7", "smaddl x8, w9, w10, x11",
    "umsubl x12, w13, w14, x15", "smulh x16, x17, x18", "umulh x19, x20, x21", "udiv w0, w1, w2", "sdiv x3, x4, x5",
    "lslv x6, x7, x8", "lsrv w9, w10, w11", "asrv x12, x13, x14", "rorv w15, w16, w17", "rbit x0, x1", "rev16 w2, w3",
    "rev32 x4, x5", "rev w6, w7", "rev x8, x9", "clz w10, w11", "cls x12, x13",
    // branches and system
    "b .+8", "bl .-4", "b.eq .+12", "b.ne .-16", "b.hs .+4", "b.le .+0", "cbz x0, .+8", "cbnz w1, .-8",
    "tbz w2, #3, .+8", "tbnz x3, #63, .-12", "br x16", "blr x1", "ret x30", "ret x5", "nop", "yield", "wfe", "wfi", "sev",
    "sevl", "hint #0x70", "hint #0x71", "hint #0x72", "hint #0x73", "hint #0x74", "hint #0x22", "clrex", "dmb ish",
    "dmb ishld", "dmb ishst", "dmb sy", "dsb sy", "dsb ish", "dmb oshld", "isb", "mrs x0, cntvct_el0", "mrs x1, cntpct_el0",
    "mrs x2, cntfrq_el0", "dc zva, x3", "dc zva, xzr",
    // loads and stores
    "ldr x0, [x1]", "ldr w2, [x3, #4]", "ldrb w4, [x5, #4095]", "ldrh w6, [sp, #2]", "ldrsb x7, [x8]", "ldrsh w9, [x10, #6]",
    "ldrsw x11, [x12, #8]", "str x13, [sp, #8]", "strb wzr, [x14]", "strh w15, [x16, #2]", "ldur x0, [x1, #-8]",
    "sturb w2, [x3, #1]", "ldursw x4, [x5, #-4]", "ldr x6, [x7, #16]!", "str w8, [sp, #-16]!", "ldr x9, [x10], #8",
    "strh w11, [x12], #-2", "ldr x0, [x1, x2]", "ldr x3, [x4, x5, lsl #3]", "ldr w6, [x7, w8, uxtw #2]",
    "ldrb w9, [x10, w11, sxtw]", "ldrb w0, [x1, x2, lsl #0]", "strh w12, [x13, x14, sxtx #1]", "ldr x0, .+8", "ldr w1, .-4", "ldrsw x2, .+12",
    "prfm #0x11, [x0]", "prfm #0x0, [x1, #64]", "prfum #0x10, [x2, #-8]", "ldp x29, x30, [sp], #16",
    "stp x29, x30, [sp, #-32]!", "stp x19, x20, [sp, #16]", "ldp w0, w1, [x2, #8]", "ldpsw x3, x4, [x5]",
    "ldnp x6, x7, [x8]", "stnp w9, w10, [x11, #-8]", "ldar x0, [x1]", "ldarb w2, [x3]", "ldarh w4, [x5]", "stlr w6, [x7]",
    "stlrh w8, [sp]", "ldapr x9, [x10]", "ldaprb w11, [x12]", "ldxr x0, [x1]", "ldaxr w2, [x3]", "ldxrb w4, [x5]",
    "ldaxrh w6, [x7]", "stxr w8, x9, [x10]", "stlxr w11, w12, [x13]", "stxrb w14, w15, [x16]", "stlxrh w17, w18, [x19]",
    "ldxp x0, x1, [x2]", "ldaxp w3, w4, [x5]", "stxp w6, x7, x8, [x9]", "stlxp w10, w11, w12, [x13]", "cas x0, x1, [x2]",
    "casa w3, w4, [x5]", "casl x6, x7, [x8]", "casal w9, w10, [x11]", "casab w12, w13, [x14]", "casalh w15, w16, [x17]",
    "swp x0, x1, [x2]", "swpal w3, w4, [x5]", "swpab w6, w7, [x8]", "ldadd x0, x1, [x2]", "ldadda w3, w4, [x5]",
    "ldaddl x6, x7, [x8]", "ldaddal w9, w10, [x11]", "ldaddh w12, wzr, [x13]", "ldclral x0, x1, [x2]", "ldeorb w3, w4, [x5]",
    "ldsetl w6, w7, [x8]", "ldsmaxa x9, x10, [x11]", "ldsminh w12, w13, [x14]", "ldumaxal x15, x16, [x17]",
    "lduminlb w18, w19, [x20]", "ldaddal x0, x1, [sp]", "casp x0, x1, x2, x3, [x4]", "caspal w6, w7, w8, w9, [x10]",
    "caspa x12, x13, x14, x15, [sp]", "stlur x1, [x6, #32]", "stlurb w2, [x3, #-1]", "stlurh w4, [sp]",
    "ldapur w5, [x6, #4]", "ldapurb w7, [x8]", "ldapursw x9, [x10, #-8]", "ldapursh w11, [x12, #2]", "ldapursb x13, [x14, #255]",
};

// Where the cross-compiler's binutils are (the build found them; PATH otherwise).
#ifndef COHSIM_CROSS_PREFIX
#define COHSIM_CROSS_PREFIX ""
#endif
std::string tool(const std::string& name) { return std::string(COHSIM_CROSS_PREFIX) + name; }

#define NEED_BINUTILS() \
    if (!*COHSIM_CROSS_PREFIX) GTEST_SKIP() << "no aarch64-linux-gnu binutils (sh scripts/setup.sh installs them)"

// The source lines as one text, one statement a line.
template <std::size_t N>
std::string joined(const char* const (&lines)[N]) {
    std::string text;
    for (const char* l : lines) text += std::string(l) + "\n";
    return text;
}

// Assembles `text` with GNU as and returns the .text words.
std::vector<std::uint32_t> assemble_gnu(const std::string& text) {
    const fs::path dir = fs::temp_directory_path() / ("cohsim-decoder-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "t.s") << ".text\n" << text;
    // Linked at address 0, so that ADRP's page offset is resolved as the decoder reads it.
    const std::string d = dir.string() + "/";
    const std::string cmd = tool("as") + " -march=armv8.4-a -o " + d + "t.o " + d + "t.s && " + tool("ld") + " -e 0 -Ttext=0 -o " + d +
                            "t.elf " + d + "t.o && " + tool("objcopy") + " -O binary -j .text " + d + "t.elf " + d + "t.bin";
    if (std::system(cmd.c_str()) != 0) {
        ADD_FAILURE() << "the cross assembler failed: " << cmd;
        return {};
    }
    std::ifstream in(dir / "t.bin", std::ios::binary);
    std::vector<std::uint32_t> words;
    for (std::uint32_t w; in.read(reinterpret_cast<char*>(&w), 4);) words.push_back(w);
    fs::remove_all(dir);
    return words;
}

}  // namespace

TEST(Decoder, EveryFormDecodesToTheTextTheCrossAssemblerEncoded) {
    NEED_BINUTILS();
    const auto words = assemble_gnu(joined(lines));
    ASSERT_EQ(words.size(), std::size(lines));
    for (std::size_t k = 0; k < words.size(); ++k) {
        const insn i = decode(words[k], 4 * k);
        EXPECT_NE(i.o, op::undef) << lines[k] << ": " << i.name;
        EXPECT_EQ(i.text, lines[k]) << "word " << std::hex << words[k];
    }
}

// Where the cohsim assembly language has the same instruction, both paths
// give the same operation, registers, width, size, ordering and immediate.
TEST(Decoder, AgreesWithTheCohsimAssemblerOnTheirCommonInstructions) {
    NEED_BINUTILS();
    const char* const common[] = {
        "add x0, x1, #16", "and x0, x1, x2", "eor w11, w12, w13, ror #31", "ldr x0, [x1]", "ldr w2, [x3, #4]",
        "ldrb w4, [x5, #4095]", "str x13, [x2, #8]", "strb wzr, [x14]", "ldar x0, [x1]", "ldarh w4, [x5]", "stlr w6, [x7]",
        "ldapr x9, [x10]", "ldxr x0, [x1]", "ldaxr w2, [x3]", "ldaxrh w6, [x7]", "stxr w8, x9, [x10]",
        "stlxr w11, w12, [x13]", "cas x0, x1, [x2]", "casal w9, w10, [x11]", "casab w12, w13, [x14]", "swpal w3, w4, [x5]",
        "ldadd x0, x1, [x2]", "ldaddal w9, w10, [x11]", "ldclral x0, x1, [x2]", "ldsmaxa x9, x10, [x11]",
        "lduminlb w18, w19, [x20]", "csel x0, x1, x2, eq", "csinc w3, w4, w5, ne", "csinv x6, x7, x8, hs",
        "csneg w9, w10, w11, gt", "mrs x0, cntvct_el0", "mrs x2, cntfrq_el0", "nop", "yield", "wfe", "sev", "sevl", "clrex",
        "isb", "dc zva, x3"};
    const std::string text = joined(common);
    const auto words = assemble_gnu(text);
    ASSERT_EQ(words.size(), std::size(common));
    const program p = assemble_text(text + "halt\n", "common.s");
    for (std::size_t k = 0; k < words.size(); ++k) {
        const insn d = decode(words[k], 4 * k);
        const insn& a = p.code[k];
        SCOPED_TRACE(common[k]);
        EXPECT_EQ(d.o, a.o);
        EXPECT_EQ(d.rd, a.rd);
        EXPECT_EQ(d.rn, a.rn);
        EXPECT_EQ(d.rm, a.rm);
        EXPECT_EQ(d.rs, a.rs);
        EXPECT_EQ(d.wide, a.wide);
        EXPECT_EQ(d.acquire, a.acquire);
        EXPECT_EQ(d.release, a.release);
        if (d.o != op::ldr && d.o != op::str) {  // [xn] is [xn, #0] either way
            EXPECT_EQ(d.has_imm, a.has_imm);
        }
        EXPECT_EQ(d.imm, a.imm);
        EXPECT_EQ(d.c, a.c);
        EXPECT_EQ(d.ck, a.ck);
        EXPECT_EQ(d.sr, a.sr);
        EXPECT_EQ(d.sh, a.sh);
        EXPECT_EQ(d.sh_amount, a.sh_amount);
        if (d.o != op::csel && d.o != op::mrs && d.o != op::and_ && d.o != op::eor && d.o != op::add) {
            EXPECT_EQ(d.size, a.size);
        }
    }
}

TEST(Decoder, BitmaskImmediatesAndPcRelativeAddressesByHand) {
    // and x0, x1, #0xff: N=1, immr=0, imms=7 (eight ones in a 64-bit element).
    EXPECT_EQ(decode(0x92401c20, 0).imm, 0xffULL);
    // orr w0, wzr, #0x55555555: N=0, immr=0, imms=0b111100 (one 1 in each 2-bit element).
    const insn o = decode(0x3200f3e0, 0);
    EXPECT_EQ(o.o, op::orr);
    EXPECT_EQ(o.imm, 0x55555555ULL);
    // adrp x2, one page on from 0x401234: 0x402000; adr x1, -8 from 0x1000: 0xff8.
    EXPECT_EQ(decode(0xb0000002, 0x401234).imm, 0x402000ULL);
    EXPECT_EQ(decode(0x10ffffc1, 0x1000).imm, 0xff8ULL);
    // b .-4 at 0x400010 jumps to 0x40000c.
    EXPECT_EQ(decode(0x17ffffff, 0x400010).dest, 0x40000cULL);
    // sub sp, sp, #64 names the stack pointer; subs xzr (cmp) the zero register.
    EXPECT_EQ(decode(0xd10103ff, 0).rd, asmx::sp);
    EXPECT_EQ(decode(0xeb02003f, 0).rd, asmx::zr);
}

TEST(Decoder, WhatItDoesNotModelIsUndefinedWithAReason) {
    EXPECT_EQ(decode(0x00000000, 0).o, op::undef);  // udf #0
    EXPECT_NE(decode(0x00000000, 0).name.find("zero word"), std::string::npos);
    const insn fp = decode(0x1e602820, 0);  // fadd d0, d1, d0
    EXPECT_EQ(fp.o, op::undef);
    EXPECT_NE(fp.name.find("floating"), std::string::npos);
    EXPECT_EQ(fp.text, ".inst 0x1e602820");
    const insn casp = decode(0x48217c82, 0);  // casp x1, x2, x2, x3, [x4]: the first pair starts odd
    EXPECT_EQ(casp.o, op::undef);
    EXPECT_NE(casp.name.find("CASP"), std::string::npos);
    EXPECT_EQ(decode(0xd4000001, 0).o, op::undef);  // svc #0
    EXPECT_EQ(decode(0xd51be000, 0).o, op::undef);  // msr cntfrq_el0, x0
    EXPECT_EQ(decode(0xd50b7e20, 0).o, op::undef);  // dc civac, x0: of the cache operations only DC ZVA is modelled
    EXPECT_EQ(decode(0xd50b7420, 0).o, op::dczva);  // dc zva, x0
}

// Every instruction GCC 12 emitted into the shipped C workloads, in every
// build (outline atomics from libgcc, inline LDXR/STXR, inline LSE, Armv9), inside
// every function, decodes to an instruction cohsim runs.
TEST(Decoder, EveryFunctionOfTheCompiledWorkloadsDecodes) {
#ifndef COHSIM_C_WORKLOADS
    GTEST_SKIP() << "no aarch64-linux-gnu-gcc: the C workloads are not built";
#else
    unsigned files = 0, functions = 0;
    for (const auto& e : fs::directory_iterator(COHSIM_C_WORKLOADS)) {
        // Not faults.elf (undefined on purpose), nor the qemu builds (their start-up makes system calls).
        const std::string f = e.path().filename().string();
        if (e.path().extension() != ".elf" || f == "faults.elf" || f.find("-qemu") != std::string::npos) continue;
        ++files;
        const program p = load_elf(e.path().string(), 0x10000000);
        for (const auto& [name, start] : p.labels) {
            ++functions;
            for (std::size_t k = start; k < p.code.size(); ++k) {
                EXPECT_NE(p.code[k].o, op::undef) << e.path().filename().string() << ": " << name << "+0x" << std::hex
                                                  << 4 * (k - start) << ": " << p.code[k].text << " (" << p.code[k].name << ")";
                if (p.function_end[k]) break;
            }
        }
    }
    EXPECT_GE(files, 16u);  // 4 workloads x 4 builds
    EXPECT_GE(functions, 40u);
#endif
}

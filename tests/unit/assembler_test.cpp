// The assembler: every instruction form, every directive, every error class
// (each error names FILE:LINE:COL, the statement and what is wrong).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "workloads/program.h"

using namespace cohsim::asmx;

namespace {

program as(const std::string& text, const std::map<std::string, std::int64_t>& o = {}) {
    return assemble_text(text, "t.s", o);
}

std::string error_of(const std::string& text, const std::map<std::string, std::int64_t>& o = {}) {
    try {
        as(text, o);
    } catch (const cohsim::cfg::config_error& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected an error for:\n" << text;
    return {};
}

void expect_has(const std::string& msg, const std::string& part) {
    EXPECT_NE(msg.find(part), std::string::npos) << "message: " << msg << "\nexpected: " << part;
}

}  // namespace

TEST(Assembler, DataProcessing) {
    const auto p = as(R"(
        mov x1, #0x10000
        mov w2, w3
        add w2, w1, #1
        sub x4, x5, x6
        and x1, x2, x3, lsl #4
        orr w1, w2, w3
        eor w2, w1, w1, ror #16
        lsl x1, x2, #3
        lsr w1, w2, w3
        ror x1, x2, #8
        cmp w1, #5
        cmp x1, x2
    )");
    ASSERT_EQ(p.code.size(), 12u);
    EXPECT_EQ(p.code[0].o, op::mov);
    EXPECT_TRUE(p.code[0].has_imm);
    EXPECT_EQ(p.code[0].imm, 0x10000u);
    EXPECT_EQ(p.code[1].wide, false);
    EXPECT_EQ(p.code[1].rm, 3);
    EXPECT_EQ(p.code[6].o, op::eor);
    EXPECT_EQ(p.code[6].sh, shift::ror);
    EXPECT_EQ(p.code[6].sh_amount, 16u);
    EXPECT_EQ(p.code[4].sh, shift::lsl);
    EXPECT_EQ(p.code[10].o, op::cmp);
    EXPECT_EQ(p.code[10].rn, 1);
}

TEST(Assembler, LoadsStoresExclusivesAtomics) {
    const auto p = as(R"(
        ldr x1, [x0]
        ldr w1, [x0, #8]
        ldrb w1, [x0]
        ldrh w1, [x0]
        str x1, [x0, #16]
        strb w1, [x0]
        strh w1, [x0]
        ldar w1, [x0]
        stlrh w1, [x0]
        ldxr x1, [x0]
        ldaxrh w1, [x0]
        stxr w3, w2, [x0]
        stlxr w3, x2, [x0]
        casal w1, w2, [x0]
        casa x1, x2, [x0]
        ldadd w1, w2, [x0]
        ldaddal x1, x2, [x0]
        swpl w1, w2, [x0]
        ldseta w1, w2, [x0]
        staddlh w1, [x0]
        prfm pstl1strm, [x0]
        prfm pstl1keep, [x0]
        dc zva, x5
    )");
    ASSERT_EQ(p.code.size(), 23u);
    EXPECT_EQ(p.code[0].size, 8u);
    EXPECT_EQ(p.code[1].size, 4u);
    EXPECT_EQ(p.code[1].imm, 8u);
    EXPECT_EQ(p.code[2].size, 1u);
    EXPECT_EQ(p.code[3].size, 2u);
    EXPECT_TRUE(p.code[7].acquire);
    EXPECT_TRUE(p.code[8].release);
    EXPECT_EQ(p.code[8].size, 2u);
    EXPECT_EQ(p.code[10].o, op::ldxr);
    EXPECT_TRUE(p.code[10].acquire);
    EXPECT_EQ(p.code[11].o, op::stxr);
    EXPECT_EQ(p.code[11].rs, 3);
    EXPECT_EQ(p.code[11].rd, 2);
    EXPECT_TRUE(p.code[12].release);
    EXPECT_EQ(p.code[12].size, 8u);
    EXPECT_EQ(p.code[13].o, op::cas);
    EXPECT_TRUE(p.code[13].acquire && p.code[13].release);
    EXPECT_EQ(p.code[16].o, op::ldadd);
    EXPECT_EQ(p.code[17].o, op::swp);
    EXPECT_TRUE(p.code[17].release && !p.code[17].acquire);
    EXPECT_EQ(p.code[18].o, op::ldset);
    EXPECT_EQ(p.code[19].o, op::ldadd);  // stadd: ldadd with no result
    EXPECT_EQ(p.code[19].rd, zr);
    EXPECT_EQ(p.code[19].size, 2u);
    EXPECT_EQ(p.code[20].o, op::prfm);
    EXPECT_EQ(p.code[20].rd, 1);
    EXPECT_EQ(p.code[22].o, op::dczva);
    EXPECT_EQ(p.code[22].rn, 5);
}

TEST(Assembler, BranchesHintsAndSimulatorInstructions) {
    const auto p = as(R"(
    top:
        b top
        b.ne top
        b.hs top
        cbz w1, end
        cbnz x1, top
        tbz w1, #3, end
        tbnz x1, #63, top
        bl fn
        dmb ish
        dsb sy
        wfe
        sev
        sevl
        yield
        nop
        work 100
        mark lock_begin
        mark lock_acquired
        mark lock_release
        region critical
        endregion
    fn: ret
    end: halt
    )");
    ASSERT_EQ(p.code.size(), 23u);
    EXPECT_EQ(p.code[0].target, 0u);
    EXPECT_EQ(p.code[1].c, cond::ne);
    EXPECT_EQ(p.code[3].target, 22u);
    EXPECT_EQ(p.code[5].imm, 3u);
    EXPECT_EQ(p.code[7].target, 21u);
    EXPECT_EQ(p.code[8].o, op::barrier);
    EXPECT_EQ(p.code[15].o, op::work);
    EXPECT_EQ(p.code[15].imm, 100u);
    EXPECT_EQ(p.code[17].mark, mark_kind::lock_acquired);
    EXPECT_EQ(p.code[19].name, "critical");
    EXPECT_EQ(p.code[22].o, op::halt);
}

TEST(Assembler, DataDirectivesAndSymbols) {
    const auto p = as(R"(
    .equ N, 3
    .data
    a: .byte 1
    .align 8
    b: .hword 0x1234
    c: .word N
    d: .quad -1
    .space 4
    .private
    .align 64
    node: .quad 7
    .shared
    e: .byte 9
    .text
        adr x0, b
        adr x1, node
        mov x2, #N
    )");
    ASSERT_EQ(p.symbols.size(), 6u);
    EXPECT_EQ(p.symbols[1].name, "b");
    EXPECT_EQ(p.symbols[1].offset, 8u);  // after .align 8
    EXPECT_EQ(p.symbols[2].offset, 10u);
    EXPECT_EQ(p.symbols[3].offset, 14u);
    EXPECT_EQ(p.shared_init[8], 0x34);
    EXPECT_EQ(p.shared_init[9], 0x12);
    EXPECT_EQ(p.shared_init[10], 3);
    EXPECT_EQ(p.shared_init[14], 0xff);
    EXPECT_EQ(p.shared_init.size(), 27u);  // 22 + 4 (.space) + 1 (e)
    EXPECT_TRUE(p.symbols[4].priv);
    EXPECT_EQ(p.symbols[4].offset, 0u);
    EXPECT_EQ(p.private_init[0], 7);
    EXPECT_EQ(p.code[2].imm, 3u);
}

TEST(Assembler, EquOverridesAndMacros) {
    const auto p = as(R"(
    .equ T, 10
    .macro bump reg, n
        add \reg, \reg, #\n
    .endm
        bump x1, T
        bump w2, 7
    )",
                      {{"T", 99}});
    ASSERT_EQ(p.code.size(), 2u);
    EXPECT_EQ(p.code[0].imm, 99u);
    EXPECT_EQ(p.code[1].imm, 7u);
    EXPECT_EQ(p.code[1].wide, false);
}

TEST(Assembler, IncludesRelativeToTheIncludingFile) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("cohsim_asm_" + std::to_string(::getpid()));
    fs::create_directories(dir / "lib");
    std::ofstream(dir / "lib" / "common.s") << ".equ ONE, 1\n";
    std::ofstream(dir / "main.s") << ".include \"lib/common.s\"\n mov x0, #ONE\n";
    const auto p = assemble_file((dir / "main.s").string());
    EXPECT_EQ(p.code[0].imm, 1u);
    std::ofstream(dir / "a.s") << ".include \"b.s\"\n";
    std::ofstream(dir / "b.s") << ".include \"a.s\"\n";
    try {
        assemble_file((dir / "a.s").string());
        ADD_FAILURE();
    } catch (const cohsim::cfg::config_error& e) {
        expect_has(e.what(), "b.s:1:1: .include \"a.s\": include cycle");
    }
    fs::remove_all(dir);
}

TEST(Assembler, TheLibraryAssembles) {
    for (const auto& [name, text] : library()) {
        if (name.find("loop.s") != std::string::npos || name.find(".inc") != std::string::npos) continue;  // included pieces
        const auto p = assemble_file("lib:" + name);
        EXPECT_GT(p.code.size(), 10u) << name;
        EXPECT_TRUE(p.labels.count("main")) << name;  // every library program starts at main
    }
}

TEST(AssemblerErrors, EveryClassNamesTheStatement) {
    expect_has(error_of("  frob x1\n"), "t.s:1:3: frob x1: unknown instruction 'frob'");
    expect_has(error_of("mov x1\n"), "t.s:1:1: mov x1: takes 2 operands, got 1");
    expect_has(error_of("add x1, x2, q3\n"), "t.s:1:13: add x1, x2, q3: 'q3' is not a register");
    expect_has(error_of("add x1, w2, #1\n"), "t.s:1:9: add x1, w2, #1: mixes w and x registers");
    expect_has(error_of("add x1, x2, #zz\n"), "t.s:1:13: add x1, x2, #zz: '#zz' is not a number or a known constant");
    expect_has(error_of("ldr x1, x0\n"), "t.s:1:9: ldr x1, x0: 'x0' is not an address (expected [xN] or [xN, #offset])");
    expect_has(error_of("ldr x1, [w0]\n"), "the base must be an x register");
    expect_has(error_of("ldxr x1, [x0, #8]\n"), "ldxr takes no offset");
    expect_has(error_of("stxr x3, x2, [x0]\n"), "the status register must be a w register");
    expect_has(error_of("b nowhere\n"), "t.s:1:3: b nowhere: unknown label 'nowhere'");
    expect_has(error_of("b.xx top\ntop: nop\n"), "unknown condition 'xx'");
    expect_has(error_of("a: nop\na: nop\n"), "t.s:2:1: a: nop: label 'a' defined twice");
    expect_has(error_of("eor w1, w1, w1, ror #40\n"), "shift amount out of range (expected 0..31)");
    expect_has(error_of("tbz w1, #40, x\nx: nop\n"), "bit number out of range");
    expect_has(error_of("dmb everything\n"), "'everything' is not a barrier option");
    expect_has(error_of("prfm pldl9, [x0]\n"), "'pldl9' is not a prefetch kind");
    expect_has(error_of("dc civac, x0\n"), "t.s:1:4: dc civac, x0: 'civac' is not a cache operation cohsim models (expected zva");
    expect_has(error_of("dc zva, w0\n"), "DC ZVA takes an x register");
    expect_has(error_of("dc zva, [x0]\n"), "'[x0]' is not a register");
    expect_has(error_of("mark lock_taken\n"), "unknown mark 'lock_taken'");
    expect_has(error_of(".frob 1\n"), "unknown directive '.frob'");
    expect_has(error_of(".word 1\n"), ".word outside .data");
    expect_has(error_of(".data\nnop\n"), "an instruction in .data");
    expect_has(error_of(".data\n.align 3\n"), "alignment 3 is not a power of two");
    expect_has(error_of(".include nofile\n"), "the file name must be in double quotes");
    expect_has(error_of(".include \"/nonexistent/x.s\"\n"), "t.s:1:1: .include \"/nonexistent/x.s\": cannot read");
    expect_has(error_of(".macro m a\nnop\n"), "no .endm before the end of the file");
    expect_has(error_of(".endm\n"), ".endm without .macro");
    expect_has(error_of(".macro m a\nnop\n.endm\nm 1, 2\n"), "takes 1 arguments, got 2");
    expect_has(error_of("adr x0, nothing\n"), "unknown data symbol 'nothing'");
    expect_has(error_of("nop\n", {{"NOPE", 1}}), "NOPE: the program has no .equ NOPE to set");
    expect_has(error_of("\n"), "the program has no instructions");
    expect_has(error_of("work -5\n"), "negative work");
    expect_has(error_of("work 10, 5\n"), "t.s:1:10: work 10, 5: the range ends below its start");
    expect_has(error_of("work x3, 5\n"), "a register count takes no range");
    expect_has(error_of("work 1, 2, 3\n"), "takes 1 operand, got 3 (expected work N, work xN or work N, M)");
}

TEST(Assembler, WorkRange) {
    const auto p = assemble_text("work 10, 20\nwork 7\n", "t.s");
    EXPECT_EQ(p.code[0].imm, 10u);
    EXPECT_EQ(p.code[0].imm_hi, 20u);
    EXPECT_EQ(p.code[1].imm_hi, 0u);
}

TEST(Assembler, TheLseFamilySelectsAndSystemRegisters) {
    const auto p = as(R"(
        .data
        v: .quad 0
        .text
        adr x0, v
        ldclral x1, x2, [x0]
        ldeorh w1, w2, [x0]
        ldsmaxa x1, x2, [x0]
        lduminlb w1, w2, [x0]
        stsmin x1, [x0]
        steorl w1, [x0]
        ldapr x3, [x0]
        csel x4, x5, x6, hs
        cset w7, eq
        cneg x8, x9, lt
        mvn w10, w11
        neg x12, x13, lsl #2
        isb
        mrs x14, CNTVCT_EL0
        halt
    )");
    ASSERT_EQ(p.code.size(), 16u);
    EXPECT_EQ(p.code[1].o, op::ldclr);
    EXPECT_TRUE(p.code[1].acquire && p.code[1].release);
    EXPECT_EQ(p.code[2].o, op::ldeor);
    EXPECT_EQ(p.code[2].size, 2u);
    EXPECT_EQ(p.code[3].o, op::ldsmax);
    EXPECT_TRUE(p.code[3].acquire && !p.code[3].release);
    EXPECT_EQ(p.code[4].o, op::ldumin);
    EXPECT_EQ(p.code[4].size, 1u);
    EXPECT_TRUE(!p.code[4].acquire && p.code[4].release);
    EXPECT_EQ(p.code[5].o, op::ldsmin);  // STSMIN: LDSMIN into the zero register
    EXPECT_EQ(p.code[5].rd, zr);
    EXPECT_EQ(p.code[6].o, op::ldeor);
    EXPECT_TRUE(p.code[6].release);
    EXPECT_EQ(p.code[7].o, op::ldapr);
    EXPECT_EQ(p.code[8].o, op::csel);
    EXPECT_EQ(p.code[8].c, cond::hs);
    // CSET w7, eq is CSINC w7, wzr, wzr, ne
    EXPECT_EQ(p.code[9].ck, csel_kind::inc);
    EXPECT_EQ(p.code[9].c, cond::ne);
    EXPECT_EQ(p.code[9].rn, zr);
    EXPECT_FALSE(p.code[9].wide);
    // CNEG x8, x9, lt is CSNEG x8, x9, x9, ge
    EXPECT_EQ(p.code[10].ck, csel_kind::neg);
    EXPECT_EQ(p.code[10].c, cond::ge);
    EXPECT_EQ(p.code[10].rm, 9);
    EXPECT_EQ(p.code[11].o, op::mvn);
    EXPECT_EQ(p.code[12].o, op::sub);  // NEG: SUB from the zero register
    EXPECT_EQ(p.code[12].rn, zr);
    EXPECT_EQ(p.code[12].sh, shift::lsl);
    EXPECT_EQ(p.code[13].o, op::isb);
    EXPECT_EQ(p.code[14].o, op::mrs);
    EXPECT_EQ(p.code[14].sr, sysreg::cntvct);
}

TEST(AssemblerErrors, SelectsAndSystemRegisters) {
    expect_has(error_of(".text\n mrs x1, midr_el1\n"), "t.s:2:10: mrs x1, midr_el1: 'midr_el1' is not a system register cohsim models");
    expect_has(error_of(".text\n mrs w1, cntvct_el0\n"), "a system register needs an x register");
    expect_has(error_of(".text\n csel x1, x2, x3, al\n"), "'al' is not a condition");
    expect_has(error_of(".text\n csel x1, w2, x3, eq\n"), "mixes w and x registers");
    expect_has(error_of(".text\n isb ld\n"), "'ld' is not an ISB option");
    expect_has(error_of(".text\n ldumaxx x1, x2, [x0]\n"), "unknown instruction 'ldumaxx'");
}

TEST(Assembler, ConditionalAssemblyKeepsTheBranchThatHolds) {
    const std::string text = R"(
        .equ LSE, 0
        .equ WIDE, 1
        .text
    .if LSE
        cas x1, x2, [x0]
    .else
    again:
        ldxr x1, [x0]
      .if WIDE
        stxr w3, x2, [x0]
      .else
        stxr w3, w2, [x0]
      .endif
        cbnz w3, again
    .endif
        halt
    )";
    const auto llsc = as(text);
    ASSERT_EQ(llsc.code.size(), 4u);
    EXPECT_EQ(llsc.code[0].o, op::ldxr);
    EXPECT_TRUE(llsc.code[1].wide);
    EXPECT_EQ(llsc.labels.at("again"), 0u);
    const auto lse = as(text, {{"LSE", 1}});  // the override decides
    ASSERT_EQ(lse.code.size(), 2u);
    EXPECT_EQ(lse.code[0].o, op::cas);
    EXPECT_EQ(lse.labels.count("again"), 0u);  // a label of the dropped branch is not defined
    EXPECT_EQ(lse.constants.at("LSE"), 1);
    expect_has(error_of(".text\n.if 1\n halt\n"), "t.s:2:1: .if 1: .if without .endif");
    expect_has(error_of(".text\n.endif\n"), ".endif without .if");
    expect_has(error_of(".text\n.if 0\n.else\n.else\n.endif\n"), "a second .else");
    expect_has(error_of(".text\n.if NOPE\n.endif\n"), "NOPE");
}

TEST(Assembler, IfdefGivesAnIncludedFileItsDefaultUnlessTheIncluderSetIt) {
    // As ticket_functions.inc does: a default for a constant the including
    // file may have declared, and the scenario's override either way.
    const std::string inc = ".ifndef POLL\n.equ POLL, 0\n.endif\n.text\n.if POLL\n yield\n.else\n wfe\n.endif\n halt\n";
    EXPECT_EQ(as(inc).code[0].o, op::wfe);                       // the default
    EXPECT_EQ(as(".equ POLL, 1\n" + inc).code[0].o, op::yield);  // the includer's
    EXPECT_EQ(as(inc, {{"POLL", 1}}).code[0].o, op::yield);      // the scenario's
    EXPECT_EQ(as(".equ POLL, 1\n" + inc, {{"POLL", 0}}).code[0].o, op::wfe);
    const std::string def = ".equ A, 0\n.text\n.ifdef A\n nop\n.endif\n.ifdef B\n yield\n.endif\n halt\n";
    ASSERT_EQ(as(def).code.size(), 2u);  // A is defined (its value 0 does not matter), B is not
    EXPECT_EQ(as(def).code[0].o, op::nop);
    expect_has(error_of(".text\n.ifdef 1\n.endif\n"), ".ifdef takes one name");
}

/* Programs that go wrong, one function each, for the end-to-end tests of how
 * cohsim stops them (tests/e2e/cli_test.cpp, Cli.ElfFaults...): each must
 * end the run with exit 1 and a message naming the core, the instruction
 * address and the function+offset, and keep the partial results. */
#include "cohsim.h"

unsigned long word __attribute__((aligned(64)));

void undefined_instruction(const struct cohsim_args *a) {
    (void)a;
    __asm__ volatile(".inst 0x1e602820" ::: "memory"); /* fadd d0, d1, d0: SIMD&FP, which cohsim does not model */
}

void misaligned_exclusive(const struct cohsim_args *a) {
    unsigned long v;
    __asm__ volatile("ldxr %0, [%1]" : "=r"(v) : "r"((char *)&word + (a->thread + 1)) : "memory");
}

void wild_jump(const struct cohsim_args *a) {
    void (*volatile f)(void) = (void (*)(void))(0x1234 + a->thread);
    f();
}

__attribute__((noinline)) static unsigned long deep(unsigned long n) {
    volatile unsigned char frame[4096];
    frame[n & 4095] = (unsigned char)n;
    return n > 1000000 ? n : deep(n + 1) + frame[n & 4095];
}

void stack_overflow(const struct cohsim_args *a) { word = deep(a->thread); }

/* A function missing its ret: it runs on into the one after it. */
__asm__(".text\n.globl no_ret\n.type no_ret, %function\nno_ret:\n	mov x0, #1\n	add x0, x0, #2\n.size no_ret, .-no_ret\n"
        ".globl after_no_ret\n.type after_no_ret, %function\nafter_no_ret:\n	ret\n.size after_no_ret, .-after_no_ret\n");

/* A fine thread, for the tests that run it beside a faulting one. */
void fine(const struct cohsim_args *a) {
    for (unsigned long n = 0; n < 100; ++n) COHSIM_WORK(a->inside + 10);
}

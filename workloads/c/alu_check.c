/* A functional check of the decoder and the interpreter on compiled code:
 * `compute` runs integer arithmetic, bitfields, widths and sign extension,
 * shifts, multiplies and divides, byte reversal, bit counts, conditional
 * selects and compares, jump tables, function pointers, recursion on the
 * stack, pair loads and stores, and the __atomic builtins of every size,
 * over inputs from a xorshift generator, and writes 64 results. The tests
 * run it in cohsim and under qemu-aarch64 (an independent AArch64
 * implementation) and compare the two (tests/model/elf_test.cpp). */
#include "cohsim.h"

unsigned long results[64];

static unsigned long state = 0x9e3779b97f4a7c15UL;
static unsigned long next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

struct fields {
    unsigned a : 3, b : 11, c : 7;
    int d : 9;
    unsigned char e;
    short f;
};

__attribute__((noinline)) static unsigned long classify(unsigned long v) {
    switch (v % 9) { /* a jump table: ADR, LDRB, ADD, BR */
        case 0: return v * 3;
        case 1: return v ^ 0x5555;
        case 2: return v >> 3;
        case 3: return ~v;
        case 4: return v + 0x1234567;
        case 5: return v << 5;
        case 6: return (unsigned long)(-(long)v);
        case 7: return v & 0xff00ff;
        default: return v | 1;
    }
}

__attribute__((noinline)) static unsigned long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static unsigned long twice(unsigned long v) { return 2 * v; }
static unsigned long halve(unsigned long v) { return v / 2; }
unsigned long (*volatile const ops[2])(unsigned long) = {twice, halve};

struct pair { unsigned long lo, hi; };
__attribute__((noinline)) static struct pair swap_pair(struct pair p) { struct pair q = {p.hi ^ 7, p.lo + 9}; return q; }

union pair64 { unsigned __int128 q; unsigned long d[2]; };
union pair64 pair64 __attribute__((aligned(64)));
static union { unsigned long q; unsigned int w[2]; } pair32;

/* The exclusive pairs: add (a, b) to a 64-bit pair, and to a 32-bit one. */
__attribute__((noinline)) static void pair_add64(unsigned long a, unsigned long b) {
    unsigned long lo, hi;
    unsigned int status;
    __asm__ volatile("1:	ldaxp	%0, %1, %3\n	add	%0, %0, %4\n	add	%1, %1, %5\n	stlxp	%w2, %0, %1, %3\n	cbnz	%w2, 1b"
                     : "=&r"(lo), "=&r"(hi), "=&r"(status), "+Q"(pair64.q)
                     : "r"(a), "r"(b)
                     : "memory");
}
__attribute__((noinline)) static void pair_add32(unsigned int a, unsigned int b) {
    unsigned int lo, hi, status;
    __asm__ volatile("1:	ldxp	%w0, %w1, %3\n	add	%w0, %w0, %w4\n	add	%w1, %w1, %w5\n	stxp	%w2, %w0, %w1, %3\n	cbnz	%w2, 1b"
                     : "=&r"(lo), "=&r"(hi), "=&r"(status), "+Q"(pair32.q)
                     : "r"(a), "r"(b)
                     : "memory");
}

#ifdef __ARM_FEATURE_ATOMICS
/* CASP on the 64-bit pair: the old pair, the new one written if it matched. */
__attribute__((noinline)) static unsigned long casp64(unsigned long old_lo, unsigned long old_hi, unsigned long new_lo,
                                                      unsigned long new_hi) {
    register unsigned long x0 __asm__("x0") = old_lo, x1 __asm__("x1") = old_hi;
    register unsigned long x2 __asm__("x2") = new_lo, x3 __asm__("x3") = new_hi;
    __asm__ volatile("caspal	%0, %1, %2, %3, %4" : "+r"(x0), "+r"(x1) : "r"(x2), "r"(x3), "Q"(pair64.q) : "memory");
    return x0 ^ (x1 << 1);
}
#endif

static unsigned char bytes8;
static unsigned short half16;
static unsigned int word32;
static unsigned long dword64;

void compute(unsigned long *out) {
    unsigned long acc = 0;
    for (int k = 0; k < 8; ++k) {
        const unsigned long x = next(), y = next() | 1;
        const long sx = (long)x, sy = (long)(y >> (k + 1)) - 77;
        struct fields f = {.a = (unsigned)x, .b = (unsigned)(x >> 5), .c = (unsigned)(y >> 9), .d = (int)(sx >> 40),
                           .e = (unsigned char)y, .f = (short)(x >> 20)};
        unsigned long r = 0;
        r += (x * y) ^ (unsigned long)((unsigned __int128)x * y >> 64);
        r += (unsigned long)(((__int128)sx * sy) >> 64);
        r += x / y + x % (y >> 7 | 1) + (unsigned long)(sx / (sy ? sy : 1)) + (unsigned long)(sx % 1000);
        r += (unsigned)x / ((unsigned)y | 1) + (unsigned long)((int)x / ((int)y | 1));
        r += x >> (y & 63) | x << (k + 3) | (unsigned long)(sx >> (y & 31));
        r += (unsigned long)__builtin_clzl(x | 1) + (unsigned long)__builtin_ctzl(y) + (unsigned long)__builtin_clrsbl(sx);
        r += __builtin_bswap64(x) ^ __builtin_bswap32((unsigned)y) ^ __builtin_bswap16((unsigned short)x);
        r += f.a + f.b * 3 + f.c * 5 + (unsigned long)(long)f.d + f.e + (unsigned long)(long)f.f;
        r += (unsigned long)(long)(signed char)x + (unsigned long)(long)(short)y + (unsigned long)(long)(int)x;
        r += x > y ? x - y : y - x;
        r += ((long)x < 0 && y > 100) ? 17 : 23;
        r += classify(x) + classify(y + k);
        r += ops[k & 1](x);
        out[k] = r;
        acc += r;
    }
    out[8] = fib(15);
    struct pair p = {acc, acc >> 17};
    for (int k = 0; k < 4; ++k) p = swap_pair(p);
    out[9] = p.lo, out[10] = p.hi;
    /* __atomic builtins of every size (outline helpers or LSE, by -march) */
    out[11] = __atomic_fetch_add(&bytes8, 200, __ATOMIC_ACQ_REL);
    out[12] = __atomic_fetch_add(&bytes8, 100, __ATOMIC_SEQ_CST) + bytes8;
    out[13] = __atomic_exchange_n(&half16, 0xbeef, __ATOMIC_ACQUIRE);
    out[14] = __atomic_fetch_or(&half16, 0x0110, __ATOMIC_RELAXED) + half16;
    unsigned int expected = 0;
    out[15] = __atomic_compare_exchange_n(&word32, &expected, 0xdeadbeef, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
    expected = 1;
    out[16] = __atomic_compare_exchange_n(&word32, &expected, 2, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED) + expected;
    out[17] = __atomic_fetch_and(&word32, 0xff00ff00, __ATOMIC_RELEASE) + word32;
    out[18] = __atomic_fetch_xor(&dword64, acc, __ATOMIC_SEQ_CST);
    out[19] = __atomic_fetch_sub(&dword64, 12345, __ATOMIC_ACQ_REL) + __atomic_load_n(&dword64, __ATOMIC_ACQUIRE);
    __atomic_store_n(&dword64, 77, __ATOMIC_RELEASE);
    out[20] = __atomic_add_fetch(&dword64, 1, __ATOMIC_RELAXED);
    /* the exclusive pairs (and CASP, in the LSE build) */
    pair_add64(acc, acc >> 3);
    pair_add64(7, 9);
    pair_add32((unsigned)acc, (unsigned)(acc >> 40));
    out[21] = pair64.d[0], out[22] = pair64.d[1], out[23] = (unsigned long)pair32.w[0] << 32 | pair32.w[1];
#ifdef __ARM_FEATURE_ATOMICS
    out[24] = casp64(pair64.d[0], pair64.d[1], 11, 12); /* matches: written */
    out[25] = casp64(1, 2, 13, 14);                     /* does not: unchanged */
    out[26] = pair64.d[0] + 3 * pair64.d[1];
#endif
    unsigned long sum = 0;
    for (int k = 0; k < 27; ++k) sum = sum * 31 + out[k];
    out[63] = sum;
}

/* Many threads add 1 to both halves of `pair64`, a->iterations times each
 * (LDXP/STXP, or CASP in the LSE build), and read the pair whole after each
 * add: the halves stay equal (`torn` counts reads where they were not) and
 * no add is lost. */
unsigned long torn;

__attribute__((noinline)) static void pair_inc(void) {
#ifdef __ARM_FEATURE_ATOMICS
    unsigned long lo = pair64.d[0], hi = pair64.d[1];
    for (;;) {
        register unsigned long x0 __asm__("x0") = lo, x1 __asm__("x1") = hi;
        register unsigned long x2 __asm__("x2") = lo + 1, x3 __asm__("x3") = hi + 1;
        __asm__ volatile("caspal	%0, %1, %2, %3, %4" : "+r"(x0), "+r"(x1) : "r"(x2), "r"(x3), "Q"(pair64.q) : "memory");
        if (x0 == lo && x1 == hi) return;
        lo = x0, hi = x1; /* the pair seen: try again from it */
    }
#else
    pair_add64(1, 1);
#endif
}

void pair_thread(const struct cohsim_args *a) {
    for (unsigned long n = 0; n < a->iterations; ++n) {
        pair_inc();
        unsigned long lo, hi;
        __asm__ volatile("ldxp	%0, %1, %2\n	clrex" : "=&r"(lo), "=&r"(hi) : "Q"(pair64.q) : "memory");
        if (lo != hi) __atomic_fetch_add(&torn, 1, __ATOMIC_RELAXED);
    }
}

/* In cohsim: one thread computes inside a region of the function profile,
 * then returns (the thread ends). */
void thread(const struct cohsim_args *a) {
    (void)a;
    COHSIM_REGION("compute");
    compute(results);
    COHSIM_ENDREGION();
}

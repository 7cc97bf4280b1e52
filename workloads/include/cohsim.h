/* cohsim.h: what a C workload needs from cohsim (docs/guide/c.md).
 *
 * Build a workload with the Debian cross-compiler:
 *   aarch64-linux-gnu-gcc -O2 -ffreestanding -nostdlib -static \
 *       -I workloads/include -o lock.elf lock.c -lgcc
 * and run one of its functions on each thread:
 *   workload: {program: lock.elf, function: thread, threads: [...]}
 *
 * Each thread's function is called as   void f(const struct cohsim_args *a);
 * with its own stack (64 KiB); returning from it ends the thread (as `halt`).
 * Globals are shared by every thread (one address space, as threads have).
 *
 * The marks, `work` and regions are hints the architecture leaves unallocated
 * (HINT #0x70..#0x77): a real core or qemu-aarch64 runs them as NOP, so the
 * same binary runs anywhere; cohsim reads them as the assembly language's
 * `mark`, `work`, `halt`, `region` and `endregion` (workloads/decoder.h). */
#ifndef COHSIM_H
#define COHSIM_H

/* The thread's arguments, from the scenario: the loop harness's parameters
 * of the assembly library (workloads/locks/loop.s), set as there by
 * workload.params {INSIDE: 200, ...}, a thread's params, or its inside,
 * outside, start, iterations and cpu_relax keys. Unset: 0 (THRESHOLD: 10000). */
struct cohsim_args {
    unsigned long thread;         /* the thread's index in workload.threads */
    unsigned long threads;        /* how many threads the workload has */
    unsigned long iterations;     /* ITERATIONS: lock/unlock iterations, 0 = for ever */
    unsigned long inside;         /* INSIDE: cycles of work inside the critical section */
    unsigned long outside;        /* OUTSIDE: cycles of work after cpu_relax */
    unsigned long start;          /* START: cycles of work before the first iteration */
    unsigned long relax;          /* RELAX: cpu_relax is 0: yield, 1: wfe_backoff */
    unsigned long inside_jitter;  /* INSIDE_JITTER: plus 0..this many cycles, drawn per iteration */
    unsigned long outside_jitter; /* OUTSIDE_JITTER: the same after cpu_relax */
    unsigned long threshold;      /* THRESHOLD: wfe_backoff's calls per sleep */
    unsigned long count;          /* COUNT: 1 = count each critical section in a shared counter */
    unsigned long node;           /* the socket of the thread's core (0 on one socket): its NUMA node */
};

/* What the lock metrics read: a thread starts to wait, holds, releases. */
#define COHSIM_LOCK_BEGIN() __asm__ volatile("hint #0x70" ::: "memory")
#define COHSIM_LOCK_ACQUIRED() __asm__ volatile("hint #0x71" ::: "memory")
#define COHSIM_LOCK_RELEASE() __asm__ volatile("hint #0x72" ::: "memory")

/* N cycles of compute on this core (cohsim's `work xN`). */
#define COHSIM_WORK(n)                                                        \
    do {                                                                      \
        register unsigned long cohsim_n_ __asm__("x16") = (unsigned long)(n); \
        __asm__ volatile("hint #0x73" : : "r"(cohsim_n_) : "memory");          \
    } while (0)

/* N cycles of compute plus 0..J more, uniform, drawn from the core's seeded
 * stream (cohsim's `work N, N+J`: timing that varies run to run). */
#define COHSIM_WORK_JITTER(n, j)                                              \
    do {                                                                      \
        register unsigned long cohsim_n_ __asm__("x16") = (unsigned long)(n); \
        register unsigned long cohsim_j_ __asm__("x17") = (unsigned long)(j); \
        __asm__ volatile("hint #0x75" : : "r"(cohsim_n_), "r"(cohsim_j_) : "memory"); \
    } while (0)

/* A named region of the function profile (cohsim's `region NAME` /
 * `endregion`): each region's time per run, nested regions allowed. */
#define COHSIM_REGION(name)                                                          \
    do {                                                                             \
        register const char *cohsim_r_ __asm__("x16") = (name);                      \
        __asm__ volatile("hint #0x76" : : "r"(cohsim_r_) : "memory");                 \
    } while (0)
#define COHSIM_ENDREGION() __asm__ volatile("hint #0x77" ::: "memory")

/* The thread stops here for good (cohsim's `halt`). */
#define COHSIM_HALT()                                     \
    do {                                                  \
        __asm__ volatile("hint #0x74" ::: "memory");      \
        for (;;) __asm__ volatile("wfe" ::: "memory");    \
    } while (0)

/* Link-time needs of a program built with -nostdlib, defined weak so that a
 * program (or a test harness) may define its own:
 *  - _start: the ELF entry point; cohsim starts threads at their functions,
 *    not here;
 *  - __getauxval: GCC's outline atomics (-moutline-atomics, the default on
 *    Debian's aarch64 gcc 12) come from libgcc (link with -lgcc), whose
 *    start-up code asks it for the CPU's features. No C library runs here,
 *    so it answers "no features", and cohsim sets the helpers' LSE switch
 *    (__aarch64_have_lse_atomics) itself: 1 when every thread's core has
 *    LSE, as the C library's start-up would from HWCAP_ATOMICS. */
__attribute__((weak)) void _start(void) { COHSIM_HALT(); }
__attribute__((weak)) unsigned long __getauxval(unsigned long type) { (void)type; return 0; }

#endif

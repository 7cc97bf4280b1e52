/* The arm64 ticket spinlock of Linux v4.14 (arch/arm64/include/asm/spinlock.h,
 * 2017), in C with its inline assembly: the lock the published 2017
 * starvation measurements ran, as a kernel engineer would paste it. The
 * lock word holds the owner's ticket in its low half and the next ticket in
 * its high half. Built twice (CMakeLists.txt): with -march=armv8-a the
 * LDAXR/STXR grab, with -march=armv8.1-a (__ARM_FEATURE_ATOMICS) the LSE one
 * (LDADDA, STADDLH), as the kernel's alternatives choose at boot.
 *
 * `thread` is the harness of workloads/locks/loop.s in C, with its
 * parameters (struct cohsim_args): lock, work inside, unlock, cpu_relax
 * (yield, or WFE back-off every THRESHOLD calls), work outside; with COUNT
 * it counts every critical section in `counter`. */
#include "loop.h"

struct ticket_lock {
    unsigned int word; /* owner: bits 0..15, next: bits 16..31 */
};

struct ticket_lock lock __attribute__((aligned(64)));

/* Both builds, once the ticket is taken: owner == my ticket, or sleep in WFE
 * until the owner half changes (LDAXRH re-arms the monitor on it). */
#define WAIT_FOR_MY_TURN                                   \
    "	eor	%w[tmp], %w[mine], %w[mine], ror #16\n"      \
    "	cbz	%w[tmp], 3f\n"                                \
    "	sevl\n"                                            \
    "2:	wfe\n"                                             \
    "	ldaxrh	%w[status], %[owner]\n"                    \
    "	eor	%w[tmp], %w[status], %w[mine], lsr #16\n"    \
    "	cbnz	%w[tmp], 2b\n"                              \
    "3:\n"

__attribute__((noinline)) void spin_lock(struct ticket_lock *l) {
    unsigned int mine, tmp, status;
#ifdef __ARM_FEATURE_ATOMICS
    __asm__ volatile(
        "	mov	%w[tmp], #0x10000\n"
        "	ldadda	%w[tmp], %w[mine], %[word]\n" /* take a ticket */
        "	nop\n	nop\n	nop\n"                 /* the LL/SC sequence's length */
        WAIT_FOR_MY_TURN
        : [mine] "=&r"(mine), [tmp] "=&r"(tmp), [status] "=&r"(status), [word] "+Q"(l->word)
        : [owner] "Q"(*(unsigned short *)&l->word)
        : "memory");
#else
    __asm__ volatile(
        "	prfm	pstl1strm, %[word]\n"
        "1:	ldaxr	%w[mine], %[word]\n"
        "	add	%w[tmp], %w[mine], #0x10000\n" /* take a ticket */
        "	stxr	%w[status], %w[tmp], %[word]\n"
        "	cbnz	%w[status], 1b\n"              /* the unfair step: retry at once */
        WAIT_FOR_MY_TURN
        : [mine] "=&r"(mine), [tmp] "=&r"(tmp), [status] "=&r"(status), [word] "+Q"(l->word)
        : [owner] "Q"(*(unsigned short *)&l->word)
        : "memory");
#endif
}

__attribute__((noinline)) void spin_unlock(struct ticket_lock *l) {
    unsigned int tmp;
#ifdef __ARM_FEATURE_ATOMICS
    __asm__ volatile(
        "	mov	%w[tmp], #1\n"
        "	staddlh	%w[tmp], %[owner]\n"
        "	nop\n"
        : [tmp] "=&r"(tmp), [owner] "+Q"(*(unsigned short *)&l->word)
        :
        : "memory");
#else
    __asm__ volatile(
        "	ldrh	%w[tmp], %[owner]\n"
        "	add	%w[tmp], %w[tmp], #1\n"
        "	stlrh	%w[tmp], %[owner]\n"
        : [tmp] "=&r"(tmp), [owner] "+Q"(*(unsigned short *)&l->word)
        :
        : "memory");
#endif
}

void thread(const struct cohsim_args *a) { LOCK_LOOP(a, spin_lock(&lock), spin_unlock(&lock)); }

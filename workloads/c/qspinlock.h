/* Linux's queued spinlock (kernel/locking/qspinlock.c, 4.19) in C, on
 * arm64's atomics as the kernel's asm/atomic_ll_sc.h and asm/atomic_lse.h
 * write them in inline assembly: an LDXR/STXR build (-march=armv8-a) and an
 * LSE build (-march=armv8.1-a: CASA, LDSETA, STCLR, SWPH), chosen here by
 * __ARM_FEATURE_ATOMICS where the kernel patches one in at boot. The
 * algorithm follows the assembly library's locks/qspinlock.s: the lock word
 * is {locked byte, pending byte, tail halfword}; the fast path CASes 0 ->
 * LOCKED; the first waiter sets PENDING and spins on the locked byte; later
 * ones queue on per-thread MCS nodes (tail = (thread + 1) << 2) and wait in
 * WFE on their own node (smp_cond_load_acquire, arm64's __cmpwait).
 *
 * The MCS queue's discipline is the including file's, as the kernel builds
 * its slow path twice (plain, and with CNA's hooks): before the include it
 * may define QS_NODE_EXTRA (more fields of a waiter's node); after it, it
 * defines the four hooks declared below. qspinlock.c: the plain MCS queue;
 * cna_qspinlock.c: CNA's. */
#ifndef COHSIM_QSPINLOCK_H
#define COHSIM_QSPINLOCK_H

#include "loop.h"

#define LOCKED 0x1u
#define PENDING 0x100u
#define MAX_THREADS 256

#ifndef QS_NODE_EXTRA
#define QS_NODE_EXTRA
#endif
struct mcs_node {
    struct mcs_node *next;
    unsigned long locked;
    QS_NODE_EXTRA /* what the including file's hooks keep in a waiter's node */
} __attribute__((aligned(64)));

unsigned int lock __attribute__((aligned(64)));
struct mcs_node nodes[MAX_THREADS];

/* cmpxchg_acquire(p, old, new): the value seen. */
static inline unsigned int cmpxchg_acquire(unsigned int *p, unsigned int old, unsigned int new) {
    unsigned int seen;
#ifdef __ARM_FEATURE_ATOMICS
    seen = old;
    __asm__ volatile("casa %w[s], %w[n], %[p]" : [s] "+r"(seen), [p] "+Q"(*p) : [n] "r"(new) : "memory");
#else
    unsigned int status;
    __asm__ volatile(
        "1:	ldaxr	%w[s], %[p]\n"
        "	cmp	%w[s], %w[o]\n"
        "	b.ne	2f\n"
        "	stxr	%w[t], %w[n], %[p]\n"
        "	cbnz	%w[t], 1b\n"
        "2:\n"
        : [s] "=&r"(seen), [t] "=&r"(status), [p] "+Q"(*p)
        : [o] "r"(old), [n] "r"(new)
        : "cc", "memory");
#endif
    return seen;
}

/* atomic_fetch_or_acquire(bits, p): the old value. */
static inline unsigned int fetch_or_acquire(unsigned int *p, unsigned int bits) {
    unsigned int old;
#ifdef __ARM_FEATURE_ATOMICS
    __asm__ volatile("ldseta %w[b], %w[o], %[p]" : [o] "=r"(old), [p] "+Q"(*p) : [b] "r"(bits) : "memory");
#else
    unsigned int tmp, status;
    __asm__ volatile(
        "1:	ldaxr	%w[o], %[p]\n"
        "	orr	%w[t], %w[o], %w[b]\n"
        "	stxr	%w[s], %w[t], %[p]\n"
        "	cbnz	%w[s], 1b\n"
        : [o] "=&r"(old), [t] "=&r"(tmp), [s] "=&r"(status), [p] "+Q"(*p)
        : [b] "r"(bits)
        : "memory");
#endif
    return old;
}

/* atomic_andnot(bits, p), relaxed. */
static inline void clear_bits(unsigned int *p, unsigned int bits) {
#ifdef __ARM_FEATURE_ATOMICS
    __asm__ volatile("stclr %w[b], %[p]" : [p] "+Q"(*p) : [b] "r"(bits) : "memory");
#else
    unsigned int tmp, status;
    __asm__ volatile(
        "1:	ldxr	%w[t], %[p]\n"
        "	bic	%w[t], %w[t], %w[b]\n"
        "	stxr	%w[s], %w[t], %[p]\n"
        "	cbnz	%w[s], 1b\n"
        : [t] "=&r"(tmp), [s] "=&r"(status), [p] "+Q"(*p)
        : [b] "r"(bits)
        : "memory");
#endif
}

/* xchg_tail: swap the tail halfword, relaxed; the old tail. */
static inline unsigned int xchg_tail(unsigned int *p, unsigned int tail) {
    unsigned short *t = (unsigned short *)p + 1, old;
#ifdef __ARM_FEATURE_ATOMICS
    __asm__ volatile("swph %w[n], %w[o], %[t]" : [o] "=r"(old), [t] "+Q"(*t) : [n] "r"(tail) : "memory");
#else
    unsigned int status;
    __asm__ volatile(
        "1:	ldxrh	%w[o], %[t]\n"
        "	stxrh	%w[s], %w[n], %[t]\n"
        "	cbnz	%w[s], 1b\n"
        : [o] "=&r"(old), [s] "=&r"(status), [t] "+Q"(*t)
        : [n] "r"(tail)
        : "memory");
#endif
    return old;
}

/* smp_cond_load_acquire on a word / a byte / a doubleword until `cond`:
 * load-acquire exclusive (arming the monitor), test, else WFE (arm64's
 * __cmpwait: an event or the monitor's clearing wakes it). */
#define COND_LOAD_ACQUIRE(load, ptr, VAL, cond)                                  \
    ({                                                                           \
        unsigned long VAL;                                                       \
        for (;;) {                                                               \
            __asm__ volatile(load : "=r"(VAL) : "Q"(*(ptr)) : "memory");         \
            if (cond) break;                                                     \
            __asm__ volatile("wfe" ::: "memory");                                \
        }                                                                        \
        VAL;                                                                     \
    })

/* The queue's hooks (the including file's): a waiter's node is set up
 * (its NUMA node); the node became the queue's head and is about to wait
 * for the lock word; the head, last in the queue, takes the lock word `val`
 * (non-zero: taken, the tail cleared or handed on); the head, holding the
 * lock, hands the MCS baton to its successor `next`. */
static void qs_init(struct mcs_node *node, unsigned long numa);
static void qs_head(struct mcs_node *node);
static int qs_try_clear_tail(unsigned int val, struct mcs_node *node);
static void qs_pass_lock(struct mcs_node *node, struct mcs_node *next);

static void spin_lock(unsigned long me, unsigned long numa) {
    unsigned int val = cmpxchg_acquire(&lock, 0, LOCKED);
    if (val == 0) return;
    if (val == PENDING) val = __atomic_load_n(&lock, __ATOMIC_RELAXED); /* a hand-over in progress: look once more */
    if (!(val & ~0xffu)) {
        val = fetch_or_acquire(&lock, PENDING);
        if (!(val & ~0xffu)) {
            /* pending is ours: wait for the owner, then take the lock */
            if (val & 0xff) COND_LOAD_ACQUIRE("ldaxrb %w0, %1", (unsigned char *)&lock, v, !v);
            __atomic_store_n((unsigned short *)&lock, (unsigned short)LOCKED, __ATOMIC_RELAXED);
            return;
        }
        if (!(val & PENDING)) clear_bits(&lock, PENDING); /* we set it, but a queue appeared */
    }
    /* queue */
    struct mcs_node *node = &nodes[me];
    node->next = 0;
    node->locked = 0;
    qs_init(node, numa);
    const unsigned int tail = (unsigned int)(me + 1) << 2;
    const unsigned int old = xchg_tail(&lock, tail);
    if (old) {
        struct mcs_node *prev = &nodes[(old >> 2) - 1];
        __atomic_store_n(&prev->next, node, __ATOMIC_RELAXED);
        COND_LOAD_ACQUIRE("ldaxr %x0, %1", &node->locked, v, v);
    }
    /* head of the queue: wait until LOCKED and PENDING are both clear */
    qs_head(node);
    val = (unsigned int)COND_LOAD_ACQUIRE("ldaxr %w0, %1", &lock, v, !(v & 0xffff));
    if ((val >> 16) == tail && qs_try_clear_tail(val, node)) return; /* last in the queue */
    __atomic_store_n((unsigned char *)&lock, (unsigned char)LOCKED, __ATOMIC_RELAXED);
    struct mcs_node *next;
    while (!(next = __atomic_load_n(&node->next, __ATOMIC_RELAXED))) __asm__ volatile("" ::: "memory");
    qs_pass_lock(node, next); /* hand the MCS baton on */
}

static void spin_unlock(void) { __atomic_store_n((unsigned char *)&lock, 0, __ATOMIC_RELEASE); }

#endif

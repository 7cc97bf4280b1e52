/* glibc's pthread_spin_lock and pthread_spin_unlock as AArch64 runs them:
 * the generic nptl/pthread_spin_lock.c (unchanged in substance since glibc
 * 2.21) with aarch64's atomic-machine.h, which declares the exchange native
 * (ATOMIC_EXCHANGE_USES_CAS 0) and leaves atomic_spin_nop empty. Written
 * here with the GCC builtins glibc's atomic macros expand to, so that GCC
 * compiles it as it compiles libc: the outline atomics of a distribution's
 * -march=armv8-a build (__aarch64_swp4_acq, __aarch64_cas4_acq: LDXR/STXR
 * loops, or LSE when every core has it), LSE inline with -march=armv8.1-a
 * (SWPA, CASA). Sources: docs/sources.md section 15.
 *
 *   lock:   one acquire exchange of 1 (a first try that wins when the lock
 *           is free); when it finds the lock taken, relaxed loads until it
 *           reads 0, with no pause instruction and no back-off, then one
 *           weak acquire CAS 0 -> 1, back to the loads when it fails;
 *   unlock: a release store of 0.
 *
 * pthread_spinlock_t is a volatile int. `thread` runs the loop harness
 * (struct cohsim_args), with COUNT counting each critical section in
 * `counter`. */
#include "loop.h"

volatile int lock __attribute__((aligned(64))); /* a pthread_spinlock_t: 0 free, 1 taken */

static void spin_lock(volatile int *l) {
    if (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) == 0) return;  /* the first try */
    int seen;
    do {
        do seen = __atomic_load_n(l, __ATOMIC_RELAXED);  /* wait until it reads free */
        while (seen != 0);
    } while (!__atomic_compare_exchange_n(l, &seen, 1, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
}

static void spin_unlock(volatile int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }

void thread(const struct cohsim_args *a) { LOCK_LOOP(a, spin_lock(&lock), spin_unlock(&lock)); }

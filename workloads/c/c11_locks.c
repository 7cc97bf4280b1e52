/* Two locks written in portable C11 (<stdatomic.h>), as a library author
 * would, compiled as GCC emits them: with -march=armv8-a the outline
 * atomics of libgcc (LDXR/STXR loops, or LSE when every core has it), with
 * -march=armv8.1-a LSE inline (SWPAB, CASA).
 *
 *   flag_thread: test-and-set on an atomic_flag, spinning on a relaxed
 *                load before each retry (test-and-test-and-set);
 *   cas_thread:  a compare-and-swap lock on an atomic_uint (0 free, 1 held),
 *                atomic_compare_exchange_weak with acquire ordering.
 *
 * Both run the loop harness of workloads/locks/loop.s (struct cohsim_args),
 * with COUNT counting each critical section in `counter`. */
#include <stdatomic.h>

#include "loop.h"

atomic_flag flag __attribute__((aligned(64))) = ATOMIC_FLAG_INIT;
atomic_uint word __attribute__((aligned(64)));

static void flag_lock(void) {
    while (atomic_flag_test_and_set_explicit(&flag, memory_order_acquire))
        while (atomic_load_explicit((atomic_uchar *)&flag, memory_order_relaxed)) __asm__ volatile("yield");
}

static void flag_unlock(void) { atomic_flag_clear_explicit(&flag, memory_order_release); }

static void cas_lock(void) {
    unsigned int expected = 0;
    while (!atomic_compare_exchange_weak_explicit(&word, &expected, 1, memory_order_acquire, memory_order_relaxed)) {
        expected = 0;
        while (atomic_load_explicit(&word, memory_order_relaxed)) __asm__ volatile("yield");
    }
}

static void cas_unlock(void) { atomic_store_explicit(&word, 0, memory_order_release); }

void flag_thread(const struct cohsim_args *a) { LOCK_LOOP(a, flag_lock(), flag_unlock()); }
void cas_thread(const struct cohsim_args *a) { LOCK_LOOP(a, cas_lock(), cas_unlock()); }

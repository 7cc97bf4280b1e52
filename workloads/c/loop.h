/* The loop harness of the assembly library (workloads/locks/loop.s) in C,
 * for the C locks of this folder: each iteration marks lock_begin, takes the
 * lock, marks lock_acquired, counts in `counter` (COUNT), works INSIDE (plus
 * 0..INSIDE_JITTER), marks lock_release, releases, calls cpu_relax (yield,
 * or with RELAX a WFE sleep every THRESHOLD calls), works OUTSIDE (plus
 * 0..OUTSIDE_JITTER); ITERATIONS times, or for ever. */
#ifndef COHSIM_LOOP_H
#define COHSIM_LOOP_H

#include "cohsim.h"

unsigned long counter __attribute__((aligned(64))); /* its own line, away from the lock */

__attribute__((noinline)) static void cpu_relax(const struct cohsim_args *a, unsigned long *calls) {
    if (a->relax && ++*calls >= a->threshold) {
        *calls = 0;
        __asm__ volatile("sevl\n	wfe\n	wfe" ::: "memory"); /* consume the event just posted, then sleep */
    } else {
        __asm__ volatile("yield" ::: "memory");
    }
}

/* The harness around two statements that take and release the lock. */
#define LOCK_LOOP(a, take, release)                                           \
    do {                                                                      \
        unsigned long calls_ = 0;                                             \
        COHSIM_WORK((a)->start);                                              \
        for (unsigned long n_ = 0; (a)->iterations == 0 || n_ < (a)->iterations; ++n_) { \
            COHSIM_LOCK_BEGIN();                                              \
            take;                                                             \
            COHSIM_LOCK_ACQUIRED();                                           \
            if ((a)->count) counter++;                                        \
            COHSIM_WORK_JITTER((a)->inside, (a)->inside_jitter);              \
            COHSIM_LOCK_RELEASE();                                            \
            release;                                                          \
            cpu_relax((a), &calls_);                                          \
            COHSIM_WORK_JITTER((a)->outside, (a)->outside_jitter);            \
        }                                                                     \
    } while (0)

#endif

/* Linux's queued spinlock with its plain MCS queue (qspinlock.h): the
 * waiters are served in the order they queued.
 *
 * `thread` runs the loop harness (struct cohsim_args), COUNT counting each
 * critical section in `counter`. */
#include "qspinlock.h"

static inline void qs_init(struct mcs_node *node, unsigned long numa) { (void)node, (void)numa; }
static inline void qs_head(struct mcs_node *node) { (void)node; }
static inline int qs_try_clear_tail(unsigned int val, struct mcs_node *node) {
    (void)node;
    return cmpxchg_acquire(&lock, val, LOCKED) == val;
}
static inline void qs_pass_lock(struct mcs_node *node, struct mcs_node *next) {
    (void)node;
    __atomic_store_n(&next->locked, 1, __ATOMIC_RELEASE);
}

void thread(const struct cohsim_args *a) { LOCK_LOOP(a, spin_lock(a->thread, a->node), spin_unlock()); }

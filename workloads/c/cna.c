/* Compact NUMA-aware lock (CNA; Dice and Kogan, "Compact NUMA-aware Locks",
 * EuroSys 2019), the queue discipline Linux's NUMA-aware qspinlock patches
 * put under the queued spinlock's slow path: an MCS queue whose lock word is
 * the queue's tail, and a secondary queue of waiters from other NUMA nodes.
 *
 *   lock:   swap yourself in as the tail; with no predecessor the lock is
 *           yours, else link behind it and wait (WFE on your node, as
 *           arm64's smp_cond_load_acquire) until it hands you the lock.
 *   unlock: hand the lock to the first waiter of the main queue on your own
 *           node (its socket: cohsim_args.node); the waiters of other nodes
 *           passed over on the way move, in order, to the end of the
 *           secondary queue, which travels with the lock (a waiter's
 *           `spin` is 1, or the secondary queue's head). With no local
 *           waiter, or after `cna_threshold` hand-offs in a row within one
 *           node (Linux's intra-node hand-off threshold, 1 << 16), the
 *           secondary queue goes first: it is spliced in front of the main
 *           queue and its head takes the lock. With nobody in the main
 *           queue, the secondary queue becomes the main one (its tail the
 *           lock's).
 *
 * With COUNT, in the critical section the harness counts, a thread also
 * counts the hand-offs that crossed nodes (`remote_handoffs`: the previous
 * holder was on another node), which the tests read. `thread` runs the loop harness
 * (struct cohsim_args), COUNT counting each critical section in `counter`.
 * Sources: docs/sources.md section 16. */
#include "loop.h"

#define MAX_THREADS 256

struct cna_node {
    struct cna_node *next;
    unsigned long spin;         /* 0: wait; 1: the lock, no secondary queue; else the lock and the secondary queue's head */
    unsigned long node;         /* the waiter's NUMA node */
    struct cna_node *sec_tail;  /* in a secondary queue's head: the queue's last waiter */
    unsigned long intra;        /* hand-offs in a row within this node, carried with the lock */
} __attribute__((aligned(64)));

struct cna_node *tail __attribute__((aligned(64)));
struct cna_node nodes[MAX_THREADS];
unsigned long cna_threshold = 1ul << 16;
unsigned long last_node __attribute__((aligned(64))) = ~0ul; /* in the critical section only */
unsigned long remote_handoffs;

/* Waits (WFE, the monitor armed by the exclusive load) until *p is non-zero. */
static unsigned long wait_nonzero(unsigned long *p) {
    unsigned long v;
    for (;;) {
        __asm__ volatile("ldaxr %0, %1" : "=r"(v) : "Q"(*p) : "memory");
        if (v) return v;
        __asm__ volatile("wfe" ::: "memory");
    }
}

static struct cna_node *wait_next(struct cna_node *me) {
    return (struct cna_node *)wait_nonzero((unsigned long *)&me->next);
}

static void cna_lock(struct cna_node *me, unsigned long node) {
    me->next = 0;
    me->spin = 0;
    me->node = node;
    me->intra = 0;
    struct cna_node *prev = __atomic_exchange_n(&tail, me, __ATOMIC_ACQ_REL);
    if (!prev) {
        me->spin = 1;
        return;
    }
    __atomic_store_n(&prev->next, me, __ATOMIC_RELEASE);
    wait_nonzero(&me->spin);
}

/* The first waiter of the main queue on `me`'s node, the remote ones before
 * it moved to the end of the secondary queue (me->spin updated); or null. */
static struct cna_node *local_successor(struct cna_node *me, struct cna_node *next) {
    if (next->node == me->node) return next;
    struct cna_node *first = next, *last = next;
    for (struct cna_node *cur = __atomic_load_n(&next->next, __ATOMIC_ACQUIRE); cur;
         cur = __atomic_load_n(&cur->next, __ATOMIC_ACQUIRE)) {
        if (cur->node == me->node) {
            last->next = 0; /* the passed-over run ends the secondary queue */
            if (me->spin > 1) {
                struct cna_node *head = (struct cna_node *)me->spin;
                head->sec_tail->next = first;
                head->sec_tail = last;
            } else {
                first->sec_tail = last;
                me->spin = (unsigned long)first;
            }
            return cur;
        }
        last = cur;
    }
    return 0; /* none (or the queue is still being linked beyond `last`) */
}

static void cna_unlock(struct cna_node *me) {
    struct cna_node *next = __atomic_load_n(&me->next, __ATOMIC_ACQUIRE);
    if (!next) {
        if (me->spin == 1) {
            struct cna_node *expected = me;
            if (__atomic_compare_exchange_n(&tail, &expected, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) return;
        } else {
            /* Nobody in the main queue: the secondary queue becomes it. */
            struct cna_node *head = (struct cna_node *)me->spin, *expected = me;
            if (__atomic_compare_exchange_n(&tail, &expected, head->sec_tail, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
                head->intra = 0;
                __atomic_store_n(&head->spin, 1, __ATOMIC_RELEASE);
                return;
            }
        }
        next = wait_next(me); /* a waiter is linking in */
    }
    struct cna_node *succ = me->intra < cna_threshold ? local_successor(me, next) : 0;
    if (succ) {
        succ->intra = me->intra + 1;
        __atomic_store_n(&succ->spin, me->spin, __ATOMIC_RELEASE);
    } else if (me->spin > 1) {
        /* The secondary queue first: spliced in front of the main queue. */
        struct cna_node *head = (struct cna_node *)me->spin;
        head->sec_tail->next = next;
        head->intra = 0;
        __atomic_store_n(&head->spin, 1, __ATOMIC_RELEASE);
    } else {
        next->intra = 0;
        __atomic_store_n(&next->spin, 1, __ATOMIC_RELEASE);
    }
}

static void count_handoff(unsigned long node) {
    if (last_node != ~0ul && last_node != node) remote_handoffs++;
    last_node = node;
}

void thread(const struct cohsim_args *a) {
    struct cna_node *me = &nodes[a->thread];
    LOCK_LOOP(a, (cna_lock(me, a->node), a->count ? count_handoff(a->node) : (void)0), cna_unlock(me));
}

/* CNA in the form Linux's NUMA-aware qspinlock patches give it (A. Kogan,
 * "Add NUMA-awareness to qspinlock", kernel/locking/qspinlock_cna.h): the
 * queued spinlock of qspinlock.h, its fast path and pending bit unchanged,
 * with CNA's hooks on its MCS slow path. A waiter's node keeps its NUMA node
 * (its socket: cohsim_args.node); `locked` is 0 (wait), 1 (the MCS baton, no
 * secondary queue) or the secondary queue's tail, the queue kept circular
 * (its tail's `next` is its head) and handed on with the baton.
 *
 *   the head, before it waits for the lock word (pre-scan): looks along the
 *       main queue for the first waiter of its own node and moves the
 *       waiters it passes over to the end of the secondary queue; if the
 *       queue ends first (or is still being linked), it remembers where it
 *       stopped; after `cna_threshold` hand-offs in a row within one node
 *       it does not look, and the secondary queue goes first;
 *   the head, last in the main queue, takes the lock: with a secondary
 *       queue, that queue becomes the main one (the lock word's tail its
 *       tail) and its head gets the baton;
 *   the holder hands the baton on: scanning on from where the pre-scan
 *       stopped (post-scan); to the local waiter found, with the secondary
 *       queue; else the secondary queue is spliced in front of the main
 *       queue and its head gets the baton; else the next waiter does.
 *
 * With COUNT, a thread also counts, in the critical section, the hand-offs
 * that crossed nodes (`remote_handoffs`: the previous holder was on another
 * node), which the tests read. `thread` runs the loop harness (struct
 * cohsim_args), COUNT counting each critical section in `counter`.
 * Sources: docs/sources.md section 16. */
#define QS_NODE_EXTRA                                                                     \
    unsigned long numa;       /* the waiter's NUMA node */                                \
    struct mcs_node *partial; /* the pre-scan's result: 0 found, 1 flush, else its stop */ \
    unsigned long intra;      /* hand-offs in a row within this node, carried with the baton */
#include "qspinlock.h"

#define FOUND ((struct mcs_node *)0)
#define FLUSH ((struct mcs_node *)1)

unsigned long cna_threshold = 1ul << 16;
unsigned long last_node __attribute__((aligned(64))) = ~0ul; /* in the critical section only */
unsigned long remote_handoffs;

/* A node's tail code, as spin_lock puts it in the tail halfword. */
static unsigned int tail_of(const struct mcs_node *n) { return (unsigned int)(n - nodes + 1) << 2; }

static inline void qs_init(struct mcs_node *node, unsigned long numa) {
    node->numa = numa;
    node->intra = 0;
}

/* Moves the waiters from node->next to `last` (all of another node) to the
 * end of the secondary queue. */
static void splice_to_secondary(struct mcs_node *node, struct mcs_node *last) {
    struct mcs_node *first = node->next;
    node->next = last->next;
    if (node->locked <= 1) {
        last->next = first; /* a new, circular, secondary queue */
    } else {
        struct mcs_node *tail_2nd = (struct mcs_node *)node->locked;
        last->next = tail_2nd->next;
        tail_2nd->next = first;
    }
    node->locked = (unsigned long)last;
}

/* From `from` (the head itself, or where the last scan stopped) on: the
 * first waiter of the head's node, the remote ones before it moved to the
 * secondary queue (FOUND); or, at the queue's end, the last one looked at. */
static struct mcs_node *order_queue(struct mcs_node *node, struct mcs_node *from) {
    struct mcs_node *last = from;
    for (struct mcs_node *cur = __atomic_load_n(&from->next, __ATOMIC_ACQUIRE); cur;
         last = cur, cur = __atomic_load_n(&cur->next, __ATOMIC_ACQUIRE)) {
        if (cur->numa != node->numa) continue;
        if (node->next != cur) splice_to_secondary(node, last);
        return FOUND;
    }
    return last;
}

static inline void qs_head(struct mcs_node *node) {
    node->partial = node->intra < cna_threshold ? order_queue(node, node) : FLUSH;
}

static inline int qs_try_clear_tail(unsigned int val, struct mcs_node *node) {
    if (node->locked <= 1) return cmpxchg_acquire(&lock, val, LOCKED) == val;
    /* The main queue is empty: the secondary queue becomes it. */
    struct mcs_node *tail_2nd = (struct mcs_node *)node->locked, *head_2nd = tail_2nd->next;
    if (cmpxchg_acquire(&lock, val, tail_of(tail_2nd) << 16 | LOCKED) != val) return 0;
    /* A new waiter may already have linked itself behind tail_2nd: its store wins. */
    struct mcs_node *expected = head_2nd;
    __atomic_compare_exchange_n(&tail_2nd->next, &expected, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    head_2nd->intra = 0;
    __atomic_store_n(&head_2nd->locked, 1, __ATOMIC_RELEASE);
    return 1;
}

static inline void qs_pass_lock(struct mcs_node *node, struct mcs_node *next) {
    struct mcs_node *partial = node->partial;
    if (partial != FOUND && partial != FLUSH) partial = order_queue(node, partial); /* the post-scan */
    unsigned long val = 1;
    if (partial == FOUND) {
        next = node->next; /* the local waiter, now first */
        next->intra = node->intra + 1;
        if (node->locked > 1) val = node->locked; /* the secondary queue goes with the baton */
    } else if (node->locked > 1) {
        /* The secondary queue first, spliced in front of the main queue. */
        struct mcs_node *tail_2nd = (struct mcs_node *)node->locked, *head_2nd = tail_2nd->next;
        tail_2nd->next = next;
        next = head_2nd;
        next->intra = 0;
    } else {
        next->intra = 0;
    }
    __atomic_store_n(&next->locked, val, __ATOMIC_RELEASE);
}

static void count_handoff(unsigned long node) {
    if (last_node != ~0ul && last_node != node) remote_handoffs++;
    last_node = node;
}

void thread(const struct cohsim_args *a) {
    LOCK_LOOP(a, (spin_lock(a->thread, a->node), a->count ? count_handoff(a->node) : (void)0), spin_unlock());
}

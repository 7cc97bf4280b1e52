// MCS queue lock (Mellor-Crummey & Scott 1991), the queue underneath Linux's
// qspinlock (kernel/locking/mcs_spinlock.h): the lock word holds the tail of
// a queue of per-core nodes; each waiter spins (WFE) on its own node's
// `locked` word, and the releaser hands over to its successor.
// Node (one per core, its own line): +0 next, +8 locked.
// Exchange and compare-and-swap are LDAXR/STLXR loops (Armv8.0).
// Known unfair step: joining the queue (the exchange on the tail) is an
// LL/SC race; once queued, service is FIFO.
.include "loop.s"

.data
.shared
.align 64
lock: .quad 0               // tail: address of the last node, 0 = free
.private
.align 64
node: .quad 0               // next
      .quad 0               // locked

.text
spin_lock:
    adr x5, node
    str xzr, [x5]           // node->next = NULL
    mov x6, #1
    str x6, [x5, #8]        // node->locked = 1
xchg:
    ldaxr x1, [x0]          // prev = xchg(&lock->tail, node)
    stlxr w3, x5, [x0]
    cbnz w3, xchg
    cbz x1, acquired        // queue was empty: the lock is ours
    str x5, [x1]            // prev->next = node
    add x7, x5, #8
    sevl
wait:
    wfe
    ldaxr x2, [x7]          // arm the monitor on our own locked word
    cbnz x2, wait
acquired:
    ret

spin_unlock:
    adr x5, node
    ldr x1, [x5]            // next
    cbnz x1, handoff
cas:
    ldaxr x2, [x0]          // no successor yet: tail == node? then free it
    cmp x2, x5
    b.ne wait_next
    stlxr w3, xzr, [x0]
    cbnz w3, cas
    ret
wait_next:                  // a successor is linking itself in
    ldr x1, [x5]
    cbz x1, wait_next
handoff:
    add x7, x1, #8
    stlr xzr, [x7]          // next->locked = 0
    ret

// Queued spinlock, Linux v4.19 kernel/locking/qspinlock.c as used on arm64
// (arm-sync.md 1.8), with one MCS node per core (no nesting). Two builds, as
// the kernel's alternatives patch them in: LSE = 0, LL/SC atomics (Armv8.0);
// LSE = 1, the LSE ones (CASA for the fast path, LDSETA for the pending
// bit, STCLR to undo it, SWPH for the tail, CAS to claim). Each core gets the
// build its features allow unless the scenario sets LSE.
// Lock word (32 bits): byte 0 locked; bit 8 pending; bits 16-31 tail =
// (core number + 1) << 2 (tail index 0). A core's node is its `.private`
// `node`: +0 next, +8 locked. The tail is turned back into a node address
// with the simulator's data layout (PRIVATE_BASE, PRIVATE_STRIDE: see
// workloads/scenario.h).
// Steps: fast path CAS 0 -> LOCKED; else the pending bit (fetch_or), then
// wait for LOCKED to clear and set it; else queue: exchange the tail, link
// behind the previous tail, wait on our own node (WFE), then as queue head
// wait for LOCKED|PENDING to clear and claim the lock.
// Unlock: store-release 0 to the locked byte.
// Known unfair step: getting into the queue (the fast-path CAS, the pending
// fetch_or and the tail exchange are LL/SC loops with no forward-progress
// guarantee); once queued, FIFO.
.include "loop.s"
.equ LSE, 0
.equ PRIVATE_BASE, 0x20000000
.equ PRIVATE_STRIDE, 0x10000

.data
.shared
.align 64
lock: .word 0
.private
.align 64
node: .quad 0           // next
      .quad 0           // locked

.text
// x0 = &lock. Uses x1-x9.
spin_lock:
.if LSE
    mov w1, #0
    mov w2, #1
    casa w1, w2, [x0]       // cmpxchg_acquire(lock, 0, LOCKED)
    cbnz w1, slow
    ret
.else
    prfm pstl1strm, [x0]
fast:
    ldaxr w1, [x0]          // cmpxchg_acquire(lock, 0, LOCKED)
    cbnz w1, slow
    mov w2, #1
    stxr w3, w2, [x0]
    cbnz w3, fast
    ret
.endif
slow:
    cmp w1, #0x100          // only PENDING: a hand-over is in progress,
    b.ne check              // read once more (_Q_PENDING_LOOPS = 1)
    ldr w1, [x0]
check:
    lsr w2, w1, #8          // anything besides the locked byte? queue
    cbnz w2, queue
set_pending:
.if LSE
    mov w2, #0x100
    ldseta w2, w1, [x0]     // fetch_or_acquire(lock, PENDING)
.else
    ldaxr w1, [x0]          // fetch_or_acquire(lock, PENDING)
    orr w2, w1, #0x100
    stxr w3, w2, [x0]
    cbnz w3, set_pending
.endif
    lsr w2, w1, #8
    cbz w2, pending_won
    tbnz w1, #8, queue      // someone else had set pending: just queue
undo_pending:
.if LSE
    mov w2, #0x100
    stclr w2, [x0]          // we set it, but a queue appeared: clear it again
.else
    ldxr w1, [x0]           // we set it, but a queue appeared: clear it again
    and w2, w1, #0xfffffeff
    stxr w3, w2, [x0]
    cbnz w3, undo_pending
.endif
    b queue
pending_won:
    and w2, w1, #0xff
    cbz w2, take_pending
    sevl
wait_locked:                // smp_cond_load_acquire(&lock->locked, !VAL)
    wfe
    ldaxrb w2, [x0]
    cbnz w2, wait_locked
take_pending:
    mov w2, #1
    strh w2, [x0]           // clear_pending_set_locked: 16-bit store
    ret

queue:
    adr x5, node
    str xzr, [x5]           // node->next = NULL
    str xzr, [x5, #8]       // node->locked = 0
    mov x6, #PRIVATE_BASE   // our tail code: ((core + 1) << 2)
    sub x6, x5, x6
    lsr x6, x6, #16
    add x6, x6, #1
    lsl w6, w6, #2
    add x7, x0, #2
xchg_tail:
.if LSE
    swph w6, w1, [x7]       // xchg_relaxed(tail): w1 the old tail
.else
    ldaxrh w1, [x7]         // old tail
    stxrh w3, w6, [x7]
    cbnz w3, xchg_tail
.endif
    cbz w1, head            // no predecessor
    lsr w1, w1, #2          // predecessor's node
    sub w1, w1, #1
    lsl x1, x1, #16
    mov x2, #PRIVATE_BASE
    add x1, x1, x2
    adr x2, node            // same offset in every core's private area
    mov x3, #PRIVATE_BASE
    sub x2, x2, x3
    lsr x3, x2, #16
    lsl x3, x3, #16
    sub x2, x2, x3          // offset of node inside a private area
    add x1, x1, x2
    str x5, [x1]            // prev->next = node
    add x8, x5, #8
    sevl
wait_node:                  // smp_cond_load_acquire(&node->locked, VAL)
    wfe
    ldaxr x2, [x8]
    cbz x2, wait_node
head:
    sevl
wait_head:                  // until LOCKED and PENDING are both clear
    wfe
    ldaxr w1, [x0]
    and w2, w1, #0xffff
    cbnz w2, wait_head
    lsl w4, w6, #16         // our tail in lock-word position
    cmp w1, w4
    b.ne set_locked         // someone queued behind us
claim:
.if LSE
    mov w2, w1
    mov w3, #1
    cas w2, w3, [x0]        // cmpxchg(lock, val, LOCKED): we are last
    cmp w2, w1
    b.ne set_locked
    ret
.else
    ldaxr w2, [x0]          // cmpxchg(lock, val, LOCKED): we are last
    cmp w2, w1
    b.ne set_locked
    mov w3, #1
    stxr w9, w3, [x0]
    cbnz w9, claim
    ret
.endif
set_locked:
    mov w2, #1
    strb w2, [x0]
wait_next:
    ldr x1, [x5]
    cbz x1, wait_next
    mov x2, #1
    add x1, x1, #8
    stlr x2, [x1]           // hand the MCS baton: next->locked = 1
    ret

spin_unlock:
    stlrb wzr, [x0]
    ret

// Queued reader-writer lock, Linux v4.15+ kernel/locking/qrwlock.c with the
// October 2017 writer-fairness fix (arm-sync.md 1.9), LL/SC atomics.
// cnts (32 bits): byte 0 writer LOCKED (0xff), bit 8 WAITING, readers in
// units of 0x200. wait_lock: a ticket spinlock that orders the slow paths.
// ROLE 0 = writer, 1 = reader. Writers hold the lock exclusively: they set
// `in_write`, bump `counter`, clear `in_write` (and use the lock marks, so the
// simulator checks their mutual exclusion); readers check `in_write` is 0
// inside their section and count violations in `bad`.
// Reader:  fast path add 0x200; if a writer holds or waits, undo, take
//          wait_lock, add again, wait for LOCKED to clear, release wait_lock.
// Writer:  fast path CAS 0 -> LOCKED; else take wait_lock, set WAITING, wait
//          until cnts == WAITING, CAS WAITING -> LOCKED, release wait_lock.
// Known unfair step: fast-path readers arriving while a writer waits in the
// slow path keep getting in only until WAITING is set; the wait_lock grab is
// the ticket lock's LL/SC race.
.equ ROLE, 0
.equ ITERATIONS, 0
.equ INSIDE, 10
.equ OUTSIDE, 0
.equ INSIDE_JITTER, 0   // plus 0..N cycles per iteration (as loop.s)
.equ OUTSIDE_JITTER, 0

.data
.shared
.align 64
cnts: .word 0
.align 64
wait_lock: .word 0
.align 64
counter: .quad 0
in_write: .quad 0
.align 64
bad: .quad 0

.text
main:
    adr x20, cnts
    adr x21, wait_lock
    adr x22, counter
    mov x19, #0
    mov x23, #ITERATIONS
    mov x24, #ROLE
    cbnz x24, reader

writer:
    mark lock_begin
    bl write_lock
    mark lock_acquired
    mov x1, #1
    str x1, [x22, #8]       // in_write = 1
    ldr x1, [x22]
    add x1, x1, #1
    str x1, [x22]
    work INSIDE
    work 0, INSIDE_JITTER
    str xzr, [x22, #8]
    mark lock_release
    stlrb wzr, [x20]        // write_unlock: release the writer byte
    work OUTSIDE
    work 0, OUTSIDE_JITTER
    add x19, x19, #1
    cbz x23, writer
    cmp x19, x23
    b.lo writer
    halt

reader:
    bl read_lock
    ldr x1, [x22, #8]       // a writer inside with us?
    cbz x1, read_ok
    adr x2, bad
bad_inc:                    // bad += 1, with the LL/SC atomics of the rest
    ldxr x4, [x2]
    add x4, x4, #1
    stxr w3, x4, [x2]
    cbnz w3, bad_inc
read_ok:
    work INSIDE
    work 0, INSIDE_JITTER
read_unlock:
    ldxr w1, [x20]          // atomic_sub_release(0x200)
    sub w1, w1, #0x200
    stlxr w3, w1, [x20]
    cbnz w3, read_unlock
    work OUTSIDE
    work 0, OUTSIDE_JITTER
    add x19, x19, #1
    cbz x23, reader
    cmp x19, x23
    b.lo reader
    halt

read_lock:
    mov x27, x30
    bl add_reader           // cnts += 0x200, w1 = new value
    and w2, w1, #0x1ff      // a writer holds or waits?
    cbz w2, read_done
    bl sub_reader
    mov x0, x21
    bl spin_lock            // wait_lock
    bl add_reader
    sevl
read_wait:                  // until the writer byte is clear
    and w2, w1, #0xff
    cbz w2, read_unlock_wait
    wfe
    ldaxr w1, [x20]
    b read_wait
read_unlock_wait:
    mov x0, x21
    bl spin_unlock
read_done:
    mov x30, x27
    ret

add_reader:
    ldaxr w1, [x20]
    add w1, w1, #0x200
    stxr w3, w1, [x20]
    cbnz w3, add_reader
    ret
sub_reader:
    ldxr w1, [x20]
    sub w1, w1, #0x200
    stxr w3, w1, [x20]
    cbnz w3, sub_reader
    ret

write_lock:
    mov x27, x30
fast_w:
    ldaxr w1, [x20]         // cmpxchg_acquire(cnts, 0, LOCKED)
    cbnz w1, slow_w
    mov w2, #0xff
    stxr w3, w2, [x20]
    cbnz w3, fast_w
    mov x30, x27
    ret
slow_w:
    mov x0, x21
    bl spin_lock
set_waiting:
    ldaxr w1, [x20]         // atomic_or(WAITING)
    orr w1, w1, #0x100
    stxr w3, w1, [x20]
    cbnz w3, set_waiting
    sevl
wait_w:                     // until cnts == WAITING, then WAITING -> LOCKED
    wfe
    ldaxr w1, [x20]
    cmp w1, #0x100
    b.ne wait_w
    mov w2, #0xff
    stxr w3, w2, [x20]
    cbnz w3, wait_w
    mov x0, x21
    bl spin_unlock
    mov x30, x27
    ret

// wait_lock: the ticket spinlock, lock address in x0.
.include "ticket_functions.inc"

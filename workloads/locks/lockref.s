// lockref (lib/lockref.c): a 64-bit word {low 32: a ticket spinlock,
// high 32: a reference count} updated by a compare-and-swap loop that keeps
// retrying while the embedded spinlock reads as unlocked (CMPXCHG_LOOP), and
// falls back to taking the spinlock when it is held, or (RETRIES > 0, Linux
// 5.2 and later) after RETRIES failed attempts (arm-sync.md 4.1).
// The CAS is the relaxed 64-bit cmpxchg: LDXR/STXR (LSE = 0, arm-sync.md 4.2:
// a lost reservation retries inside the primitive) or LSE CAS (LSE = 1).
// Each iteration: get (count + 1), work OUTSIDE, put (count - 1); after
// ITERATIONS, one last get, so a finished run leaves count = number of cores.
// Per core, in its .private data (stat_*, reported in result.json under
// cores[].program): +0 CAS attempts, +8 CAS successes, +16 fallbacks.
// Known unfair step: the CAS loop has no order; under contention most CASes
// fail (about 25 attempts per success with 28 threads, calibration.yaml).
.equ ITERATIONS, 0
.equ OUTSIDE, 0
.equ RETRIES, 0         // 0 = unbounded (before 5.2), 100 = bounded
.equ LSE, 0
.equ START, 0

.data
.shared
.align 64
lockref: .quad 0
.private
.align 64
stats:                  // reported per core in result.json (cores[].program)
stat_cas_attempts: .quad 0
stat_cas_successes: .quad 0
stat_fallbacks: .quad 0

.text
main:
    work START
    adr x0, lockref
    adr x26, stats
    mov x19, #0
    mov x21, #ITERATIONS
    mov x22, #LSE
    mov x23, #RETRIES
iteration:
    mov x9, #1
    bl update
    work OUTSIDE
    mov x9, #-1
    bl update
    add x19, x19, #1
    cbz x21, iteration
    cmp x19, x21
    b.lo iteration
    mov x9, #1
    bl update
    halt

// count += x9 (as a 32-bit signed delta in the high half)
update:
    lsl x10, x9, #32        // the delta, moved to the count half
    mov x11, #0             // failed attempts in this call
    ldr x1, [x0]            // old
loop:
    and x2, x1, #0xffffffff
    eor w3, w2, w2, ror #16 // spinlock free (owner == next)?
    cbnz w3, fallback
    add x4, x1, x10         // new
    ldr x6, [x26]
    add x6, x6, #1
    str x6, [x26]           // one more CAS attempt
    cbnz x22, lse_cas
    prfm pstl1strm, [x0]
llsc:
    ldxr x5, [x0]
    cmp x5, x1
    b.ne failed
    stxr w6, x4, [x0]
    cbnz w6, llsc           // lost the reservation: retry inside the primitive
    b succeeded
lse_cas:
    mov x5, x1
    cas x5, x4, [x0]
    cmp x5, x1
    b.ne failed
succeeded:
    ldr x6, [x26, #8]
    add x6, x6, #1
    str x6, [x26, #8]
    ret
failed:
    mov x1, x5              // the value the CAS saw
    add x11, x11, #1
    cbz x23, loop           // unbounded
    cmp x11, x23
    b.lo loop
fallback:
    ldr x6, [x26, #16]
    add x6, x6, #1
    str x6, [x26, #16]
    mov x27, x30
    mark lock_begin
    bl spin_lock
    mark lock_acquired
    ldr w2, [x0, #4]
    add w2, w2, w9
    str w2, [x0, #4]
    mark lock_release
    bl spin_unlock
    mov x30, x27
    ret

// The ticket spinlock on the low word.
.include "ticket_functions.inc"

// Test-and-test-and-set with exponential backoff (Anderson 1990; Herlihy &
// Shavit ch. 7): spin reading the lock (in the cache, no traffic) until it
// looks free, then try to take it with LDAXR/STXR; on failure wait a backoff
// that doubles from BACKOFF_MIN to BACKOFF_MAX cycles.
// Unlock: store-release 0.
// Known unfair step: a core coming out of a long backoff loses to one with a
// short backoff; the fastest core tends to keep the lock.
.include "loop.s"
.equ BACKOFF_MIN, 16
.equ BACKOFF_MAX, 4096

.data
.shared
.align 64
lock: .word 0

.text
spin_lock:
    mov x4, #BACKOFF_MIN
    mov w2, #1
test:
    ldr w1, [x0]
    cbnz w1, test           // test: spin while taken
    ldaxr w1, [x0]
    cbnz w1, backoff
    stxr w3, w2, [x0]       // test-and-set
    cbnz w3, backoff
    ret
backoff:
    work x4
    lsl x4, x4, #1
    cmp x4, #BACKOFF_MAX
    b.ls test
    mov x4, #BACKOFF_MAX
    b test

spin_unlock:
    stlr wzr, [x0]
    ret

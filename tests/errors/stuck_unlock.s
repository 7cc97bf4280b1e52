// The 2017 ticket lock whose unlock forgets its store (the stlrh became a
// nop): the first holder marks its release, but the lock stays taken and
// every core waits for ever. The run must stop naming that core.
.include "locks/loop.s"

.data
.shared
.align 64
lock: .word 0

.text
spin_lock:
    prfm pstl1strm, [x0]
grab:
    ldaxr w1, [x0]
    add w2, w1, #0x10000
    stxr w3, w2, [x0]
    cbnz w3, grab
    eor w2, w1, w1, ror #16
    cbz w2, locked
    sevl
wait:
    wfe
    ldaxrh w3, [x0]
    eor w2, w3, w1, lsr #16
    cbnz w2, wait
locked:
    ret

spin_unlock:
    ldrh w1, [x0]
    add w1, w1, #1
    nop                 // the bug: stlrh w1, [x0]
    ret

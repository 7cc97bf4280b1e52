// Test-and-set spinlock: swap 1 into the lock word until the old value is 0.
// Written with LDAXR/STXR (an atomic exchange on Armv8.0), the classic
// textbook lock; Linux never used it on arm64, it is here for comparison.
// Unlock: store-release 0.
// Known unfair step: every waiter hammers the line with exclusive requests;
// whoever's STXR lands first after the release wins, with no order at all.
.include "loop.s"

.data
.shared
.align 64
lock: .word 0

.text
spin_lock:
    mov w2, #1
swap:
    ldaxr w1, [x0]
    stxr w3, w2, [x0]
    cbnz w3, swap
    cbnz w1, swap           // it was taken: try again at once
    ret

spin_unlock:
    stlr wzr, [x0]
    ret

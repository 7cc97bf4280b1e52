// Ticket spinlock, arm64 Linux v4.14, the LSE variant (Armv8.1 atomics):
// arm-sync.md 1.3, 1.4. The ticket is taken with one LDADDA, which cannot
// fail; the wait on the owner half is the same as the LL/SC variant.
// Unlock: STADDLH #1 on the owner half.
// Known unfair step: none in the grab; who wins the line for LDADDA is the
// interconnect's arbitration.
.include "loop.s"

.data
.shared
.align 64
lock: .word 0

.text
spin_lock:
    mov w2, #0x10000
    ldadda w2, w1, [x0]
    nop
    nop
    nop
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
    mov w1, #1
    staddlh w1, [x0]
    nop
    ret

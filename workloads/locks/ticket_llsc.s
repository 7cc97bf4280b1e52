// Ticket spinlock, arm64 Linux v4.14 (arch/arm64/include/asm/spinlock.h),
// the LL/SC variant used on Armv8.0 cores (Cortex-A53, A73): arm-sync.md 1.2, 1.4.
// Lock word (32 bits): low half = owner (now serving), high half = next.
// Lock:   prfm pstl1strm; ldaxr/add #0x10000/stxr until the STXR succeeds (a
//         ticket); if owner != ticket: sevl, then wfe + ldaxrh owner until equal.
// Unlock: ldrh owner; add #1; stlrh owner.
// Known unfair step: the ticket grab (LDAXR..STXR) retries with no backoff;
// a core whose STXR keeps failing never gets a ticket (arm-sync.md 3.6).
.include "loop.s"

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
    eor w2, w1, w1, ror #16     // owner == my ticket?
    cbz w2, locked
    sevl
wait:
    wfe
    ldaxrh w3, [x0]             // re-arms the monitor on the owner half
    eor w2, w3, w1, lsr #16
    cbnz w2, wait
locked:
    ret

spin_unlock:
    ldrh w1, [x0]
    add w1, w1, #1
    stlrh w1, [x0]
    ret

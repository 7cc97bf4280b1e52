// Ticket spinlock, arm64 Linux v4.14 (arch/arm64/include/asm/spinlock.h),
// the LL/SC variant used on Armv8.0 cores (Cortex-A53, A73): arm-sync.md 1.2, 1.4.
// Lock word (32 bits): low half = owner (now serving), high half = next.
// Lock:   prfm pstl1strm; ldaxr/add #0x10000/stxr until the STXR succeeds (a
//         ticket); if owner != ticket: sevl, then wfe + ldaxrh owner until equal.
// Unlock: ldrh owner; add #1; stlrh owner.
// WAIT_POLL 1: waiters poll the owner half (yield; ldarh) instead, as
// user-space ticket locks without WFE do (docs/design/waiting-cores.md).
// Known unfair step: the ticket grab (LDAXR..STXR) retries with no backoff;
// a core whose STXR keeps failing never gets a ticket (arm-sync.md 3.6).
.include "loop.s"
.equ WAIT_POLL, 0       // 1 = waiters poll the owner half instead of sleeping in WFE

.data
.shared
.align 64
lock: .word 0

.text
.include "ticket_functions.inc"

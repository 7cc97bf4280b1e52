// False sharing: every core increments its own counter, with a plain
// load/add/store, ITERATIONS times. With PAD = 0 the counters sit side by
// side in one 64-byte line, so each increment needs the line unique and
// takes it from the core that wrote last; with PAD = 1 each counter has a
// line of its own and every increment after the first hits in the L1.
// The core's counter is chosen by SLOT (0..7).
.equ ITERATIONS, 1000
.equ PAD, 0
.equ SLOT, 0

.data
.shared
.align 64
counters: .space 512     // 8 counters: 8 bytes apart (PAD = 0) or 64 (PAD = 1)

.text
main:
    adr x0, counters
    mov x1, #SLOT
    mov x2, #PAD
    cbz x2, packed
    lsl x1, x1, #6          // 64 bytes apart
    b placed
packed:
    lsl x1, x1, #3          // 8 bytes apart
placed:
    add x0, x0, x1
    mov x19, #ITERATIONS
    region increments
loop:
    ldr x3, [x0]
    add x3, x3, #1
    str x3, [x0]
    sub x19, x19, #1
    cbnz x19, loop
    endregion
    halt

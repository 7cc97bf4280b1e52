// A function-profile probe: each run reads a SIZE-byte buffer line by line
// inside `region probe`, so the profile shows one run's latency (Hit, Time,
// Avg, s^2 and its distribution). Between runs the core works GAP cycles and,
// with FLUSH > 0, streams through a FLUSH-byte buffer of its own first (a
// core streaming through memory between runs), so the next run starts cold:
//   FLUSH = 0          warm runs: after the first, every line hits in the L1;
//   FLUSH > L1 size    the lines come from the cluster's L2;
//   FLUSH > L2 size    they come from memory.
// Each core picks its own 4 MiB slot (SLOT 0..3) so cores do not share lines:
// the probe buffer at its start (SIZE <= 256 KiB), the flush buffer 256 KiB
// in (FLUSH <= 3.75 MiB). Sizes are multiples of 64 bytes.
.equ SIZE, 4096
.equ FLUSH, 0
.equ GAP, 1000
.equ RUNS, 0            // 0 = forever
.equ SLOT, 0            // which copy of the buffers this core uses (0..3)

.data
.shared
.align 64
buffers: .space 0x1000000  // 4 slots x 4 MiB: probe buffer, then flush buffer

.text
main:
    adr x20, buffers
    mov x1, #SLOT
    lsl x1, x1, #22
    add x20, x20, x1        // this core's slot
    add x21, x20, #0x40000  // its flush buffer, 256 KiB in
    mov x19, #0
    mov x22, #RUNS
run:
    region probe
    mov x1, x20
    mov x2, #SIZE
read:
    ldr x3, [x1]
    add x4, x4, x3          // use the data: a run ends when its last line is in
    add x1, x1, #64
    sub x2, x2, #64
    cbnz x2, read
    endregion
    work GAP
    mov x1, x21
    mov x2, #FLUSH
    cbz x2, flushed
flush:
    ldr x3, [x1]
    add x4, x4, x3          // done with each line before the next run starts
    add x1, x1, #64
    sub x2, x2, #64
    cbnz x2, flush
flushed:
    add x19, x19, #1
    cbz x22, run
    cmp x19, x22
    b.lo run
    halt

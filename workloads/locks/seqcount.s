// A seqcount-protected split 64-bit value (include/linux/seqlock.h; the
// 32-bit split u64 read pattern): the writer bumps the sequence to odd,
// writes the two 32-bit halves (wmb around), bumps it back to even; the reader
// retries while the sequence is odd or changed across its two loads (rmb
// around). ROLE 0 = writer, 1 = reader. PROTECT = 0 makes the reader skip the
// sequence checks, to show the torn reads the protocol prevents.
// The writer stores the same number in both halves, so a reader that sees
// different halves saw a torn value: it counts it in `torn`.
// The readers' counters are bumped with LDADD where the core has LSE, else
// with an LDXR/STXR loop (LSE: set per core unless the scenario sets it).
// Known unfair step: a busy writer can keep readers retrying.
.equ ROLE, 0
.equ LSE, 1
.equ PROTECT, 1
.equ ITERATIONS, 0
.equ MID, 20            // cycles between the two halves
.equ OUTSIDE, 0

.data
.shared
.align 64
seq: .word 0
.align 64
value: .word 0          // low half
       .word 0          // high half
.align 64
torn: .quad 0           // torn reads seen by all readers
reads: .quad 0          // completed reads by all readers

.text
main:
    adr x0, seq
    adr x1, value
    mov x19, #0
    mov x21, #ITERATIONS
    mov x2, #ROLE
    cbnz x2, reader
writer:
    ldr w3, [x0]
    add w3, w3, #1
    str w3, [x0]            // odd: a write is in progress
    dmb ishst
    add w5, w5, #1
    str w5, [x1]
    work MID
    str w5, [x1, #4]
    dmb ishst
    add w3, w3, #1
    str w3, [x0]            // even again
    work OUTSIDE
    add x19, x19, #1
    cbz x21, writer
    cmp x19, x21
    b.lo writer
    halt
reader:
    mov x6, #PROTECT
read:
    ldr w3, [x0]
    cbz x6, load
    tbnz w3, #0, read       // a write is in progress
    dmb ishld
load:
    ldr w7, [x1]
    work MID
    ldr w8, [x1, #4]
    cbz x6, check
    dmb ishld
    ldr w4, [x0]
    cmp w3, w4
    b.ne read               // the sequence moved: read again
check:
    cmp w7, w8
    b.eq counted
    adr x9, torn
    bl count
counted:
    adr x9, reads
    bl count
    work OUTSIDE
    add x19, x19, #1
    cbz x21, read
    cmp x19, x21
    b.lo read
    halt

// [x9] += 1 atomically: LDADD (LSE), or an LDXR/STXR loop.
count:
    mov x10, #1
    mov x12, #LSE
    cbz x12, count_llsc
    ldadd x10, x11, [x9]
    ret
count_llsc:
    ldxr x11, [x9]
    add x11, x11, x10
    stxr w12, x11, [x9]
    cbnz w12, count_llsc
    ret

// Load-to-use latency of a working set, measured as lmbench's lat_mem_rd
// does: a chain of pointers through SIZE bytes, STRIDE bytes apart, the last
// pointing back to the first, walked with dependent loads (each address is
// the previous load's data). One pass warms the caches; LOADS loads are then
// timed inside `region chase`, 16 to a loop iteration so the loop's own two
// instructions add 1/8 cycle per load. A cyclic walk through more than a
// cache holds misses it throughout (LRU), so the latency steps from level to
// level as SIZE grows (`cohsim latmem` runs the sizes).
.equ SIZE, 65536        // working set, bytes: a multiple of STRIDE, at most 32 MiB
.equ STRIDE, 64         // one cache line per pointer
.equ LOADS, 2048        // loads timed: a multiple of 16

.data
.shared
.align 64
chain: .space 0x2000000     // 32 MiB

.text
main:
    adr x1, chain
    mov x2, #SIZE
    add x3, x1, x2          // the end of the working set
    mov x4, x1
build:
    add x5, x4, #STRIDE
    cmp x5, x3
    b.lo link
    mov x5, x1              // the last element points back to the first
link:
    str x5, [x4]
    mov x4, x5
    cmp x4, x1
    b.ne build
    mov x0, x1
warm:
    ldr x0, [x0]
    cmp x0, x1
    b.ne warm
    mov x6, #LOADS
    region chase
timed:
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    ldr x0, [x0]
    sub x6, x6, #16
    cbnz x6, timed
    endregion
    halt

// Core-to-core latency, measured the way the core-to-core-latency tool's CAS
// test measures a real machine: two threads hand one cache line back and
// forth. Each spins on a compare-and-swap until the line holds the value it
// waits for (ME), then swaps in the other thread's (1 - ME). Every hand-off
// is one acquisition mark, so a pair's one-way latency is the run's time
// over both threads' acquisitions (`cohsim c2c` does this for every pair).
//   ME   0 or 1: the value this thread waits for; one thread of the pair each
//   LSE  1: CAS (Armv8.1 LSE, what a compiler emits with it); 0: the
//        LDXR/STXR loop a compiler emits for compare_exchange_strong on Armv8.0
.equ ME, 0
.equ LSE, 1

.data
.shared
.align 64
flag: .word 0

.text
main:
    adr x0, flag
    mov w4, #ME
    mov w5, #1
    sub w5, w5, w4          // the value handed over: 1 - ME
    mov x6, #LSE
    cbz x6, llsc
lse:
    mark lock_begin
lse_try:
    mov w1, w4
    cas w1, w5, [x0]        // w1: the old value
    cmp w1, w4
    b.ne lse_try
    mark lock_acquired
    mark lock_release
    b lse
llsc:
    mark lock_begin
llsc_try:
    ldxr w1, [x0]
    cmp w1, w4
    b.ne llsc_try
    stxr w2, w5, [x0]
    cbnz w2, llsc_try
    mark lock_acquired
    mark lock_release
    b llsc

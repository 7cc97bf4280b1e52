// The lock-loop harness shared by the lock library. Each lock file includes
// it and defines `spin_lock` and `spin_unlock` (lock address in x0; they may
// use x1-x9 and must keep x19-x29).
//
//   forever (or ITERATIONS times):
//     mark lock_begin; spin_lock; mark lock_acquired
//     [COUNT: counter += 1 with a plain load/add/store]; work INSIDE
//     mark lock_release; spin_unlock; cpu_relax; work OUTSIDE
//
// cpu_relax (RELAX): 0 = yield (arm64's cpu_relax of 2017, a NOP);
// 1 = WFE back-off (the 2017 experimental patch, arm-sync.md 2.2): count
// consecutive calls and every THRESHOLD-th call do `sevl; wfe; wfe`, sleeping
// until the next event. The count lives in x20 (the patch keeps it per CPU).

.equ ITERATIONS, 0      // 0 = forever
.equ INSIDE, 0          // cycles of work inside the critical section
.equ OUTSIDE, 0         // cycles of work after cpu_relax
.equ INSIDE_JITTER, 0   // plus 0..INSIDE_JITTER cycles, drawn per iteration
.equ OUTSIDE_JITTER, 0  // plus 0..OUTSIDE_JITTER cycles, drawn per iteration
.equ RELAX, 0           // 0 = yield, 1 = wfe_backoff
.equ THRESHOLD, 10000   // wfe_backoff: calls per sleep
.equ COUNT, 0           // 1 = increment `counter` inside the critical section
.equ START, 0           // cycles to wait before the first iteration

.data
.shared
.align 64
counter: .quad 0        // its own line, away from the lock

.text
main:
    work START
    mov x19, #0         // iterations done
    mov x20, #0         // consecutive cpu_relax calls
    mov x21, #ITERATIONS
    mov x22, #COUNT
    adr x23, counter
iteration:
    adr x0, lock
    mark lock_begin
    bl spin_lock
    mark lock_acquired
    cbz x22, no_count
    ldr x1, [x23]
    add x1, x1, #1
    str x1, [x23]
no_count:
    work INSIDE
    work 0, INSIDE_JITTER
    adr x0, lock
    mark lock_release
    bl spin_unlock
    bl cpu_relax
    work OUTSIDE
    work 0, OUTSIDE_JITTER
    add x19, x19, #1
    cbz x21, iteration
    cmp x19, x21
    b.lo iteration
    halt

cpu_relax:
    mov x1, #RELAX
    cbz x1, relax_yield
    add x20, x20, #1
    cmp x20, #THRESHOLD
    b.lo relax_yield
    mov x20, #0
    sevl
    wfe                 // consumes the event just posted
    wfe                 // sleeps until the next wake-up event
    ret
relax_yield:
    yield
    ret

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
// With RELAX_WORD 1 too (cpu_relax: wfe_backoff_percpu), the patch as
// rebased in 2023, instruction for instruction where the model can: a
// per-CPU word holds the last call site and its consecutive calls; a call
// from the same site with more than THRESHOLD calls before it sleeps (`sevl;
// wfe; wfe`) and its count starts again at 0 (the word starts empty: the
// first sleep at call THRESHOLD + 3, then one every THRESHOLD + 2 calls,
// against every THRESHOLD calls with RELAX alone); the word is written
// back with a per-CPU cmpxchg (an exclusive pair, preemption off around
// it), then `yield` unless it slept.

.equ ITERATIONS, 0      // 0 = forever
.equ INSIDE, 0          // cycles of work inside the critical section
.equ OUTSIDE, 0         // cycles of work after cpu_relax
.equ INSIDE_JITTER, 0   // plus 0..INSIDE_JITTER cycles, drawn per iteration
.equ OUTSIDE_JITTER, 0  // plus 0..OUTSIDE_JITTER cycles, drawn per iteration
.equ RELAX, 0           // 0 = yield, 1 = wfe_backoff
.equ THRESHOLD, 10000   // wfe_backoff: calls per sleep
.equ RELAX_WORD, 0      // 1 = wfe_backoff_percpu: the back-off's count in a per-CPU word
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
.if RELAX_WORD
    adr x2, relax_word          // this_cpu_ptr (the kernel adds the per-CPU offset)
    ldr x3, [x2]                // this_cpu_read
    and x4, x30, #0xffffffff    // this call site (the return address's low half)
    and x5, x3, #0xffffffff
    lsr x6, x3, #32
    mov x10, #0                 // slept?
    mov x7, x4                  // a new call site: its count starts at 0
    cmp x5, x4
    b.ne relax_swap
    cmp x6, #THRESHOLD
    b.hi relax_sleep
    add x6, x6, #1
    orr x7, x4, x6, lsl #32
    b relax_swap
relax_sleep:
    sevl
    wfe                         // consumes the event just posted
    wfe                         // sleeps until the next wake-up event
    mov x10, #1                 // (the count starts again at 0)
relax_swap:
    adr x8, relax_preempt       // preempt_disable
    ldr x9, [x8]
    add x9, x9, #1
    str x9, [x8]
relax_exclusive:                // this_cpu_cmpxchg(word, old, new)
    ldxr x11, [x2]
    cmp x11, x3
    b.ne relax_swapped
    stxr w9, x7, [x2]
    cbnz w9, relax_exclusive
relax_swapped:
    ldr x9, [x8]                // preempt_enable, and its check (nothing to schedule here)
    sub x9, x9, #1
    str x9, [x8]
    cbz x9, relax_preemptible
relax_preemptible:
    cbnz x10, relax_done        // slept: no yield
    cmp x11, x3
    b.ne relax_done             // the word changed meanwhile: no yield
    yield
relax_done:
    ret

.data
.private
.align 64
relax_word: .quad 0             // per CPU: {call site, count}
relax_preempt: .quad 0          // stands for the task's preempt count
.text
.else
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
.endif

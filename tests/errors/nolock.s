// A "lock" with no mutual exclusion: spin_lock only reads the lock word.
// Every core gets in at once; the run must stop at the first overlap of two
// critical sections (mutex_checker), in both timing modes at the same time.
.include "locks/loop.s"

.data
.shared
.align 64
lock: .word 0

.text
spin_lock:
    ldr w1, [x0]
    ret
spin_unlock:
    ret

/* The entry point of a C workload run as a Linux process under qemu-aarch64,
 * the oracle of tests/model/elf_test.cpp: calls compute(), writes its 64
 * results to standard output as hex lines, and exits 0 (raw system calls:
 * there is no C library). */
extern void compute(unsigned long *out);

static long sys(long n, long a, long b, long c) {
    register long x8 __asm__("x8") = n, x0 __asm__("x0") = a, x1 __asm__("x1") = b, x2 __asm__("x2") = c;
    __asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
    return x0;
}

void main_start(void) {
    static unsigned long out[64];
    static char buf[64 * 17];
    compute(out);
    char* p = buf;
    for (int k = 0; k < 64; ++k) {
        for (int d = 15; d >= 0; --d) *p++ = "0123456789abcdef"[(out[k] >> (4 * d)) & 15];
        *p++ = '\n';
    }
    sys(64, 1, (long)buf, p - buf); /* write */
    sys(93, 0, 0, 0);               /* exit */
}

/* The stack pointer is set by the kernel; align and call. */
__asm__(".globl _start\n_start:\n	mov x29, #0\n	bl main_start\n");

/* A program whose only data is zero-initialised (.bss): its writable LOAD
 * segment has no bytes in the file (FileSiz 0, MemSiz 16), and the linker
 * gives it a file offset past the end of the file. cohsim must take it
 * (tests/e2e/cli_test.cpp, Cli.AProgramWithOnlyZeroInitialisedGlobalsRuns). */
#include "cohsim.h"

unsigned long counters[2];

void thread(const struct cohsim_args *a) {
    for (unsigned long n = 0; n < 10; ++n) {
        counters[a->thread & 1]++;
        COHSIM_WORK(10);
    }
}

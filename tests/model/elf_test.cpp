// C workloads built by the Debian cross-compiler (workloads/c/*.c) running
// on the core models: compiled code computes what qemu-aarch64 computes from
// the same source; the C ticket lock and the C11 locks exclude and count
// every critical section; the C ticket lock runs as the assembly one does.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <memory>

#include "lock_threads.h"
#include "platform_fixture.h"
#include "workloads/scenario.h"

using namespace cohsim;
using namespace cohsim::testing;

#ifndef COHSIM_C_WORKLOADS
#define COHSIM_C_WORKLOADS ""
#define COHSIM_QEMU ""
#endif

namespace {

std::string elf(const std::string& name) { return std::string(COHSIM_C_WORKLOADS) + "/" + name + ".elf"; }

#define NEED_CROSS()                                                                              \
    if (!*COHSIM_C_WORKLOADS) GTEST_SKIP() << "no aarch64-linux-gnu-gcc: the C workloads are not built"

// Runs until every thread has ended (halted cores cost nothing), at most 2 s.
void run_to_end() {
    for (int i = 0; i < 2000; ++i) run_for_fs(1'000'000'000'000ULL);
}

std::uint64_t acquisitions(const system_model& sys) {
    std::uint64_t total = 0;
    for (const auto& t : sys.threads()) total += t->metrics().acquisitions();
    return total;
}

// The 64 results of alu_check's compute(), as qemu-aarch64 prints them.
std::vector<std::uint64_t> qemu_results(const std::string& file) {
    std::vector<std::uint64_t> out;
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen((std::string(COHSIM_QEMU) + " " + file).c_str(), "r"), pclose);
    char line[64];
    while (p && std::fgets(line, sizeof line, p.get())) out.push_back(std::strtoull(line, nullptr, 16));
    return out;
}

void alu_check(const std::string& variant, const std::vector<std::string>& cores) {
    if (!*COHSIM_QEMU) GTEST_SKIP() << "no qemu-aarch64 (sh scripts/setup.sh installs qemu-user)";
    const std::vector<std::uint64_t> expected = qemu_results(elf("alu_check-qemu" + variant));
    ASSERT_EQ(expected.size(), 64u) << "qemu-aarch64 did not run " << elf("alu_check-qemu" + variant);
    std::vector<std::string> sets = {"workload.program=" + elf("alu_check" + variant), "workload.function=thread",
                                     "workload.threads=[{core: little.0}]"};
    sets.insert(sets.end(), cores.begin(), cores.end());
    system_model sys(test_platform(sets));
    run_to_end();
    const std::uint64_t results = sys.threads().at(0)->program().objects.at("results");
    for (unsigned k = 0; k < 64; ++k) EXPECT_EQ(sys.memory().peek(results + 8 * k, 8), expected[k]) << "results[" << k << "]";
}

// `cores` threads of `file`'s `function`, `iters` iterations each: every
// acquisition counted in the C `counter`, the mutex checker never tripped.
void lock_counts(const std::string& file, const std::string& function, unsigned iters, std::vector<std::string> extra = {},
                 unsigned per_cluster = 2) {
    const auto ids = cores_of(per_cluster, per_cluster);
    std::vector<std::string> sets = {"clusters.little.cores=" + std::to_string(per_cluster),
                                     "clusters.big.cores=" + std::to_string(per_cluster),
                                     "workload.program=" + elf(file),
                                     "workload.function=" + function,
                                     "workload.params={COUNT: 1}",
                                     threads_on(ids, iters, [](unsigned) { return std::string(", inside: 50cycles"); })};
    sets.insert(sets.end(), extra.begin(), extra.end());
    system_model sys(test_platform(sets));
    run_to_end();
    EXPECT_EQ(acquisitions(sys), ids.size() * iters);
    const std::uint64_t counter = sys.threads().at(0)->program().objects.at("counter");
    EXPECT_EQ(sys.memory().peek(counter, 8), ids.size() * iters) << "the counter in the critical section";
}

// A CNA build (`file`: workloads/c/cna.c, or cna_qspinlock.c) on two
// sockets, the little cluster on socket 0 and the big one on socket 1,
// `per_socket` threads each, 200 iterations: every critical section
// counted, and the hand-offs that crossed sockets (the program's
// `remote_handoffs`), with its intra-socket threshold set to `threshold`
// (the program's default, 1 << 16, when none).
std::uint64_t cna_remote_handoffs(std::optional<std::uint64_t> threshold, const std::string& file = "cna",
                                  unsigned per_socket = 2, std::vector<std::string> extra = {}) {
    const auto ids = cores_of(per_socket, per_socket);
    const std::string n = std::to_string(per_socket);
    std::vector<std::string> sets = {"clusters.little.cores=" + n, "clusters.big.cores=" + n, "clusters.big.socket=1",
                                     "workload.program=" + elf(file), "workload.function=thread",
                                     "workload.params={COUNT: 1}",
                                     threads_on(ids, 200, [](unsigned) { return std::string(", inside: 50cycles"); })};
    sets.insert(sets.end(), extra.begin(), extra.end());
    system_model sys(test_platform(sets));
    const auto& objects = sys.threads().at(0)->program().objects;
    if (threshold) sys.memory().poke(objects.at("cna_threshold"), 8, *threshold);
    run_to_end();
    EXPECT_EQ(acquisitions(sys), ids.size() * 200);
    EXPECT_EQ(sys.memory().peek(objects.at("counter"), 8), ids.size() * 200) << "the counter in the critical section";
    return sys.memory().peek(objects.at("remote_handoffs"), 8);
}

}  // namespace

// With Linux's threshold (65536 hand-offs) the lock stays on the socket that
// has it while that socket has a waiter: the other socket's threads wait in
// the secondary queue until the first socket's have run all 400 of theirs,
// so the lock crosses once (and at most once more, in the first moments,
// before both sockets' threads are queued).
TEST(ElfWorkload, CnaKeepsTheLockOnItsSocket) {
    NEED_CROSS();
    EXPECT_LE(cna_remote_handoffs(std::nullopt), 2u);
}

// Threshold 0: no hand-off is kept local, the queue is served in order (an
// MCS lock): the four threads queue in turn, two of each socket, so every
// second hand-off at least crosses (every one, queued alternately): about
// 400 of the 799, less a few at the start and the end.
TEST(ElfWorkload, CnaWithThresholdZeroServesTheQueueInOrder) {
    NEED_CROSS();
    EXPECT_GE(cna_remote_handoffs(0), 350u);
}

// Threshold 4: at most 5 holders in a row on one socket (intra-socket
// hand-offs counted 1..4, then the secondary queue goes first), so of 800
// acquisitions at least 800 / 5 - 1 start a new socket's run.
TEST(ElfWorkload, CnaHandsTheLockToTheOtherSocketAfterItsThreshold) {
    NEED_CROSS();
    const std::uint64_t remote = cna_remote_handoffs(4);
    EXPECT_GE(remote, 159u);
    EXPECT_LT(remote, 400u);  // fewer than in queue order
}

// CNA on the queued spinlock's slow path (cna_qspinlock.c), four threads on
// each socket, 1600 acquisitions, so that most waiters queue (an
// acquisition by the fast path or the pending bit, only while the queue is
// empty, bypasses the queue's order). With Linux's threshold, as the
// stand-alone CNA above: the lock crosses once, and at most once more at
// the start.
TEST(ElfWorkload, CnaQspinlockKeepsTheLockOnItsSocket) {
    NEED_CROSS();
    EXPECT_LE(cna_remote_handoffs(std::nullopt, "cna_qspinlock", 4), 2u);
}

// Threshold 0: the queue in arrival order, both sockets' threads queuing
// again as they leave: at least every second hand-off crosses.
TEST(ElfWorkload, CnaQspinlockWithThresholdZeroServesTheQueueInOrder) {
    NEED_CROSS();
    EXPECT_GE(cna_remote_handoffs(0, "cna_qspinlock", 4), 800u);
}

// Threshold 4: at most 4 queue hand-offs in a row within a socket, then
// the other socket's waiters go first; a run grows past 5 only by
// acquisitions while the queue is empty. So at least 1600 / 10 runs, and
// fewer crossings than in queue order (every second one). The LL/SC build
// inline (the outline build above takes libgcc's LL/SC on these cores).
TEST(ElfWorkload, CnaQspinlockHandsTheLockToTheOtherSocketAfterItsThreshold) {
    NEED_CROSS();
    const std::uint64_t remote = cna_remote_handoffs(4, "cna_qspinlock-inline", 4);
    EXPECT_GE(remote, 160u);
    EXPECT_LT(remote, 800u);
}

// The LSE build on cores that have LSE, with Linux's threshold.
TEST(ElfWorkload, CnaQspinlockLseKeepsTheLockOnItsSocket) {
    NEED_CROSS();
    EXPECT_LE(cna_remote_handoffs(std::nullopt, "cna_qspinlock-lse", 4, lse_cores()), 2u);
}

// alu_check in each build, on cores that have what the build uses.
struct alu_case {
    const char* name;
    const char* variant;  // the build: "", -inline, -lse, -v9
    std::vector<std::string> cores;
};

void PrintTo(const alu_case& c, std::ostream* os) { *os << c.name; }

class CompiledCode : public ::testing::TestWithParam<alu_case> {};

TEST_P(CompiledCode, ComputesWhatQemuComputes) {
    NEED_CROSS();
    alu_check(GetParam().variant, GetParam().cores);
}

INSTANTIATE_TEST_SUITE_P(
    ElfWorkload, CompiledCode,
    ::testing::Values(alu_case{"OutlineAtomics", "", {}}, alu_case{"InlineAtomics", "-inline", {}},
                      alu_case{"Armv9", "-v9", {"clusters.little.core=cortex-a510", "clusters.big.core=cortex-a710"}},
                      alu_case{"Lse", "-lse", lse_cores()}),
    [](const ::testing::TestParamInfo<alu_case>& i) { return std::string(i.param.name); });

// Each lock compiled from C, `iters` iterations on every core of a platform
// with `per_cluster` cores a cluster; the LSE builds on cores with LSE. The
// qspinlock runs on 8 cores, so that its fast path, pending bit and MCS queue
// all run (8 contenders queue).
struct lock_case {
    const char* name;
    const char* file;
    const char* function;
    unsigned iters;
    bool lse;
    unsigned per_cluster;
};

void PrintTo(const lock_case& c, std::ostream* os) { *os << c.name; }

class CompiledLock : public ::testing::TestWithParam<lock_case> {};

TEST_P(CompiledLock, ExcludesAndCountsEveryCriticalSection) {
    NEED_CROSS();
    const lock_case& c = GetParam();
    lock_counts(c.file, c.function, c.iters, c.lse ? lse_cores() : std::vector<std::string>{}, c.per_cluster);
}

INSTANTIATE_TEST_SUITE_P(
    ElfWorkload, CompiledLock,
    ::testing::Values(lock_case{"TicketLock", "ticket_lock", "thread", 300, false, 2},
                      lock_case{"TicketLockLse", "ticket_lock-lse", "thread", 300, true, 2},
                      lock_case{"C11Flag", "c11_locks", "flag_thread", 300, false, 2},
                      lock_case{"C11Cas", "c11_locks", "cas_thread", 300, false, 2},
                      lock_case{"C11CasInlineLdxrStxr", "c11_locks-inline", "cas_thread", 200, false, 2},
                      lock_case{"C11FlagInlineLse", "c11_locks-lse", "flag_thread", 200, true, 2},
                      lock_case{"PthreadSpin", "pthread_spin", "thread", 300, false, 2},
                      lock_case{"PthreadSpinInlineLdxrStxr", "pthread_spin-inline", "thread", 200, false, 2},
                      lock_case{"PthreadSpinLse", "pthread_spin-lse", "thread", 200, true, 2},
                      lock_case{"Cna", "cna", "thread", 200, false, 2},
                      lock_case{"CnaInlineLdxrStxr", "cna-inline", "thread", 200, false, 2},
                      lock_case{"CnaLse", "cna-lse", "thread", 200, true, 2},
                      lock_case{"QspinlockEightCores", "qspinlock", "thread", 200, false, 4},
                      lock_case{"QspinlockLseEightCores", "qspinlock-lse", "thread", 200, true, 4}),
    [](const ::testing::TestParamInfo<lock_case>& i) { return std::string(i.param.name); });

// 16-byte pairs under contention: 4 cores add 1 to both halves of a pair
// 300 times each (LDXP/STXP; CASP in the LSE build) and read it whole after
// each add; the halves never differ and no add is lost.
void pairs(const std::string& file, const std::vector<std::string>& cores) {
    std::vector<std::string> sets = {"workload.program=" + elf(file), "workload.function=pair_thread",
                                     threads_on(cores_of(2, 2), 300)};
    sets.insert(sets.end(), cores.begin(), cores.end());
    system_model sys(test_platform(sets));
    run_to_end();
    const asmx::program& p = sys.threads().at(0)->program();
    const std::uint64_t pair = p.objects.at("pair64"), torn = p.objects.at("torn");
    EXPECT_EQ(sys.memory().peek(pair, 8), 1200u);
    EXPECT_EQ(sys.memory().peek(pair + 8, 8), 1200u);
    EXPECT_EQ(sys.memory().peek(torn, 8), 0u);
}

TEST(ElfWorkload, ExclusivePairsAreAtomicUnderContention) {
    NEED_CROSS();
    pairs("alu_check-inline", {});
}

TEST(ElfWorkload, CaspIsAtomicUnderContention) {
    NEED_CROSS();
    pairs("alu_check-lse", lse_cores());
}

// GCC's outline atomics take LSE when every thread's core has it: cohsim sets
// libgcc's switch as a C library's start-up would, and clears it otherwise.
// One platform per process (SystemC elaborates once): a test per core pair.
void outline_switch(bool lse) {
    std::vector<std::string> sets = {"workload.program=" + elf("c11_locks"), "workload.function=cas_thread",
                                     "workload.threads=[{core: little.0, iterations: 1}, {core: big.0, iterations: 1}]"};
    if (lse)
        for (const auto& s : lse_cores()) sets.push_back(s);
    system_model sys(test_platform(sets));
    const std::uint64_t have = sys.threads().at(0)->program().objects.at("__aarch64_have_lse_atomics");
    EXPECT_EQ(sys.memory().peek(have, 1), lse ? 1u : 0u);
}

TEST(ElfWorkload, OutlineAtomicsTakeLseWhenEveryCoreHasIt) {
    NEED_CROSS();
    outline_switch(true);
}

TEST(ElfWorkload, OutlineAtomicsTakeLdxrStxrOnArmv80Cores) {
    NEED_CROSS();
    outline_switch(false);
}

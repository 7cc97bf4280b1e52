// The lock library on 2, 4, 8 and 28 cores (the simulator checks mutual
// exclusion, the counter checks every critical section ran), and the
// simulator catching a lock that does not exclude.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <map>

#include "platform_fixture.h"
#include "stress.h"
#include "workloads/interpreter.h"
#include "workloads/scenario.h"
#include "workloads/trace.h"

using namespace cohsim;
using namespace cohsim::testing;

#include "lock_threads.h"

namespace {

// `cores` threads each take the lock `iters` times and bump a shared counter
// inside; the simulator's mutex checker stops the run if two are ever inside.
void lock_correctness(const std::string& lock, unsigned little, unsigned big, unsigned iters,
                      std::vector<std::string> extra = {}) {
    std::vector<std::string> sets = {"clusters.little.cores=" + std::to_string(little),
                                     "clusters.big.cores=" + std::to_string(big),
                                     "workload.program=locks/" + lock + ".s",
                                     "workload.params={COUNT: 1}", threads_on(cores_of(little, big), iters)};
    sets.insert(sets.end(), extra.begin(), extra.end());
    // The LSE build runs on cores that have LSE (on Armv8.0 ones it faults).
    if (lock.find("lse") != std::string::npos)
        for (const auto& s : lse_cores()) sets.push_back(s);
    system_model sys(test_platform(sets));
    for (int i = 0; i < 2000; ++i) run_for_fs(1'000'000'000'000ULL);  // up to 2 s; halted cores cost nothing
    std::uint64_t total = 0;
    for (const auto& t : sys.threads()) total += t->metrics().acquisitions();
    EXPECT_EQ(total, std::uint64_t{little + big} * iters);
    EXPECT_EQ(sys.memory().peek(shared_base, 8), std::uint64_t{little + big} * iters) << "the counter in the critical section";
}

// One lock, on `little` + `big` cores, `iters` acquisitions each.
struct lock_case {
    const char* name;
    const char* lock;
    unsigned little, big, iters;
    std::vector<std::string> extra;
};
void PrintTo(const lock_case& c, std::ostream* os) { *os << c.name; }

const std::vector<std::string> buffered = {"clusters.little.timing.store_buffer=4", "clusters.big.timing.store_buffer=4"};

class Correctness : public ::testing::TestWithParam<lock_case> {};

TEST_P(Correctness, EveryAcquisitionExcludesTheOthersAndCounts) {
    const lock_case& c = GetParam();
    lock_correctness(c.lock, c.little, c.big, c.iters, c.extra);
}

INSTANTIATE_TEST_SUITE_P(
    LockLibrary, Correctness,
    ::testing::Values(
        lock_case{"TicketLlsc2", "ticket_llsc", 1, 1, 500, {}},
        lock_case{"TicketLlsc4", "ticket_llsc", 2, 2, 300, {}},
        lock_case{"TicketLlsc8", "ticket_llsc", 4, 4, 200, {}},
        lock_case{"TicketLlsc28", "ticket_llsc", 14, 14, 40, {}},
        // Waiters that poll the owner half instead of sleeping in WFE.
        lock_case{"TicketLlscPolling4", "ticket_llsc", 2, 2, 300, {"workload.params.WAIT_POLL=1"}},
        lock_case{"TicketLlscPolling8", "ticket_llsc", 4, 4, 200, {"workload.params.WAIT_POLL=1"}},
        lock_case{"TicketLse2", "ticket_lse", 1, 1, 500, {}},
        lock_case{"TicketLse4", "ticket_lse", 2, 2, 300, {}},
        lock_case{"TicketLse8", "ticket_lse", 4, 4, 200, {}},
        lock_case{"TicketLse28", "ticket_lse", 14, 14, 40, {"interconnect.far_atomics=true"}},
        lock_case{"Tas2", "tas", 1, 1, 300, {}},
        lock_case{"Tas4", "tas", 2, 2, 200, {}},
        lock_case{"Tas8", "tas", 4, 4, 100, {}},
        lock_case{"Tas28", "tas", 14, 14, 30, {}},
        lock_case{"TtasBackoff2", "ttas_backoff", 1, 1, 300, {}},
        lock_case{"TtasBackoff4", "ttas_backoff", 2, 2, 200, {}},
        lock_case{"TtasBackoff8", "ttas_backoff", 4, 4, 100, {}},
        lock_case{"TtasBackoff28", "ttas_backoff", 14, 14, 30, {}},
        lock_case{"Mcs2", "mcs", 1, 1, 300, {}},
        lock_case{"Mcs4", "mcs", 2, 2, 200, {}},
        lock_case{"Mcs8", "mcs", 4, 4, 100, {}},
        lock_case{"Mcs28", "mcs", 14, 14, 30, {}},
        lock_case{"Qspinlock2", "qspinlock", 1, 1, 300, {}},
        lock_case{"Qspinlock4", "qspinlock", 2, 2, 200, {}},
        lock_case{"Qspinlock8", "qspinlock", 4, 4, 100, {}},
        lock_case{"Qspinlock28", "qspinlock", 14, 14, 30, {}},
        // On cores with LSE the LSE build (CASA, LDSETA, STCLR, SWPH, CAS).
        lock_case{"QspinlockLse4", "qspinlock", 2, 2, 200, lse_cores()},
        lock_case{"QspinlockLse28", "qspinlock", 14, 14, 30, lse_cores()},
        lock_case{"TicketLlsc4StoreBuffer", "ticket_llsc", 2, 2, 300, buffered},
        lock_case{"TicketLse4StoreBuffer", "ticket_lse", 2, 2, 300, buffered},
        lock_case{"Tas4StoreBuffer", "tas", 2, 2, 200, buffered},
        lock_case{"TtasBackoff4StoreBuffer", "ttas_backoff", 2, 2, 200, buffered},
        lock_case{"Mcs4StoreBuffer", "mcs", 2, 2, 200, buffered},
        lock_case{"Qspinlock4StoreBuffer", "qspinlock", 2, 2, 200, buffered}),
    [](const ::testing::TestParamInfo<lock_case>& info) { return std::string(info.param.name); });

}  // namespace

TEST(LockLibrary, TheSimulatorCatchesABrokenLock) {
    // A "lock" that never waits: two cores are inside at once, and the
    // simulator (not the program) notices.
    const std::string path = std::filesystem::temp_directory_path() / ("cohsim_broken_" + std::to_string(::getpid()) + ".s");
    std::ofstream(path) << ".data\nlock: .word 0\n.text\nagain:\n mark lock_begin\n mark lock_acquired\n work 50\n"
                           " mark lock_release\n b again\n";
    system_model sys(test_platform({"workload.program=" + path, "workload.threads=[{core: little.0}, {core: big.0}]"}));
    // The violation stops the program that finds it: the run pauses there
    // and the fault is kept (core::fault), with no SystemC report.
    run_for_fs(10'000'000'000ULL);
    std::filesystem::remove(path);
    const std::string what = sys.program_fault();
    EXPECT_NE(what.find("mutual exclusion violated"), std::string::npos) << what;
    EXPECT_LT(kernel::now().fs, 10'000'000'000ULL);  // it stopped where it happened
}

namespace {
// `writers` + `readers` cores (writers first, alternating clusters).
std::pair<std::uint64_t, std::uint64_t> rwlock_run(unsigned writers, unsigned readers, unsigned iters) {
    const unsigned n = writers + readers, per = (n + 1) / 2;
    std::vector<std::string> ids;
    for (unsigned i = 0; i < n; ++i) ids.push_back((i % 2 ? "big." : "little.") + std::to_string(i / 2));
    const auto role = [writers](unsigned i) { return std::string(", params: {ROLE: ") + (i < writers ? "0" : "1") + "}"; };
    system_model sys(test_platform({"clusters.little.cores=" + std::to_string(per),
                                    "clusters.big.cores=" + std::to_string(per), "workload.program=locks/qrwlock.s",
                                    threads_on(ids, iters, role)}));
    for (int i = 0; i < 2000; ++i) run_for_fs(1'000'000'000'000ULL);
    // counter at +128, bad at +192 (cnts, wait_lock, counter/in_write, bad: one line each)
    return {sys.memory().peek(shared_base + 128, 8), sys.memory().peek(shared_base + 192, 8)};
}

// Writers bump the counter inside the write lock; readers check, inside the
// read lock, that no writer is inside (`bad` counts the times one was).
void rwlock_check(unsigned writers, unsigned readers, unsigned iters) {
    const auto [count, bad] = rwlock_run(writers, readers, iters);
    EXPECT_EQ(count, std::uint64_t{writers} * iters);
    EXPECT_EQ(bad, 0u);
}
}  // namespace

TEST(LockLibrary, Qrwlock2) { rwlock_check(1, 1, 200); }
TEST(LockLibrary, Qrwlock4) { rwlock_check(2, 2, 100); }
TEST(LockLibrary, Qrwlock8) { rwlock_check(3, 5, 60); }
TEST(LockLibrary, Qrwlock28) { rwlock_check(8, 20, 20); }

// ---- architecture features per core -------------------------------------------

namespace {
std::string write_program(const std::string& stem, const std::string& text) {
    const std::string path = std::filesystem::temp_directory_path() / (stem + std::to_string(::getpid()) + ".s");
    std::ofstream(path) << text;
    return path;
}
}  // namespace

TEST(CoreFeatures, AnLseInstructionOnAnArmv80CoreStopsTheRun) {
    // The A53 (Armv8.0) has no LSE: its CAS is an undefined instruction.
    const std::string path = write_program("cohsim_lse_", ".data\nx: .quad 0\n.text\nmain:\n adr x0, x\n mov x1, #0\n"
                                                          " mov x2, #1\n cas x1, x2, [x0]\n halt\n");
    system_model sys(test_platform({"workload.program=" + path, "workload.threads=[{core: little.0}]"}));
    run_for_fs(10'000'000'000ULL);
    std::filesystem::remove(path);
    const std::string what = sys.program_fault();
    EXPECT_NE(what.find(":8:2: cas x1, x2, [x0]: an LSE atomic (FEAT_LSE, Armv8.1) on a cortex-a53 (Armv8.0, no LSE)"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("core little.0, at main+0xc, instruction address 0xc"), std::string::npos) << what;
    EXPECT_EQ(sys.memory().peek(shared_base, 8), 0u);  // the CAS did not happen
}

TEST(CoreFeatures, TheLseBuildIsChosenByTheCoreUnlessTheScenarioChooses) {
    // Each core writes the LSE value its program was built with into its own word.
    const std::string path = write_program("cohsim_alt_", ".equ LSE, 1\n.equ SLOT, 0\n.data\n.shared\nw: .space 32\n.text\n"
                                                          "main:\n adr x0, w\n mov x1, #LSE\n str x1, [x0, #SLOT]\n halt\n");
    {
        // little: Cortex-A53 (Armv8.0) -> 0; big: Cortex-A73 -> 0; with A55/A75 -> 1.
        system_model sys(test_platform({"workload.program=" + path,
                                        "workload.threads=[{core: little.0, params: {SLOT: 0}}, {core: big.0, params: {SLOT: 8}},"
                                        " {core: little.1, params: {SLOT: 16, LSE: 1}}]",
                                        "clusters.big.core=cortex-a75"}));
        run_for_fs(10'000'000'000ULL);
        EXPECT_EQ(sys.program_fault(), "");
        EXPECT_EQ(sys.memory().peek(shared_base, 8), 0u);       // A53: the LDXR/STXR build
        EXPECT_EQ(sys.memory().peek(shared_base + 8, 8), 1u);   // A75: the LSE build
        EXPECT_EQ(sys.memory().peek(shared_base + 16, 8), 1u);  // the scenario's choice stands
    }
    std::filesystem::remove(path);
}

TEST(CoreFeatures, ASimulatorErrorIsNotBlamedOnTheProgram) {
    // A logic_error raised on a core's stack (what a protocol table with no
    // entry throws) is reported as cohsim's bug, not the program's.
    system_model sys(test_platform());
    sys.find_core("little.0")->set_program([](core&) { throw std::logic_error("coherence protocol error at 1 ns: x"); });
    run_for_fs(10'000'000'000ULL);
    const std::string what = sys.program_fault();
    EXPECT_EQ(what.rfind("the simulator failed on core little.0 (a bug in cohsim, not in the program", 0), 0u) << what;
    EXPECT_EQ(what.find("the program stopped the run"), std::string::npos) << what;
}

// The interpreter: each instruction's effect on registers, flags and memory,
// and the lock library on 2, 4, 8 and 28 cores.
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

namespace {

struct run_result {
    std::vector<std::uint64_t> x;
    std::uint64_t retired = 0;
};

// Runs `text` on little.0 and returns its registers.
run_result run_program(const std::string& text, system_model& sys) {
    static asmx::program prog;
    prog = asmx::assemble_text(text, "test.s");
    for (std::size_t i = 0; i < prog.shared_init.size(); ++i) sys.memory().poke(shared_base + i, 1, prog.shared_init[i]);
    static std::unique_ptr<interpreter> it;
    core& c = *sys.find_core("little.0");
    it = std::make_unique<interpreter>(c, prog, shared_base, private_base, nullptr, nullptr);
    c.set_program([&](core&) { it->run(); });
    run_for_fs(100'000'000'000ULL);
    run_result r;
    for (int n = 0; n < 32; ++n) r.x.push_back(it->reg(n));
    r.retired = it->retired();
    return r;
}

}  // namespace

TEST(Interpreter, ArithmeticLogicShiftsAndWidths) {
    system_model sys(test_platform());
    const auto r = run_program(R"(
        mov x1, #5
        add x2, x1, #3
        sub w3, w1, #6          // 32-bit wrap, zero-extended
        lsl x4, x1, #4
        ror w5, w1, #1
        lsr x6, x4, #2
        mov x7, #0xf0
        and x8, x7, #0x3c
        orr x9, x7, #0x0f
        eor w10, w1, w1, ror #16
        eor x11, x1, x4, lsl #1
        mov x12, xzr
        add xzr, x1, #1         // writes to the zero register vanish
        halt
    )", sys);
    EXPECT_EQ(r.x[2], 8u);
    EXPECT_EQ(r.x[3], 0xffffffffu);
    EXPECT_EQ(r.x[4], 80u);
    EXPECT_EQ(r.x[5], 0x80000002u);
    EXPECT_EQ(r.x[6], 20u);
    EXPECT_EQ(r.x[8], 0x30u);
    EXPECT_EQ(r.x[9], 0xffu);
    EXPECT_EQ(r.x[10], 0x50005u);  // 5 ^ (5 ror 16) in 32 bits
    EXPECT_EQ(r.x[11], 5u ^ 160u);
    EXPECT_EQ(r.x[12], 0u);
    EXPECT_EQ(r.retired, 14u);
}

TEST(Interpreter, BranchesFlagsAndCalls) {
    system_model sys(test_platform());
    const auto r = run_program(R"(
        mov x1, #3
        mov x2, #0
    loop:
        add x2, x2, #10
        sub x1, x1, #1
        cbnz x1, loop           // three times
        mov x3, #7
        cmp x3, #7
        b.ne wrong
        cmp x3, #9
        b.hs wrong              // 7 < 9 unsigned
        b.ge wrong
        mov w4, #0
        sub w4, w4, #1          // -1
        cmp w4, #0
        b.gt wrong              // signed: -1 > 0 is false
        b.hi next               // unsigned: 0xffffffff > 0
        b wrong
    next:
        tbz x3, #3, bit3clear   // 7 has bit 3 clear
        b wrong
    bit3clear:
        tbnz x3, #0, call
        b wrong
    call:
        bl fn
        mov x6, #1
        halt
    wrong:
        mov x9, #1
        halt
    fn:
        mov x5, #42
        ret
    )", sys);
    EXPECT_EQ(r.x[2], 30u);
    EXPECT_EQ(r.x[5], 42u);
    EXPECT_EQ(r.x[6], 1u);
    EXPECT_EQ(r.x[9], 0u) << "a branch went the wrong way";
}

TEST(Interpreter, MemoryExclusivesAndAtomics) {
    system_model sys(test_platform());
    const auto r = run_program(R"(
    .data
    .align 64
    w: .quad 0x1122334455667788
    v: .quad 10
    .text
        adr x0, w
        ldr x1, [x0]
        ldr w2, [x0]
        ldrh w3, [x0, #2]
        ldrb w4, [x0, #7]
        mov x5, #0xab
        strb w5, [x0, #1]
        ldr x6, [x0]
        adr x0, v
        ldxr x7, [x0]
        add x7, x7, #1
        stxr w8, x7, [x0]       // succeeds: 0
        stxr w9, x7, [x0]       // no reservation: 1
        mov x10, #11
        mov x11, #20
        cas x10, x11, [x0]      // 11 == 11: v = 20, x10 = 11
        mov x12, #5
        mov x13, #30
        cas x12, x13, [x0]      // 20 != 5: v stays, x12 = 20
        mov x14, #3
        ldadd x14, x15, [x0]    // v = 23, x15 = 20
        mov x16, #0x100
        ldset x16, x17, [x0]    // v = 0x117, x17 = 23
        mov x18, #1
        swp x18, x19, [x0]      // v = 1, x19 = 0x117
        stadd x18, [x0]         // v = 2
        ldar x20, [x0]
        halt
    )", sys);
    EXPECT_EQ(r.x[1], 0x1122334455667788u);
    EXPECT_EQ(r.x[2], 0x55667788u);
    EXPECT_EQ(r.x[3], 0x5566u);
    EXPECT_EQ(r.x[4], 0x11u);
    EXPECT_EQ(r.x[6], 0x112233445566ab88u);
    EXPECT_EQ(r.x[8], 0u);
    EXPECT_EQ(r.x[9], 1u);
    EXPECT_EQ(r.x[10], 11u);
    EXPECT_EQ(r.x[12], 20u);
    EXPECT_EQ(r.x[15], 20u);
    EXPECT_EQ(r.x[17], 23u);
    EXPECT_EQ(r.x[19], 0x117u);
    EXPECT_EQ(r.x[20], 2u);
}

TEST(Interpreter, WorkAdvancesOnlyLocalTime) {
    system_model sys(test_platform());
    const std::uint64_t e0 = kernel::events();
    const auto r = run_program("work 400\nwork 400\nnop\nhalt\n", sys);  // 801 cycles = 0.96 us
    (void)r;
    // 801 cycles of compute cost one catch-up wait (before idling at halt),
    // never one per instruction; the other events are the four cores' start-up
    // activations (the three idle cores sleep in WFE and cost nothing more).
    EXPECT_EQ(kernel::events() - e0, 4u + 1u);
}

TEST(Interpreter, WorkRangeDrawsFromTheCoresSeededStream) {
    // 1000 draws of `work 100, 200`: the time they take equals the sum of
    // the core's own stream (drawn again here, independently), every draw
    // lies in [100, 200] cycles and the mean is near 150 (uniform).
    system_model sys(test_platform());
    core& c = *sys.find_core("little.0");
    random_stream expected = c.random();  // a copy, before the program draws
    const auto prog = asmx::assemble_text("mov x1, #1000\nloop: work 100, 200\nsub x1, x1, #1\ncbnz x1, loop\nhalt\n", "t.s");
    interpreter it(c, prog, shared_base, private_base, nullptr, nullptr);
    duration finished;
    c.set_program([&](core& self) {
        it.run();
        finished = self.local_time();
    });
    run_for_fs(1'000'000'000'000ULL);  // 1 ms; the loop takes ~0.22 ms
    std::uint64_t sum = 0, lo = ~0ULL, hi = 0;
    for (int i = 0; i < 1000; ++i) {
        const std::uint64_t d = expected.between(100, 200);
        sum += d, lo = std::min(lo, d), hi = std::max(hi, d);
    }
    EXPECT_EQ(lo, 100u);
    EXPECT_EQ(hi, 200u);
    EXPECT_NEAR(static_cast<double>(sum) / 1000, 150.0, 3.0);
    // mov + 1000 x (work + sub + cbnz) at the preset's costs, from time 0.
    const clock_domain little("little", frequency{832'000'000});
    const auto& t = c.params();
    const std::uint64_t total = t.alu.value().n * 1001 + t.branch.value().n * 1000 + sum;
    EXPECT_EQ(finished.fs, little.edge_after(duration{}, cycles{total}).fs);
}

namespace {

// little.0 .. little.(little-1), then big.0 .. big.(big-1).
std::vector<std::string> cores_of(unsigned little, unsigned big) {
    std::vector<std::string> ids;
    for (unsigned i = 0; i < little; ++i) ids.push_back("little." + std::to_string(i));
    for (unsigned i = 0; i < big; ++i) ids.push_back("big." + std::to_string(i));
    return ids;
}

// The override "workload.threads=[...]": one thread per core, `iters`
// iterations each, with `more(i)` added to thread i (e.g. its params).
std::string threads_on(const std::vector<std::string>& ids, unsigned iters,
                       const std::function<std::string(unsigned)>& more = {}) {
    std::string s = "workload.threads=[";
    for (unsigned i = 0; i < ids.size(); ++i)
        s += std::string(i ? ", " : "") + "{core: " + ids[i] + ", iterations: " + std::to_string(iters) +
             (more ? more(i) : "") + "}";
    return s + "]";
}

// `cores` threads each take the lock `iters` times and bump a shared counter
// inside; the simulator's mutex checker stops the run if two are ever inside.
void lock_correctness(const std::string& lock, unsigned little, unsigned big, unsigned iters,
                      std::vector<std::string> extra = {}) {
    std::vector<std::string> sets = {"clusters.little.cores=" + std::to_string(little),
                                     "clusters.big.cores=" + std::to_string(big),
                                     "workload.program=locks/" + lock + ".s",
                                     "workload.params={COUNT: 1}", threads_on(cores_of(little, big), iters)};
    sets.insert(sets.end(), extra.begin(), extra.end());
    system_model sys(test_platform(sets));
    for (int i = 0; i < 2000; ++i) run_for_fs(1'000'000'000'000ULL);  // up to 2 s; halted cores cost nothing
    std::uint64_t total = 0;
    for (const auto& t : sys.threads()) total += t->metrics().acquisitions();
    EXPECT_EQ(total, std::uint64_t{little + big} * iters);
    EXPECT_EQ(sys.memory().peek(shared_base, 8), std::uint64_t{little + big} * iters) << "the counter in the critical section";
}

}  // namespace

TEST(LockLibrary, TicketLlsc2) { lock_correctness("ticket_llsc", 1, 1, 500); }
TEST(LockLibrary, TicketLlsc4) { lock_correctness("ticket_llsc", 2, 2, 300); }
TEST(LockLibrary, TicketLlsc8) { lock_correctness("ticket_llsc", 4, 4, 200); }
TEST(LockLibrary, TicketLlsc28) { lock_correctness("ticket_llsc", 14, 14, 40); }
TEST(LockLibrary, TicketLse2) { lock_correctness("ticket_lse", 1, 1, 500); }
TEST(LockLibrary, TicketLse4) { lock_correctness("ticket_lse", 2, 2, 300); }
TEST(LockLibrary, TicketLse8) { lock_correctness("ticket_lse", 4, 4, 200); }
TEST(LockLibrary, TicketLse28) { lock_correctness("ticket_lse", 14, 14, 40, {"interconnect.far_atomics=true"}); }

namespace {
std::map<std::string, std::uint64_t> relax_run(const std::string& relax) {
    system_model sys(test_platform({"timer={freq: 1.92MHz, period: 10us}",
                                    "workload.threads=[{core: little.0, cpu_relax: " + relax +
                                        ", iterations: 20, params: {THRESHOLD: 5}}]"}));
    // Run until the 20th acquisition is done and the core sleeps next (in the
    // last call's back-off, or in the idle loop after `halt` for yield).
    core& c = *sys.find_core("little.0");
    for (int i = 0; i < 100000; ++i) {
        run_for_fs(100'000'000);  // 100 ns
        if (sys.threads()[0]->metrics().acquisitions() == 20 && c.asleep()) break;
    }
    struct grab : stat_visitor {
        std::map<std::string, std::uint64_t> v;
        void counter(const std::string& n, const std::string&, std::uint64_t x) override { v[n] = x; }
    } g;
    c.stats().accept(g);
    return g.v;
}
}  // namespace

TEST(LockLibrary, Tas2) { lock_correctness("tas", 1, 1, 300); }
TEST(LockLibrary, Tas4) { lock_correctness("tas", 2, 2, 200); }
TEST(LockLibrary, Tas8) { lock_correctness("tas", 4, 4, 100); }
TEST(LockLibrary, Tas28) { lock_correctness("tas", 14, 14, 30); }
TEST(LockLibrary, TtasBackoff2) { lock_correctness("ttas_backoff", 1, 1, 300); }
TEST(LockLibrary, TtasBackoff4) { lock_correctness("ttas_backoff", 2, 2, 200); }
TEST(LockLibrary, TtasBackoff8) { lock_correctness("ttas_backoff", 4, 4, 100); }
TEST(LockLibrary, TtasBackoff28) { lock_correctness("ttas_backoff", 14, 14, 30); }
TEST(LockLibrary, Mcs2) { lock_correctness("mcs", 1, 1, 300); }
TEST(LockLibrary, Mcs4) { lock_correctness("mcs", 2, 2, 200); }
TEST(LockLibrary, Mcs8) { lock_correctness("mcs", 4, 4, 100); }
TEST(LockLibrary, Mcs28) { lock_correctness("mcs", 14, 14, 30); }

TEST(LockLibrary, Qspinlock2) { lock_correctness("qspinlock", 1, 1, 300); }
TEST(LockLibrary, Qspinlock4) { lock_correctness("qspinlock", 2, 2, 200); }
TEST(LockLibrary, Qspinlock8) { lock_correctness("qspinlock", 4, 4, 100); }
TEST(LockLibrary, Qspinlock28) { lock_correctness("qspinlock", 14, 14, 30); }

// With store buffers the critical section's counter store may still be in
// flight when the core moves on: the locks' release stores (STLR) must order
// it before the unlock, or the counter loses updates.
const std::vector<std::string> buffered = {"clusters.little.timing.store_buffer=4", "clusters.big.timing.store_buffer=4"};
TEST(LockLibrary, TicketLlsc4StoreBuffer) { lock_correctness("ticket_llsc", 2, 2, 300, buffered); }
TEST(LockLibrary, TicketLse4StoreBuffer) { lock_correctness("ticket_lse", 2, 2, 300, buffered); }
TEST(LockLibrary, Tas4StoreBuffer) { lock_correctness("tas", 2, 2, 200, buffered); }
TEST(LockLibrary, TtasBackoff4StoreBuffer) { lock_correctness("ttas_backoff", 2, 2, 200, buffered); }
TEST(LockLibrary, Mcs4StoreBuffer) { lock_correctness("mcs", 2, 2, 200, buffered); }
TEST(LockLibrary, Qspinlock4StoreBuffer) { lock_correctness("qspinlock", 2, 2, 200, buffered); }

TEST(CpuRelax, WfeBackoffSleepsOncePerThresholdCalls) {
    const auto v = relax_run("wfe_backoff");
    // 20 calls, threshold 5: 4 back-offs (calls 5, 10, 15, 20), each
    // `sevl; wfe; wfe` = 2 WFEs of which one sleeps until the event stream
    // wakes it. We stop while the 4th sleeps: 4 sleeps, 8 WFEs, 3 wake-ups.
    // A lone thread never waits for the lock itself.
    EXPECT_EQ(v.at("wfe_sleeps"), 4u);
    EXPECT_EQ(v.at("wfe_executed"), 8u);
    EXPECT_EQ(v.at("wakes_event_stream"), 3u);
}

TEST(CpuRelax, YieldNeverSleeps) {
    const auto v = relax_run("yield");
    EXPECT_EQ(v.at("wfe_sleeps"), 1u);  // only the idle loop after halt
    EXPECT_EQ(v.at("wakes_event_stream"), 0u);
}

TEST(LockLibrary, TheSimulatorCatchesABrokenLock) {
    // A "lock" that never waits: two cores are inside at once, and the
    // simulator (not the program) notices.
    const std::string path = std::filesystem::temp_directory_path() / ("cohsim_broken_" + std::to_string(::getpid()) + ".s");
    std::ofstream(path) << ".data\nlock: .word 0\n.text\nagain:\n mark lock_begin\n mark lock_acquired\n work 50\n"
                           " mark lock_release\n b again\n";
    system_model sys(test_platform({"workload.program=" + path, "workload.threads=[{core: little.0}, {core: big.0}]"}));
    std::string what;
    try {
        run_for_fs(10'000'000'000ULL);
    } catch (const std::exception& e) {
        what = e.what();
    }
    std::filesystem::remove(path);
    EXPECT_NE(what.find("mutual exclusion violated"), std::string::npos) << what;
}

namespace {
struct lockref_result {
    std::uint64_t count, attempts = 0, successes = 0, fallbacks = 0;
};
lockref_result lockref_run(unsigned per_cluster, unsigned iters, const std::string& params,
                           std::vector<std::string> extra = {}) {
    std::vector<std::string> sets = {"clusters.little.cores=" + std::to_string(per_cluster),
                                     "clusters.big.cores=" + std::to_string(per_cluster),
                                     "workload.program=locks/lockref.s", "workload.params=" + params,
                                     threads_on(cores_of(per_cluster, per_cluster), iters)};
    sets.insert(sets.end(), extra.begin(), extra.end());
    system_model sys(test_platform(sets));
    for (int i = 0; i < 2000; ++i) run_for_fs(1'000'000'000'000ULL);
    lockref_result r{sys.memory().peek(shared_base + 4, 4)};
    for (const auto& c : sys.cores()) {
        const std::uint64_t base = private_base + c->agent() * private_stride;
        r.attempts += sys.memory().peek(base, 8);
        r.successes += sys.memory().peek(base + 8, 8);
        r.fallbacks += sys.memory().peek(base + 16, 8);
    }
    return r;
}
}  // namespace

// Every core does `iters` gets and puts, then one more get: the count must
// end at exactly the number of cores, however the CASes and fallbacks mixed.
TEST(Lockref, LlscUnbounded8) {
    const auto r = lockref_run(4, 100, "{LSE: 0, RETRIES: 0}");
    EXPECT_EQ(r.count, 8u);
    EXPECT_EQ(r.fallbacks, 0u);  // unbounded: never falls back (nobody takes the spinlock)
    EXPECT_EQ(r.successes, 8u * 201u);
    EXPECT_GE(r.attempts, r.successes);
}
TEST(Lockref, LseBounded28) {
    const auto r = lockref_run(14, 30, "{LSE: 1, RETRIES: 100}");
    EXPECT_EQ(r.count, 28u);
    EXPECT_EQ(r.successes + r.fallbacks, 28u * 61u);  // every update is one or the other
}
TEST(Lockref, LlscBoundedFallsBackUnderContention) {
    // Without a snoop hold window, 28 cores in LDXR/STXR CAS loops livelock in
    // this model (each STXR loses its reservation to another core's request
    // for the line, for ever: arm-sync.md 3.6); the hold window, the
    // mitigation some cores have, lets every STXR through.
    const auto r = lockref_run(14, 30, "{LSE: 0, RETRIES: 2}",
                               {"clusters.little.exclusive.hold_window=30cycles",
                                "clusters.big.exclusive.hold_window=30cycles"});
    EXPECT_EQ(r.count, 28u);
    EXPECT_EQ(r.successes + r.fallbacks, 28u * 61u);
    EXPECT_GT(r.fallbacks, 0u);  // with only 2 retries, 28 cores must fall back sometimes
}

namespace {
std::pair<std::uint64_t, std::uint64_t> seqcount_run(int protect) {
    system_model sys(test_platform(
        {"workload.program=locks/seqcount.s", "workload.params={PROTECT: " + std::to_string(protect) + "}",
         "workload.threads=[{core: big.0, iterations: 2000}, {core: little.0, iterations: 500, params: {ROLE: 1}}, "
         "{core: little.1, iterations: 500, params: {ROLE: 1}}, {core: big.1, iterations: 500, params: {ROLE: 1}}]"}));
    for (int i = 0; i < 100; ++i) run_for_fs(1'000'000'000'000ULL);
    return {sys.memory().peek(shared_base + 128, 8), sys.memory().peek(shared_base + 136, 8)};  // torn, reads
}
}  // namespace

TEST(Seqcount, SplitReadNeverTornUnderAConcurrentWriter) {
    const auto [torn, reads] = seqcount_run(1);
    EXPECT_EQ(reads, 1500u);
    EXPECT_EQ(torn, 0u);
}

TEST(Seqcount, WithoutTheSequenceReadsDoTear) {
    // The same readers without the protocol: the check above could fail.
    const auto [torn, reads] = seqcount_run(0);
    EXPECT_EQ(reads, 1500u);
    EXPECT_GT(torn, 0u);
}

TEST(TraceReplay, ReplaysEachCoresOperationsInOrder) {
    system_model sys(test_platform({"clusters.little.cores=3", "clusters.big.cores=4",
                                    std::string("workload.trace=") + COHSIM_SOURCE_DIR +
                                        "/workloads/traces/two_core_lock.trace",
                                    "workload.threads=[]"}));
    run_for_fs(1'000'000'000'000ULL);
    ASSERT_EQ(sys.threads().size(), 2u);
    std::uint64_t acquisitions = 0;
    for (const auto& t : sys.threads()) acquisitions += t->metrics().acquisitions();
    EXPECT_EQ(acquisitions, 2u);
    // The stores and atomics were replayed with their recorded values. The
    // big core's CAS expected 0: it succeeds if little.2 had released by then,
    // so the lock ends released by big.3's swap either way.
    EXPECT_EQ(sys.memory().peek(0x10000000, 4), 0u);
    EXPECT_EQ(sys.memory().peek(0x10000040, 8), 2u);  // each core added 1
    EXPECT_EQ(sys.memory().peek(0x10000080, 8), 0x100u);
}

TEST(TraceReplay, ErrorsNameTheLine) {
    const std::string path = std::filesystem::temp_directory_path() / ("cohsim_bad_" + std::to_string(::getpid()) + ".trace");
    auto error_of = [&](const std::string& text) {
        std::ofstream(path) << text;
        try {
            read_trace(path);
        } catch (const cfg::config_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(error_of("little.0 0 frob 0x10 8\n").find(":1:12: little.0 0 frob 0x10 8: unknown operation 'frob'"),
              std::string::npos);
    EXPECT_NE(error_of("# c\nlittle.0 x ld 0x10 8\n").find(":2:10: little.0 x ld 0x10 8: 'x' is not a delay in cycles"),
              std::string::npos);
    EXPECT_NE(error_of("little.0 0 ld 0x11 8\n").find("address not aligned"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 st 0x10 8\n").find("missing value"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 ld 0x10 3\n").find("bad size"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 wfe extra\n").find("unexpected 'extra'"), std::string::npos);
    EXPECT_NE(error_of("little.0 0 mark lock_held\n").find("unknown mark 'lock_held'"), std::string::npos);
    std::filesystem::remove(path);
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
}  // namespace

TEST(LockLibrary, Qrwlock2) {
    const auto [count, bad] = rwlock_run(1, 1, 200);
    EXPECT_EQ(count, 200u);
    EXPECT_EQ(bad, 0u);
}
TEST(LockLibrary, Qrwlock4) {
    const auto [count, bad] = rwlock_run(2, 2, 100);
    EXPECT_EQ(count, 200u);
    EXPECT_EQ(bad, 0u);
}
TEST(LockLibrary, Qrwlock8) {
    const auto [count, bad] = rwlock_run(3, 5, 60);
    EXPECT_EQ(count, 180u);
    EXPECT_EQ(bad, 0u);
}
TEST(LockLibrary, Qrwlock28) {
    const auto [count, bad] = rwlock_run(8, 20, 20);
    EXPECT_EQ(count, 160u);
    EXPECT_EQ(bad, 0u);
}

TEST(Interpreter, InstructionCostsComeFromTheClusterTiming) {
    // The preset gives 1 cycle per ALU instruction; the config can override it.
    system_model sys(test_platform({"clusters.little.timing={wfe_wake_latency: 4cycles, alu: 3cycles, branch: 2cycles}"}));
    EXPECT_EQ(sys.find_core("big.0")->params().alu->n, 1u);  // preset
    static asmx::program prog;
    prog = asmx::assemble_text("add x1, x1, #1\nadd x1, x1, #1\neor x2, x1, x1\nb next\nnext: halt\n", "t.s");
    core& c = *sys.find_core("little.0");
    duration before, after;
    static std::unique_ptr<interpreter> it;
    it = std::make_unique<interpreter>(c, prog, shared_base, private_base, nullptr, nullptr,
                                       instruction_costs{*c.params().alu, *c.params().branch, *c.params().hint});
    c.set_program([&](core& self) {
        before = self.local_time();
        it->run();
        after = self.local_time();
    });
    run_for_fs(10'000'000'000ULL);
    const clock_domain L("little", frequency{832'000'000});
    EXPECT_EQ(after.fs, L.edge_after(before, cycles{3 * 3 + 2}).fs);  // three ALU ops, one branch
}

TEST(Lockref, LlscUnbounded2) {
    const auto r = lockref_run(1, 200, "{LSE: 0, RETRIES: 0}");
    EXPECT_EQ(r.count, 2u);
    EXPECT_EQ(r.successes, 2u * 401u);
}
TEST(Lockref, LseUnbounded4) {
    const auto r = lockref_run(2, 150, "{LSE: 1, RETRIES: 0}");
    EXPECT_EQ(r.count, 4u);
    EXPECT_EQ(r.successes, 4u * 301u);
}

TEST(LockMetrics, AWaitThatStartsAheadOfTheSimulationIsNotNegative) {
    stat_group g("g");
    lock_metrics m("x");
    m.begin(duration{5'000});
    EXPECT_EQ(m.ongoing_wait(duration{4'000}).fs, 0u);  // the core's local time ran ahead
    EXPECT_EQ(m.ongoing_wait(duration{7'000}).fs, 2'000u);
    EXPECT_EQ(m.longest_wait_ns(duration{4'000}), 0.0);
}

namespace {
// The region_probe program's `probe` region on little.0: its distribution.
summary probe_profile(const std::string& params) {
    system_model sys(test_platform({"workload.threads=[{core: little.0, program: programs/region_probe.s, params: " +
                                    params + "}]"}));
    for (int i = 0; i < 100; ++i) run_for_fs(1'000'000'000'000ULL);  // up to 100 ms; it halts
    return group_stats(sys.threads().at(0)->profile().stats()).dists["probe"];
}
}  // namespace

TEST(FunctionProfile, WarmRunsTakeExactlyTheirHitCycles) {
    // 4 runs over 64 lines with no flush: the first misses, the other three
    // hit: 2 movs + 64 x (ldr hit 3 [its data used by the next add] + 4 ALU
    // and branch) = 450 cycles at 832 MHz = 540.87 ns, to within one clock
    // edge of rounding (1 fs).
    const summary s = probe_profile("{RUNS: 4, SIZE: 4096, GAP: 100}");
    EXPECT_EQ(s.count, 4u);
    EXPECT_NEAR(s.min, 450 / 0.832, 2e-6);
    EXPECT_GT(s.max, s.min * 5);  // the cold first run: 64 misses to memory
    const double total = s.mean * 4;
    EXPECT_NEAR(total, s.max + 3 * s.min, 1e-3);  // exactly one cold run
}

TEST(FunctionProfile, StreamingPastTheL1MakesRunsL2Hits) {
    // Flushing 64 KiB (twice the 32 KiB L1) between runs: every line of every
    // run misses the L1 and hits the L2 (13 cycles: 3 + 2 + 6 + 2, as
    // MemoryLatency.L2HitInsideTheCluster): 2 + 64 x (13 + 4) = 1090 cycles.
    const summary s = probe_profile("{RUNS: 4, SIZE: 4096, GAP: 100, FLUSH: 65536}");
    EXPECT_EQ(s.count, 4u);
    EXPECT_NEAR(s.min, 1090 / 0.832, 2e-6);
    EXPECT_NEAR(s.p50, 1090 / 0.832, 1090 / 0.832 * 0.09);  // the warm-up run aside, all alike
}

TEST(FunctionProfile, StreamingPastTheL2MakesRunsGoToMemory) {
    // 3 MiB streamed (beyond the 1 MiB L2): every line of every run comes
    // from memory, at least the 100 ns memory latency each.
    const summary s = probe_profile("{RUNS: 3, SIZE: 4096, GAP: 100, FLUSH: 3145728}");
    EXPECT_EQ(s.count, 3u);
    EXPECT_GT(s.min, 64 * 100.0);
}

namespace {
// The hand count of one iteration of loop.s + ticket_functions.inc with every
// access an L1 hit (3 cycles) and ALU, branch and hint instructions 1 cycle:
//   adr, bl                                               2
//   spin_lock: prfm 3, ldaxr 3, add, stxr 3, cbnz, eor, cbz, ret   14
//   cbz x22, adr, bl                                      3
//   spin_unlock: ldrh 3, add, stlrh 3, ret                8
//   bl cpu_relax; mov, cbz, yield, ret                    5
//   add, cbz x21                                          2
// = 34 cycles + INSIDE + OUTSIDE (marks and `work 0` take no time).
constexpr std::uint64_t loop_cycles = 34;
}  // namespace

TEST(LockMetrics, OneCoreAloneTakesTheLockOncePerLoopExactly) {
    // little.0 alone, INSIDE 100 + OUTSIDE 200: after the first (cold)
    // acquisition, one every 334 cycles. Its first lock_begin comes after
    // main's 6 set-up instructions and the adr (7 cycles); the first wait is
    // the cold one (the longest). Acquisitions in [0, 1 ms) are then exactly
    // those k with first + k * 334 cycles < 1 ms.
    system_model sys(test_platform({"workload.threads=[{core: little.0, inside: 100cycles, outside: 200cycles}]"}));
    const std::uint64_t end_fs = 1'000'000'000'000ULL;
    run_for_fs(end_fs);
    const lock_metrics& m = sys.threads().at(0)->metrics();
    const clock_domain little("little", frequency{832'000'000});
    group_stats r(m.stats());
    const summary wait = r.dists["wait_ns"], hold = r.dists["hold_ns"];
    // Steady state: the wait is bl + spin_lock = 15 cycles, the hold is
    // cbz + INSIDE + adr = 102 cycles, every time.
    EXPECT_NEAR(wait.min, 15 / 0.832, 2e-6);
    EXPECT_NEAR(hold.min, 102 / 0.832, 2e-6);
    EXPECT_NEAR(hold.max, 102 / 0.832, 2e-6);
    const duration begin = little.edge_after(duration{}, cycles{7});
    const duration first{begin.fs + static_cast<std::uint64_t>(std::llround(wait.max * 1e6))};
    std::uint64_t expected = 0;
    while (little.edge_after(first, cycles{expected * (loop_cycles + 300)}).fs < end_fs) ++expected;
    EXPECT_EQ(m.acquisitions(), expected);
}

TEST(LockMetrics, TwoIdenticalCoresShareEvenly) {
    // little.0 and little.1: the same core type, clock and program; over
    // 2 ms they take the lock almost equally often (Jain's index ~ 1).
    system_model sys(test_platform({"workload.threads=[{core: little.0, inside: 100cycles, outside: 200cycles}, "
                                    "{core: little.1, inside: 100cycles, outside: 200cycles}]"}));
    run_for_fs(2'000'000'000'000ULL);
    const double a = static_cast<double>(sys.threads().at(0)->metrics().acquisitions());
    const double b = static_cast<double>(sys.threads().at(1)->metrics().acquisitions());
    ASSERT_GT(a + b, 1000);
    const double jain = (a + b) * (a + b) / (2 * (a * a + b * b));
    EXPECT_GT(jain, 0.99) << a << " vs " << b;
}

namespace {
// Runs `text` on little.0 with a function profile; returns each region's summary.
std::map<std::string, summary> profile_of(const std::string& text, const std::vector<std::string>& sets = {}) {
    system_model sys(test_platform(sets));
    static asmx::program prog;
    prog = asmx::assemble_text(text, "test.s");
    static std::unique_ptr<region_profile> prof;
    prof = std::make_unique<region_profile>("little.0");
    static std::unique_ptr<interpreter> it;
    core& c = *sys.find_core("little.0");
    it = std::make_unique<interpreter>(c, prog, shared_base, private_base, nullptr, nullptr, instruction_costs{}, prof.get());
    c.set_program([&](core&) { it->run(); });
    run_for_fs(1'000'000'000'000ULL);
    return group_stats(prof->stats()).dists;
}

// One miss to memory (used at once), then four independent misses to four
// other lines whose data is used only after the last is issued.
const char* const four_misses = R"(
.data
.shared
.align 64
buf: .space 0x10000
.text
    adr x0, buf
    region one
    ldr x3, [x0]
    add x7, x7, x3
    endregion
    region four
    ldr x3, [x0, #0x1000]
    ldr x4, [x0, #0x2000]
    ldr x5, [x0, #0x3000]
    ldr x6, [x0, #0x4000]
    add x7, x3, x4
    add x7, x7, x5
    add x7, x7, x6
    endregion
    halt
)";
}  // namespace

TEST(LoadToUse, IndependentHitsOverlap) {
    // Three L1 hits issued at cycles 0, 1 and 2, each with its data 3 cycles
    // later (3, 4, 5): the first add waits for x4 until 4 and ends at 5; the
    // second finds x5 ready at 5 and ends at 6: 6 cycles, where a blocking
    // core takes 3 + 3 + 3 + 1 + 1 = 11.
    const auto p = profile_of(R"(
.data
.shared
.align 64
a: .quad 1
.align 64
b: .quad 2
.align 64
c: .quad 3
.text
    adr x0, a
    adr x1, b
    adr x2, c
    ldr x3, [x0]
    ldr x4, [x1]
    ldr x5, [x2]
    add x6, x3, x4
    add x6, x6, x5
    region hits
    ldr x3, [x0]
    ldr x4, [x1]
    ldr x5, [x2]
    add x6, x3, x4
    add x6, x6, x5
    endregion
    halt
)");
    EXPECT_NEAR(p.at("hits").min, 6 / 0.832, 2e-6);
}

TEST(OutstandingMisses, OneAtATimeSerialisesTheMisses) {
    // outstanding_misses 1: each of the four misses waits for the previous:
    // at least four single-miss latencies.
    const auto p = profile_of(four_misses, {"clusters.little.timing={wfe_wake_latency: 4cycles, outstanding_misses: 1}"});
    EXPECT_GE(p.at("four").min, 4 * (p.at("one").min - 1 / 0.832));
}

TEST(OutstandingMisses, FourInFlightOverlap) {
    // outstanding_misses 4: the four misses are in flight together; the run
    // takes about one miss latency (plus the channel and memory occupancy of
    // the other three), well under two.
    const auto p = profile_of(four_misses, {"clusters.little.timing={wfe_wake_latency: 4cycles, outstanding_misses: 4}"});
    EXPECT_GT(p.at("four").min, p.at("one").min);
    EXPECT_LT(p.at("four").min, 1.5 * p.at("one").min);
}

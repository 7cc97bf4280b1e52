// The two accelerations of sim/kernel.h, with exact activation counts and
// times: the event queue running several times in one activation, and a core
// running ahead; each against run.exact (kernel::set_exact), which turns them
// off. Whether they change any result is checked on every shipped config by
// scripts/check-identical.sh --base-set run.exact=true (CTest
// Acceleration.ShippedConfigsIdentical) and by the stress tests, which run
// both ways.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "platform_fixture.h"
#include "sim/event_queue.h"
#include "sim/kernel.h"

using namespace cohsim;
using namespace cohsim::testing;

namespace {
constexpr std::uint64_t ns_fs = 1'000'000;

// Actions at 10, 20 and 30 ns, each recording when it ran.
std::vector<std::uint64_t> three_actions(std::vector<std::uint64_t>& seen) {
    event_queue& q = kernel::queue();
    for (std::uint64_t t : {30u, 10u, 20u}) q.at({t * ns_fs}, 0, [&seen] { seen.push_back(kernel::now().fs / ns_fs); });
    return {10, 20, 30};
}

// A thread that waits for `ev` and records when it ran.
struct waiter : sc_core::sc_module {
    SC_HAS_PROCESS(waiter);
    sc_core::sc_event ev;
    std::vector<std::uint64_t>& log;
    waiter(const sc_core::sc_module_name& n, std::vector<std::uint64_t>& l) : sc_module(n), log(l) { SC_THREAD(run); }
    void run() {
        wait(ev);
        log.push_back(1000 + kernel::now().fs / ns_fs);  // 1000 + the time: the thread's entry
    }
};
}  // namespace

TEST(Scheduler, RunsTheNextTimesInTheSameActivationWhileNothingElseIsPending) {
    kernel::init();
    std::vector<std::uint64_t> seen;
    const auto want = three_actions(seen);
    const std::uint64_t e0 = kernel::events();
    kernel::run({100 * ns_fs});
    EXPECT_EQ(seen, want);  // each at its own time on the model's clock
    EXPECT_EQ(kernel::events() - e0, 1u);
    EXPECT_EQ(kernel::now().fs, 100 * ns_fs);
}

TEST(Scheduler, ExactGivesEveryTimeItsOwnActivation) {
    kernel::init();
    kernel::set_exact(true);
    std::vector<std::uint64_t> seen;
    const auto want = three_actions(seen);
    const std::uint64_t e0 = kernel::events();
    kernel::run({100 * ns_fs});
    EXPECT_EQ(seen, want);
    EXPECT_EQ(kernel::events() - e0, 1u + 3u);  // the first activation, at time 0, finds nothing due
}

TEST(Scheduler, NeverRunsPastTheEndOfTheRun) {
    kernel::init();
    std::vector<std::uint64_t> seen;
    three_actions(seen);
    kernel::run({25 * ns_fs});  // 30 ns is left for the next run
    EXPECT_EQ(seen, (std::vector<std::uint64_t>{10, 20}));
    EXPECT_EQ(kernel::now().fs, 25 * ns_fs);
    kernel::run({5 * ns_fs});  // exactly 30 ns: the end itself belongs to the next run
    EXPECT_EQ(seen, (std::vector<std::uint64_t>{10, 20}));
    kernel::run({1 * ns_fs});
    EXPECT_EQ(seen, (std::vector<std::uint64_t>{10, 20, 30}));
}

TEST(Scheduler, AWokenThreadRunsAfterItsTimeAndBeforeTheNext) {
    kernel::init();
    std::vector<std::uint64_t> log;
    waiter w("waiter", log);
    event_queue& q = kernel::queue();
    for (std::uint64_t t : {10u, 20u, 30u}) q.at({t * ns_fs}, 0, [&log] { log.push_back(kernel::now().fs / ns_fs); });
    q.at({20 * ns_fs}, 1, [&w] { w.ev.notify(); });  // wakes the thread at 20 ns
    const std::uint64_t e0 = kernel::events();
    kernel::run({100 * ns_fs});
    // The thread runs after every action of 20 ns, at 20 ns, and before 30 ns.
    // Activations: time 0 (the thread starts: nothing runs ahead of it), 10
    // and 20 ns together (the runnable thread stops the batch), 30 ns.
    EXPECT_EQ(log, (std::vector<std::uint64_t>{10, 20, 1020, 30}));
    EXPECT_EQ(kernel::events() - e0, 3u);
}

namespace {
// little.0 (832 MHz, 3-cycle hits) takes a line, then reads it 100 times with
// 97 cycles of work before each read. Returns the activations and process
// resumptions of that loop and its duration in little cycles.
std::tuple<std::uint64_t, std::uint64_t, std::uint64_t> hit_loop(const std::vector<std::string>& sets) {
    system_model sys(test_platform(sets));
    std::uint64_t events = 0, switches = 0, cycles_taken = 0;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load(0x4000);       // a miss: the line comes from memory ...
        c.work(cycles{1000});  // ... and its Unblock reaches the home (1.2 us)
        c.load(0x4000);       // a hit; the others have started and sleep
        const std::uint64_t e0 = kernel::events(), s0 = kernel::switches();
        const std::uint64_t k0 = c.clock().cycle_at(c.local_time());
        for (int i = 0; i < 100; ++i) {
            c.work(cycles{97});
            c.load(0x4000);
        }
        events = kernel::events() - e0;
        switches = kernel::switches() - s0;
        cycles_taken = c.clock().cycle_at(c.local_time()) - k0;
    });
    run_for_fs(100'000 * ns_fs);
    return {events, switches, cycles_taken};
}
}  // namespace

TEST(RunAhead, ACoreThatComputesAndHitsNeverWaits) {
    const auto [events, switches, cycles_taken] = hit_loop({});
    EXPECT_EQ(cycles_taken, 100u * (97 + 3));  // work, then the hit's 3 cycles, on the core's edges
    EXPECT_EQ(switches, 0u);                  // nothing else pending: the core never stops
    EXPECT_EQ(events, 0u);
}

TEST(RunAhead, ExactWaitsBeforeEveryAccess) {
    const auto [events, switches, cycles_taken] = hit_loop({"run.exact=true"});
    EXPECT_EQ(cycles_taken, 100u * (97 + 3));  // the same time ...
    EXPECT_EQ(switches, 100u);                // ... but the core waits before every access:
    EXPECT_EQ(events, 100u);                  // an activation of the queue and a resumption each
}

TEST(RunAhead, StopsAtTheNextThingPending) {
    // big.0 writes the line while little.0 loops: little.0 may run ahead only
    // up to the write's messages. Had it run past the snoop that takes its
    // copy away, it would read the old value after the write performed.
    system_model sys(test_platform({}));
    std::vector<std::pair<std::uint64_t, std::uint64_t>> reads;  // (issued at fs, value)
    std::uint64_t written_at = 0;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load(0x4000);
        for (int i = 0; i < 100; ++i) {
            c.work(cycles{97});
            const std::uint64_t t = c.local_time().fs;
            reads.emplace_back(t, c.load(0x4000));
        }
    });
    sys.find_core("big.0")->set_program([&](core& c) {
        c.work(cycles{10'000});  // 5.7 us, while little.0 loops (100 x 100 cycles = 12 us)
        c.store(0x4000, 1);
        written_at = c.local_time().fs;  // the store has performed
    });
    run_for_fs(100'000 * ns_fs);
    ASSERT_EQ(reads.size(), 100u);
    unsigned zeros = 0;
    for (const auto& [t, v] : reads) {
        if (v == 0) {
            ++zeros;
            EXPECT_LT(t, written_at) << "read the old value after the write performed";
        }
    }
    for (std::size_t i = 0; i + 1 < reads.size(); ++i) EXPECT_LE(reads[i].second, reads[i + 1].second);  // 0s, then 1s
    EXPECT_GT(zeros, 30u);  // the write lands near the middle of the loop
    EXPECT_LT(zeros, 70u);
}

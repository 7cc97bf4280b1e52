// Generic-timer event stream waking cores in WFE: exact firing and wake-up
// times. Expected times are computed by hand (see each comment) from
//   stream event k at floor(k * 2^(EVNTI+1) * 10^15 / f_counter) fs,
//   seen by a core at its first edge at or after that, plus the wake latency.
#include <gtest/gtest.h>

#include <map>

#include "sim/kernel.h"
#include "app/platform.h"
#include "app/system.h"

using namespace cohsim;

namespace {

platform_config make(std::vector<std::string> sets) {
    std::vector<std::pair<std::string, std::string>> o;
    o.emplace_back("test", "clusters={little: {freq: 832MHz, core: cortex-a53, timing: {wfe_wake_latency: 4cycles}}, "
                           "big: {freq: 1.8GHz, core: cortex-a73, timing: {wfe_wake_latency: 10cycles}}}");
    o.emplace_back("test", "timer={freq: 1.92MHz, evnti: 8}");
    o.emplace_back("test", "interconnect={freq: 533MHz}");
    o.emplace_back("test", "workload.threads=[]");
    o.emplace_back("test", "spread_spectrum={}");  // steady clocks: the times below assume them
    for (auto& s : sets) o.emplace_back("test", s);
    return load_platform("", o);
}

void run_until(std::uint64_t fs) { kernel::run({fs - kernel::now().fs}); }

}  // namespace

TEST(EventStream, PeriodIsTwoToTheEvntiPlusOneTicks) {
    system_model sys(make({}));
    EXPECT_EQ(sys.timer().period_ticks(), 512u);
    // 512 / 1.92 MHz = 266.666... us -> 266666666666 fs; event 3 = 800 us exactly.
    EXPECT_EQ(sys.timer().event_time(1).fs, 266'666'666'666u);
    EXPECT_EQ(sys.timer().event_time(3).fs, 800'000'000'000u);
}

TEST(EventStream, LittleCoreWakesAtItsNextEdgePlusLatency) {
    system_model sys(make({}));
    const core& little = *sys.find_core("little.0");
    // Event 1 at 266666666666 fs; 832 MHz edge at or after: ceil(266666666666 * 832e6 / 1e15)
    // = ceil(221866.67) = 221867; + 4 cycles = 221871 -> 221871e15/832e6 = 266671875000 fs exactly.
    run_until(266'671'874'999ULL);
    EXPECT_TRUE(little.asleep());
    EXPECT_EQ(little.last_wake().fs, 0u);
    run_until(266'671'875'001ULL);
    EXPECT_EQ(little.last_wake().fs, 266'671'875'000u);
    EXPECT_TRUE(little.asleep());  // the idle loop went straight back to WFE
}

TEST(EventStream, BigCoreWakesAtItsNextEdgePlusLatency) {
    system_model sys(make({}));
    const core& big = *sys.find_core("big.0");
    // 1.8 GHz: ceil(266666666666 * 1.8e9 / 1e15) = ceil(479999.9999988) = 480000;
    // + 10 cycles = 480010 -> floor(480010e15 / 1.8e9) = 266672222222 fs.
    run_until(300'000'000'000ULL);
    EXPECT_EQ(big.last_wake().fs, 266'672'222'222u);
}

TEST(EventStream, WakeOnAnEdgeNeedsNoAlignment) {
    system_model sys(make({}));
    // Event 3 at exactly 800 us = 665600 little cycles, an edge: + 4 cycles
    // = 665604 -> floor(665604e15 / 832e6) = 800004807692 fs.
    run_until(1'000'000'000'000ULL);
    EXPECT_EQ(sys.find_core("little.0")->last_wake().fs, 800'004'807'692u);
}

TEST(EventStream, AllCoresHearEveryTickAndSleepingCostsNothingElse) {
    system_model sys(make({"clusters.little.cores=3", "clusters.big.cores=2"}));
    const std::uint64_t e0 = kernel::events();
    run_until(1'000'000'000'000ULL);  // ticks at 266.67, 533.33, 800 us
    struct grab : stat_visitor {
        std::map<std::string, std::uint64_t> v;
        void counter(const std::string& n, const std::string&, std::uint64_t x) override { v[n] = x; }
    };
    grab t;
    sys.timer().stats().accept(t);
    EXPECT_EQ(t.v["event_stream_ticks"], 3u);
    for (const auto& c : sys.cores()) {
        grab g;
        c->stats().accept(g);
        EXPECT_EQ(g.v["wakes_event_stream"], 3u) << c->id();
        EXPECT_EQ(g.v["wfe_sleeps"], 4u) << c->id();  // initial sleep + one after each wake
        EXPECT_EQ(g.v["wfe_executed"], 4u) << c->id();
    }
    // The cores are model processes that the event queue resumes: nothing
    // else is pending in the SystemC kernel, so its first activation (time 0)
    // runs the whole millisecond. Resumptions: one start per core, then per
    // tick one wake-up per core: 5 + 3 * 5 = 20.
    EXPECT_EQ(kernel::events() - e0, 1u);
    EXPECT_EQ(kernel::switches(), 20u);
}

TEST(EventStream, ExactRunsGiveEveryTimeItsOwnActivation) {
    system_model sys(make({"clusters.little.cores=3", "clusters.big.cores=2", "run.exact=true"}));
    const std::uint64_t e0 = kernel::events();
    run_until(1'000'000'000'000ULL);
    for (const auto& c : sys.cores()) {
        std::map<std::string, std::uint64_t> v;
        struct grab : stat_visitor {
            std::map<std::string, std::uint64_t>& v;
            explicit grab(std::map<std::string, std::uint64_t>& m) : v(m) {}
            void counter(const std::string& n, const std::string&, std::uint64_t x) override { v[n] = x; }
        } g(v);
        c->stats().accept(g);
        EXPECT_EQ(v["wakes_event_stream"], 3u) << c->id();
    }
    // One activation at time 0 (the cores start and sleep), and per tick one
    // for the tick, one for the little cores' wake-ups (4 little cycles later)
    // and one for the big cores' (their edges differ): 1 + 3 * 3 = 10. The
    // resumptions are the same as accelerated: 5 + 3 * 5 = 20.
    EXPECT_EQ(kernel::events() - e0, 10u);
    EXPECT_EQ(kernel::switches(), 20u);
}

TEST(EventStream, DisabledStreamNeverWakes) {
    system_model sys(make({"timer.event_stream=false"}));
    run_until(10'000'000'000'000ULL);
    for (const auto& c : sys.cores()) EXPECT_EQ(c->last_wake().fs, 0u);
    EXPECT_EQ(kernel::events(), 1u);                     // the event queue's first activation ...
    EXPECT_EQ(kernel::switches(), sys.cores().size());  // ... starts each core, which sleeps for good
}

TEST(EventStream, PeriodSetDirectly) {
    system_model sys(make({"timer={freq: 1.92MHz, period: 100us}"}));
    EXPECT_EQ(sys.timer().event_time(3).fs, 300'000'000'000u);
    run_until(250'000'000'000ULL);
    // Little core: event 2 at 200 us = 166400 cycles exactly, + 4 cycles.
    EXPECT_EQ(sys.find_core("little.0")->last_wake().fs, clock_domain("l", frequency{832'000'000}).time_of(166'404).fs);
}

// Interrupts and ticks as they vary on a real machine (activity profiles):
// handler times drawn per invocation, each core's arrival of an aligned
// tick jittered, the timekeeping core's extra work, periodic softirq work;
// and what that variation does to an LL/SC contest between identical cores.
// Expected values are the distributions' closed forms and hand sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "platform_fixture.h"
#include "sim/observer.h"

using namespace cohsim;
using namespace cohsim::testing;

namespace {

constexpr std::uint64_t us = 1'000'000'000;  // fs

// The handler slices of every core ("CORE interrupts" tracks) and the
// critical sections of the lock's threads, as the timeline sees them.
struct slices : timeline_observer {
    struct slice_t {
        std::string name;
        duration t0, t1;
    };
    std::map<std::string, std::vector<slice_t>> handlers, sections;  // by core id
    bool traces_line(std::uint64_t) const override { return false; }
    void slice(group, const std::string& track, const std::string& name, duration t0, duration t1) override {
        const std::string suffix = " interrupts";
        if (track.size() > suffix.size() && track.compare(track.size() - suffix.size(), suffix.size(), suffix) == 0)
            handlers[track.substr(0, track.size() - suffix.size())].push_back({name, t0, t1});
        else if (name == "critical section")
            sections[track].push_back({name, t0, t1});
    }
    void instant(group, const std::string&, const std::string&, duration) override {}
    std::uint64_t flow_start(group, const std::string&, duration) override { return 0; }
    void flow_end(group, const std::string&, duration, std::uint64_t) override {}
    void line_state(std::uint64_t, unsigned, const std::string&, const char*, duration) override {}
};

struct moments {
    double mean = 0, sd = 0;
    std::size_t n = 0;
};
moments of(const std::vector<double>& xs) {
    moments m;
    m.n = xs.size();
    for (double x : xs) m.mean += x;
    m.mean /= static_cast<double>(m.n);
    for (double x : xs) m.sd += (x - m.mean) * (x - m.mean);
    m.sd = std::sqrt(m.sd / static_cast<double>(m.n));
    return m;
}

}  // namespace

TEST(Interrupts, HandlerTimesFollowTheirLognormalInvocationByInvocation) {
    // Tick every 50 us on big.0, median 10 us, spread 40 (log-sd 0.4): over
    // 2000 ticks the mean is 10 e^0.08 = 10.833 us, the sd 10.833 *
    // sqrt(e^0.16 - 1) = 4.512 us, half of them above 10 us. Random
    // interrupts on big.1 (median 2 us, spread 80: mean 2 e^0.32 = 2.754 us).
    system_model sys(test_platform({"activity.tick={period: 50us, handler: 10us, handler_spread: 40, cores: big.0}",
                                    "activity.random_interrupts={interval: 50us, handler: 2us, handler_spread: 80, "
                                    "cores: big.1}",
                                    "run.duration=100ms"}));
    slices obs;
    sys.observe(observers{&obs, nullptr});
    run_for_fs(100'000 * us);
    std::vector<double> tick, irq;
    for (const auto& s : obs.handlers["big.0"]) tick.push_back(static_cast<double>(s.t1.fs - s.t0.fs) / us);
    for (const auto& s : obs.handlers["big.1"]) irq.push_back(static_cast<double>(s.t1.fs - s.t0.fs) / us);
    ASSERT_GE(tick.size(), 1999u);
    const moments t = of(tick), r = of(irq);
    EXPECT_NEAR(t.mean, 10.833, 4 * 4.512 / std::sqrt(t.n));
    EXPECT_NEAR(t.sd, 4.512, 0.06 * 4.512);
    const auto above = std::count_if(tick.begin(), tick.end(), [](double x) { return x > 10; });
    EXPECT_NEAR(static_cast<double>(above) / t.n, 0.5, 0.045);  // 4 standard errors
    ASSERT_GT(r.n, 1000u);
    const double r_sd = 2.754 * std::sqrt(std::exp(0.64) - 1);  // 2.396 us
    EXPECT_NEAR(r.mean, 2.754, 4 * r_sd / std::sqrt(r.n));
    // No two invocations alike (a fixed handler would give one value).
    std::sort(tick.begin(), tick.end());
    EXPECT_GT(std::unique(tick.begin(), tick.end()) - tick.begin(), 1990);
}

TEST(Interrupts, AnAlignedTickReachesEachCoreAfterItsOwnJitter) {
    // Every core's tick n at the common instant I + n P plus a draw uniform
    // in [0, J), J = 2 us, its own per core and tick: the offsets spread over
    // [0, J) with mean J/2 and sd J/sqrt(12) = 0.577 us; two cores' offsets
    // differ by a triangular variate with mean 0 and mean |d| = J/3.
    system_model sys(test_platform({"activity.tick={period: 1ms, jitter: 2us}"}));
    const std::vector<std::string> ids = {"little.0", "little.1", "big.0", "big.1"};
    constexpr std::uint64_t period = 1000 * us;
    std::map<std::string, std::vector<double>> off;  // due - n P, in us
    std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
    for (const auto& id : ids)
        for (std::uint64_t n = 0; n < 4000; ++n) {
            const std::uint64_t a = sys.find_core(id)->tick_due(n).fs - n * period;
            lo = std::min(lo, a), hi = std::max(hi, a);
            off[id].push_back(static_cast<double>(a) / us);
        }
    // The instant is the same for all: every offset within one J of the least.
    EXPECT_LT(hi - lo, 2 * us);
    EXPECT_GT(hi - lo, 2 * us * 99 / 100);
    const double base = static_cast<double>(lo) / us;
    for (const auto& id : ids) {
        std::vector<double> o = off[id];
        for (double& x : o) x -= base;
        const moments m = of(o);
        EXPECT_NEAR(m.mean, 1.0, 4 * 0.577 / std::sqrt(4000.0)) << id;
        EXPECT_NEAR(m.sd, 0.577, 0.03) << id;
    }
    std::vector<double> d, absd;
    for (std::size_t n = 0; n < 4000; ++n) {
        d.push_back(off["big.0"][n] - off["big.1"][n]);
        absd.push_back(std::abs(d.back()));
    }
    EXPECT_NEAR(of(d).mean, 0.0, 4 * 0.816 / std::sqrt(4000.0));  // sd of the difference: J/sqrt(6)
    EXPECT_NEAR(of(absd).mean, 2.0 / 3, 0.03);
}

TEST(Interrupts, TheModelTakesEachTickAtItsJitteredArrival) {
    // A core that loads after each 1 us of work takes tick n at its first
    // access at or after tick_due(n): within one work step (and the load's
    // L1 hit) after it.
    system_model sys(test_platform({"activity.tick={period: 100us, handler: 3us, jitter: 5us, cores: little.0}"}));
    slices obs;
    sys.observe(observers{&obs, nullptr});
    core& c0 = *sys.find_core("little.0");
    sys.find_core("little.0")->set_program([&](core& c) {
        while (c.local_time().fs < 10'000 * us) {
            c.work(cycles{832});  // 1 us at 832 MHz
            c.load(0x1000);
        }
    });
    run_for_fs(10'100 * us);
    const auto& h = obs.handlers["little.0"];
    ASSERT_GE(h.size(), 100u);  // (and one more when the phase puts the 101st before 10.1 ms: taken idle)
    for (std::size_t n = 0; n < h.size(); ++n) {
        EXPECT_GE(h[n].t0.fs, c0.tick_due(n).fs) << n;
        EXPECT_LE(h[n].t0.fs, c0.tick_due(n).fs + 1 * us + 10'000'000) << n;  // + 10 ns
        EXPECT_EQ(h[n].t1.fs - h[n].t0.fs, 3 * us) << n;  // no spread: every handler 3 us
    }
    EXPECT_EQ(c0.next_tick().fs, c0.tick_due(h.size()).fs);
}

TEST(Interrupts, OneCoreKeepsTimeAndSomeTicksRunSoftirqs) {
    // 100 ticks of 5 us on every core in 10 ms; little.0 (the first core,
    // the default timekeeper) spends 3 us more on each; every 4th tick of
    // each core (at its own drawn phase) runs 20 us of softirq work too.
    system_model sys(test_platform(
        {"activity.tick={period: 100us, handler: 5us, timekeeping: 3us, softirq_every: 4, softirq: 20us}"}));
    slices obs;
    sys.observe(observers{&obs, nullptr});
    run_for_fs(10'000 * us);
    std::map<std::string, std::uint64_t> total, softirqs, first_softirq;
    for (const auto& [id, hs] : obs.handlers) {
        ASSERT_EQ(hs.size(), 100u) << id;
        for (std::size_t n = 0; n < hs.size(); ++n) {
            total[id] += hs[n].t1.fs - hs[n].t0.fs;
            if (hs[n].name.find("softirq") != std::string::npos) {
                if (softirqs[id]++ == 0) first_softirq[id] = n;
                EXPECT_EQ(n % 4, first_softirq[id]) << id << " tick " << n;
            }
        }
        EXPECT_EQ(softirqs[id], 25u) << id;
    }
    EXPECT_EQ(total["little.0"], 100 * 8 * us + 25 * 20 * us);
    for (const char* id : {"little.1", "big.0", "big.1"}) EXPECT_EQ(total[id], 100 * 5 * us + 25 * 20 * us) << id;
    // The phases are drawn per core: not all four the same.
    std::vector<std::uint64_t> phases;
    for (const auto& [id, p] : first_softirq) phases.push_back(p);
    EXPECT_GT(std::set<std::uint64_t>(phases.begin(), phases.end()).size(), 1u);
}

TEST(Interrupts, ANamedTimekeeperKeepsTime) {
    system_model sys(test_platform({"activity.tick={period: 100us, handler: 5us, timekeeping: 3us, timekeeper: big.1}"}));
    slices obs;
    sys.observe(observers{&obs, nullptr});
    run_for_fs(1'000 * us);
    for (const auto& [id, hs] : obs.handlers)
        for (const auto& h : hs) EXPECT_EQ(h.t1.fs - h.t0.fs, (id == "big.1" ? 8 : 5) * us) << id;
    EXPECT_EQ(obs.handlers["big.1"].front().name, "tick handler + timekeeping");
}

namespace {
// Two identical cores (big.0, big.1) in a test-and-set lock built of
// LDAXR/STXR with nothing outside the critical section: whoever holds the
// lock re-takes it from its own L1 at once, so the other gets in only when
// a disturbance reshuffles them. An aligned 1 ms tick is the disturbance.
// Per tick interval: which cores entered the critical section.
struct contest {
    int both = 0, only0 = 0, only1 = 0, intervals = 0;
    int switches = 0;  // consecutive critical sections by different cores
};
contest run_contest(const std::string& tick) {
    std::vector<std::pair<std::string, std::string>> sets;
    for (const std::string& s : std::vector<std::string>{"activity={}", "activity.tick=" + tick, std::string("workload.program=locks/tas.s"),
                                std::string("workload.params={INSIDE: 200, OUTSIDE: 0}"),
                                std::string("workload.threads=[{core: big.0}, {core: big.1}]"),
                                std::string("run.duration=40ms"), std::string("run.noise=false")})
        sets.emplace_back("test", s);
    // The phone's platform: its A73 pair keeps the lock where it is.
    system_model sys(load_platform(COHSIM_SOURCE_DIR "/configs/platforms/asr_4xa53_4xa73.yaml", sets));
    slices obs;
    sys.observe(observers{&obs, nullptr});
    run_for_fs(40'000 * us);
    // Interval k: from tick k's first handler entry (either core) to tick k+1's.
    std::vector<std::uint64_t> starts;
    const auto& h0 = obs.handlers["big.0"];
    const auto& h1 = obs.handlers["big.1"];
    for (std::size_t k = 0; k < std::min(h0.size(), h1.size()); ++k) starts.push_back(std::min(h0[k].t0.fs, h1[k].t0.fs));
    contest c;
    for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
        auto in = [&](const std::string& id) {
            for (const auto& s : obs.sections[id])
                if (s.t0.fs >= starts[k] && s.t0.fs < starts[k + 1]) return true;
            return false;
        };
        const bool a = in("big.0"), b = in("big.1");
        ++c.intervals;
        c.both += a && b, c.only0 += a && !b, c.only1 += b && !a;
    }
    std::vector<std::pair<std::uint64_t, int>> all;
    for (const auto& s : obs.sections["big.0"]) all.emplace_back(s.t0.fs, 0);
    for (const auto& s : obs.sections["big.1"]) all.emplace_back(s.t0.fs, 1);
    std::sort(all.begin(), all.end());
    for (std::size_t i = 1; i < all.size(); ++i) c.switches += all[i].second != all[i - 1].second;
    return c;
}
}  // namespace

TEST(Interrupts, AVaryingTickLetsTheLoserInAtSomeTicksNotAtOthers) {
    // Handler times that vary (spread 40) and per-core arrivals (jitter
    // 1 us): each tick reshuffles the pair differently, so the holder changes
    // at some ticks and not at others, and neither core wins for ever.
    const contest c = run_contest("{period: 1ms, handler: 5us, handler_spread: 40, jitter: 1us}");
    EXPECT_GE(c.switches, 2);            // the loser got in, more than once
    EXPECT_GT(c.only0, 0);               // intervals each core had to itself:
    EXPECT_GT(c.only1, 0);               //   the winner is not fixed
    EXPECT_GT(c.only0 + c.only1, c.intervals / 2);  // and most ticks change nothing
}

TEST(Interrupts, AFixedTickLeavesTheWinnerWinningForEver) {
    // The same contest under a tick with one handler time and no arrival
    // jitter (and no platform noise in either test): both cores enter and
    // leave every tick in the same order, and the one that won first wins at
    // every tick after. This is what the variation above is for.
    const contest c = run_contest("{period: 1ms, handler: 5us}");
    EXPECT_EQ(c.switches, 0);
    EXPECT_EQ(c.both, 0);
    EXPECT_EQ(std::min(c.only0, c.only1), 0);
    EXPECT_EQ(std::max(c.only0, c.only1), c.intervals);
}

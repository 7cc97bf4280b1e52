// One cluster of a memory system built by hand around a component under
// test, for the isolated model tests (l1_controller_test, home_test): the
// event queue, a 1 GHz cluster (SCU request hop 2 cycles, snoop hop 4), a
// 500 MHz interconnect with its default latencies (4 cycles each, data
// occupancy 4), DRAM at 100 ns, the routes and the functional memory. The
// test puts its component and its mock neighbours into `f`. A `setup` may
// ask for a second such cluster (in the same clock) and set the
// interconnect's options.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/mem/delivery.h"
#include "models/mem/dram.h"
#include "models/mem/fabric.h"
#include "models/mem/functional_memory.h"
#include "models/mem/interconnect.h"
#include "models/mem/socket_link.h"
#include "sc_reports.h"
#include "sim/kernel.h"

namespace cohsim::testing {

constexpr std::uint64_t ns = 1'000'000;  // fs
inline duration at_ns(std::uint64_t n) { return duration{n * ns}; }

// What a test may change: a second cluster, the interconnect's options.
struct mem_setup {
    unsigned clusters = 1;
    bool wait_at_interconnect = false;
    std::optional<cycles> ack_latency;
};

struct mem_harness {
    using setup = mem_setup;
    explicit mem_harness(const setup& s = {}) : mem_harness(init_kernel(), s) {}

    fabric f;
    event_queue& q = kernel::queue();
    clock_domain clk{"c", frequency{1'000'000'000}};
    std::vector<std::unique_ptr<cluster>> clusters;
    stat_group ic_stats{"interconnect"};
    interconnect ic;
    memory_params mem_params = dram_params();
    dram memory{mem_params, ic.clock(), 1, ic_stats};
    socket_link link{duration{100 * ns}, 25'000'000'000ULL, ic_stats};
    std::unique_ptr<delivery> net;
    functional_memory data;

    // A counter of the interconnect's group (DRAM reads, link crossings, ...).
    std::uint64_t ic_counter(const std::string& name) const { return counter_of(ic_stats, name); }
    std::uint64_t memory_reads() const { return ic_counter("memory_reads"); }

    // Runs the simulation until simulated time `t_ns`.
    static void run_until(std::uint64_t t_ns) {
        kernel::run(duration{t_ns * ns - kernel::now().fs});
    }

private:
    struct tag {};
    mem_harness(tag, const setup& s) : ic(ic_params(s), 1, 2) {
        for (unsigned k = 0; k < s.clusters; ++k)
            clusters.push_back(std::make_unique<cluster>(k == 0 ? "c" : "c" + std::to_string(k), clk, l2_params{}, scu_params{2, 4, 6}, 64));
        net = std::make_unique<delivery>(clusters, std::vector<unsigned>(s.clusters, 0), ic, link);
        f.q = &q;
        f.net = net.get();
        f.data = &data;
        f.far_atomics.assign(s.clusters, 0);  // every cluster's atomics are near
        f.checking = true;
    }
    static tag init_kernel() {
        kernel::init();
        return {};
    }
    static interconnect_params ic_params(const setup& s) {
        interconnect_params p;
        p.freq = frequency{500'000'000};
        p.wait_at_interconnect = s.wait_at_interconnect;
        p.ack_latency = s.ack_latency;
        return p;
    }
    static memory_params dram_params() {
        memory_params p;
        p.latency = duration{100 * ns};
        return p;
    }
};

}  // namespace cohsim::testing

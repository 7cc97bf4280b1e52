// One cluster of a memory system built by hand around a component under
// test, for the isolated model tests (l1_controller_test, home_test): the
// event queue, a 1 GHz cluster (SCU request hop 2 cycles, snoop hop 4), a
// 500 MHz interconnect with its default latencies (4 cycles each, data
// occupancy 4), DRAM at 100 ns, the routes and the functional memory. The
// test puts its component and its mock neighbours into `f`.
#pragma once

#include <memory>
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

struct mem_harness {
    mem_harness() : mem_harness(init_kernel()) {}

    fabric f;
    event_queue& q = kernel::queue();
    clock_domain clk{"c", frequency{1'000'000'000}};
    std::vector<std::unique_ptr<cluster>> clusters;
    stat_group ic_stats{"interconnect"};
    interconnect ic{ic_params(), 1, 2};
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
    explicit mem_harness(tag) {
        clusters.push_back(std::make_unique<cluster>("c", clk, l2_params{}, scu_params{2, 4, 6}, 64));
        net = std::make_unique<delivery>(clusters, std::vector<unsigned>{0}, ic, link);
        f.q = &q;
        f.net = net.get();
        f.data = &data;
        f.far_atomics = {0};  // its one cluster's atomics are near
        f.checking = true;
    }
    static tag init_kernel() {
        kernel::init();
        return {};
    }
    static interconnect_params ic_params() {
        interconnect_params p;
        p.freq = frequency{500'000'000};
        return p;
    }
    static memory_params dram_params() {
        memory_params p;
        p.latency = duration{100 * ns};
        return p;
    }
};

}  // namespace cohsim::testing

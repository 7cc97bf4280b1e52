// Exact latencies of the memory system, checked against the hop-by-hop
// composition documented in memory_system.h and docs/design/memory-system.md, computed here
// independently with clock-domain arithmetic. Platform: tests/model/platform_fixture.h
// (little 832 MHz, big 1.75 GHz, interconnect 533 MHz, memory 100 ns).
#include <gtest/gtest.h>

#include "platform_fixture.h"

using namespace cohsim;
using namespace cohsim::testing;
using protocol::cstate;

namespace {

constexpr std::uint64_t A = 0x1000;

// The same clocks as the platform, for the expected values.
struct hops {
    clock_domain L{"little", frequency{832'000'000}};
    clock_domain B{"big", frequency{1'750'000'000}};
    clock_domain I{"ic", frequency{533'000'000}};
    // An interconnect hop: leaves at the first interconnect edge at or after
    // t, arrives `lat` interconnect cycles later.
    duration ic(duration t, std::uint64_t lat) const { return I.edge_after(t, cycles{lat}); }
    static duration max(duration a, duration b) { return a < b ? b : a; }
};

struct op_times {
    duration before, after;
};

// `from` stores v to A; 10,000 of its cycles later `to` loads it: the load's
// start and end.
op_times store_then_load(system_model& sys, const char* from, const char* to, std::uint64_t v) {
    op_times rd;
    sys.find_core(from)->set_program([v](core& c) { c.store(A, v); });
    sys.find_core(to)->set_program([&rd, v](core& c) {
        c.work(cycles{10'000});
        rd.before = c.local_time();
        EXPECT_EQ(c.load(A), v);
        rd.after = c.local_time();
    });
    run_for_fs(1'000'000'000'000ULL);
    return rd;
}

// A program: a store of `v` to A after `wait` cycles, timed into `t`.
auto timed_store(op_times& t, std::uint64_t wait, std::uint64_t v) {
    return [&t, wait, v](core& c) {
        c.work(cycles{wait});
        t.before = c.local_time();
        c.store(A, v);
        t.after = c.local_time();
    };
}

// `core` waits `wait` of its cycles, then zeroes A's line (DC ZVA); the run
// goes on for `run_fs`: the zeroing's start and end.
op_times zero_after(system_model& sys, const char* core, std::uint64_t wait, std::uint64_t run_fs) {
    op_times z;
    sys.find_core(core)->set_program([&z, wait](cohsim::core& c) {
        c.work(cycles{wait});
        z.before = c.local_time();
        c.zero_line(A + 24);  // any address in the line
        z.after = c.local_time();
    });
    run_for_fs(run_fs);
    return z;
}

// `core` loads A first thing, alone, and the run goes on for 10 us: the load's start and end.
op_times lone_load(system_model& sys, const char* core) {
    op_times rd;
    sys.find_core(core)->set_program([&rd](cohsim::core& c) {
        rd.before = c.local_time();
        c.load(A);
        rd.after = c.local_time();
    });
    run_for_fs(10'000'000'000ULL);
    return rd;
}

// A counter of the memory system's components, by group and name.
std::uint64_t counter_value(system_model& sys, const std::string& group, const std::string& name) {
    for (const stat_group* g : sys.memory().stat_groups())
        if (g->name() == group) return counter_of(*g, name);
    return ~std::uint64_t{0};
}

}  // namespace

TEST(MemoryLatency, MissToMemoryThenL1Hit) {
    system_model sys(test_platform());
    op_times miss, hit;
    sys.find_core("little.0")->set_program([&](core& c) {
        miss.before = c.local_time();
        c.load(A);
        miss.after = c.local_time();
        hit.before = c.local_time();
        c.load(A);
        hit.after = c.local_time();
    });
    run_for_fs(10'000'000'000ULL);
    const hops h;
    // L1 lookup 3 cycles, to the SCU 2 cycles: nothing cached, so on to the
    // interconnect (26 cycles); memory (100 ns from the next interconnect edge)
    // and the broadcast snoop of the big cluster (27 out, 6 big cycles for a
    // snoop miss, 26 back) run in parallel; the grant comes back (26 cycles)
    // and the SCU hands it to the L1 (2 cycles).
    EXPECT_EQ(miss.before.fs, 0u);
    const duration at_scu = h.L.time_of(5);
    const duration at_ic = h.ic(at_scu, 26);
    const duration mem = h.I.next_edge(duration{at_ic.fs + 100'000'000});
    const duration snoop_back = h.ic(h.B.edge_after(h.B.next_edge(h.ic(at_ic, 27)), cycles{6}), 26);
    const duration ready = hops::max(mem, snoop_back);
    const duration done = h.L.edge_after(h.L.next_edge(h.ic(ready, 26)), cycles{2});
    EXPECT_EQ(miss.after.fs, done.fs);
    EXPECT_EQ(sys.memory().l1_state(0, A), cstate::E);  // alone: exclusive
    // A hit: 3 little cycles from an edge.
    EXPECT_EQ(hit.after.fs, h.L.edge_after(hit.before, cycles{3}).fs);
}

TEST(MemoryLatency, L2HitInsideTheCluster) {
    // A 1 KiB direct-mapped L1: 0x1400 evicts 0x1000 into the cluster's L2.
    system_model sys(test_platform({"clusters.little.l1={size: 1KiB, ways: 1, hit_latency: 3cycles}"}));
    op_times l2hit;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load(A);
        c.load(A + 1024);
    });
    sys.find_core("little.1")->set_program([&](core& c) {
        c.work(cycles{100'000});
        l2hit.before = c.local_time();
        c.load(A);
        l2hit.after = c.local_time();
    });
    run_for_fs(1'000'000'000'000ULL);
    const hops h;
    // 3 (L1) + 2 (to SCU) + 6 (L2) + 2 (to L1) little cycles, served in the cluster.
    EXPECT_EQ(l2hit.after.fs, h.L.edge_after(l2hit.before, cycles{13}).fs);
    EXPECT_EQ(sys.memory().l1_state(1, A), cstate::E);
}

namespace {
// little.0 reads a line that big.0 holds; big.0 first `prepare`s it.
void transfer_case(bool dirty) {
    system_model sys(test_platform());
    op_times rd;
    sys.find_core("big.0")->set_program([&](core& c) {
        if (dirty)
            c.store(A, 42);
        else
            c.load(A);
    });
    sys.find_core("little.0")->set_program([&](core& c) {
        c.work(cycles{10'000});
        rd.before = c.local_time();
        EXPECT_EQ(c.load(A), dirty ? 42u : 0u);
        rd.after = c.local_time();
    });
    run_for_fs(1'000'000'000'000ULL);
    const hops h;
    // To the interconnect as above; it snoops big.0 (27 cycles to the big
    // cluster, 2 big cycles SCU -> L1, 2 back), the data goes back (26) and on
    // to the little cluster (26), then 2 little cycles to the L1.
    const duration at_ic = h.ic(h.L.edge_after(rd.before, cycles{5}), 26);
    const duration snooped = h.B.edge_after(h.B.next_edge(h.ic(at_ic, 27)), cycles{2});
    const duration back = h.ic(h.B.edge_after(snooped, cycles{2}), 26);
    const duration done = h.L.edge_after(h.L.next_edge(h.ic(back, 26)), cycles{2});
    EXPECT_EQ(rd.after.fs, done.fs);
    EXPECT_EQ(sys.memory().l1_state(0, A), cstate::S);
    EXPECT_EQ(sys.memory().l1_state(2, A), dirty ? cstate::O : cstate::S);  // dirty stays dirty, no memory write
}
}  // namespace

TEST(MemoryLatency, DirtyTransferFromTheOtherCluster) { transfer_case(true); }
TEST(MemoryLatency, CleanTransferFromTheOtherCluster) { transfer_case(false); }

TEST(MemoryLatency, UpgradeFromShared) {
    system_model sys(test_platform());
    op_times up;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load(A);
        c.work(cycles{20'000});
        up.before = c.local_time();
        c.store(A, 7);
        up.after = c.local_time();
    });
    sys.find_core("big.0")->set_program([&](core& c) {
        c.work(cycles{10'000});
        c.load(A);
    });
    run_for_fs(1'000'000'000'000ULL);
    const hops h;
    // S -> M: an upgrade. The interconnect invalidates big.0 (27 out, 2 + 2
    // big cycles, 26 back, no data), then grants (26 + 2 little cycles).
    const duration at_ic = h.ic(h.L.edge_after(up.before, cycles{5}), 26);
    const duration inv = h.B.edge_after(h.B.next_edge(h.ic(at_ic, 27)), cycles{2});
    const duration back = h.ic(h.B.edge_after(inv, cycles{2}), 26);
    const duration done = h.L.edge_after(h.L.next_edge(h.ic(back, 26)), cycles{2});
    EXPECT_EQ(up.after.fs, done.fs);
    EXPECT_EQ(sys.memory().l1_state(0, A), cstate::M);
    EXPECT_EQ(sys.memory().l1_state(2, A), cstate::I);
    EXPECT_EQ(sys.memory().peek(A, 8), 7u);
}

TEST(MemoryLatency, TransferInsideTheClusterStaysThere) {
    system_model sys(test_platform());
    const op_times rd = store_then_load(sys, "little.0", "little.1", 5);
    const hops h;
    // 3 + 2 to the SCU, 2 to little.0's L1, 2 back, 2 to little.1's L1.
    EXPECT_EQ(rd.after.fs, h.L.edge_after(rd.before, cycles{11}).fs);
    EXPECT_EQ(sys.memory().l1_state(0, A), cstate::O);
    EXPECT_EQ(sys.memory().l1_state(1, A), cstate::S);
}

TEST(MemoryLatency, FarAtomicFromMemory) {
    system_model sys(test_platform({"interconnect.far_atomics=true"}));
    op_times at;
    std::uint64_t old = 99;
    sys.memory().poke(A, 8, 5);
    sys.find_core("little.0")->set_program([&](core& c) {
        at.before = c.local_time();
        old = c.atomic(atomic_op::add, A, 3);
        at.after = c.local_time();
    });
    run_for_fs(10'000'000'000ULL);
    const hops h;
    // Straight to the interconnect (3 + 2 little cycles, 26 interconnect);
    // it snoops both clusters (a far atomic leaves no copy anywhere, the
    // requester's included), reads memory, and returns the old value.
    const duration at_ic = h.ic(h.L.time_of(5), 26);
    const duration mem = h.I.next_edge(duration{at_ic.fs + 100'000'000});
    const duration little_back = h.ic(h.L.edge_after(h.L.next_edge(h.ic(at_ic, 27)), cycles{6}), 26);
    const duration big_back = h.ic(h.B.edge_after(h.B.next_edge(h.ic(at_ic, 27)), cycles{6}), 26);
    const duration ready = hops::max(mem, hops::max(little_back, big_back));
    EXPECT_EQ(at.after.fs, h.L.edge_after(h.L.next_edge(h.ic(ready, 26)), cycles{2}).fs);
    EXPECT_EQ(old, 5u);
    EXPECT_EQ(sys.memory().peek(A, 8), 8u);
    EXPECT_EQ(sys.memory().l1_state(0, A), cstate::I);  // no copy for the requester
}

TEST(MemoryLatency, RemoteSocketCrossesTheLinkBothWays) {
    // little on socket 0, big on socket 1; line 0x1000 is homed on socket
    // (0x1000 / 64) mod 2 = 0.
    system_model sys(test_platform({"clusters.big.socket=1", "interconnect.link_latency=100ns"}));
    const op_times rd = lone_load(sys, "big.0");
    const hops h;
    const std::uint64_t link = 100'000'000;
    const duration at_ic = h.ic(duration{h.B.time_of(5).fs + link}, 26);
    const duration mem = h.I.next_edge(duration{at_ic.fs + 100'000'000});
    const duration little_back = h.ic(h.L.edge_after(h.L.next_edge(h.ic(at_ic, 27)), cycles{6}), 26);
    const duration ready = hops::max(mem, little_back);
    const duration done = h.B.edge_after(h.B.next_edge(duration{h.ic(ready, 26).fs + link}), cycles{2});
    EXPECT_EQ(rd.after.fs, done.fs);
}

// First touch: the same read as above, but its page is placed on the
// reader's socket (1), so the request and the data stay off the link; the
// broadcast snoop of the little cluster (socket 0) crosses it both ways.
// Then little.0 reads the next line of that page: homed on socket 1 too,
// its request and data cross the link.
TEST(MemoryLatency, FirstTouchPlacesThePageOnTheFirstReadersSocket) {
    system_model sys(test_platform({"clusters.big.socket=1", "interconnect.link_latency=100ns",
                                    "interconnect.placement=first_touch"}));
    op_times rd, next;
    sys.find_core("big.0")->set_program([&](core& c) {
        rd.before = c.local_time();
        c.load(A);
        rd.after = c.local_time();
    });
    sys.find_core("little.0")->set_program([&](core& c) {
        c.work(cycles{10'000});  // 12 us: after big.0's read
        next.before = c.local_time();
        c.load(A + 64);
        next.after = c.local_time();
    });
    run_for_fs(100'000'000'000ULL);
    const hops h;
    const std::uint64_t link = 100'000'000;
    const duration at_ic = h.ic(h.B.time_of(5), 26);
    const duration mem = h.I.next_edge(duration{at_ic.fs + 100'000'000});
    const duration little_back =
        h.ic(duration{h.L.edge_after(h.L.next_edge(duration{h.ic(at_ic, 27).fs + link}), cycles{6}).fs + link}, 26);
    const duration done = h.B.edge_after(h.B.next_edge(h.ic(hops::max(mem, little_back), 26)), cycles{2});
    EXPECT_EQ(rd.after.fs, done.fs);
    // little.0's read of A + 64: over the link to socket 1's home, memory
    // there, the snoop of big (same socket as the home), the data back over the link.
    const duration at_ic2 = h.ic(duration{h.L.edge_after(next.before, cycles{5}).fs + link}, 26);
    const duration mem2 = h.I.next_edge(duration{at_ic2.fs + 100'000'000});
    const duration big_back = h.ic(h.B.edge_after(h.B.next_edge(h.ic(at_ic2, 27)), cycles{6}), 26);
    const duration done2 = h.L.edge_after(h.L.next_edge(duration{h.ic(hops::max(mem2, big_back), 26).fs + link}), cycles{2});
    EXPECT_EQ(next.after.fs, done2.fs);
}

namespace {
const char* const dynamiq[] = {"dsus={dsu0: {freq: 1.2GHz, l3: {size: 2MiB, ways: 16, latency: 20cycles}}}",
                               "clusters.little.dsu=dsu0", "clusters.big.dsu=dsu0",
                               "clusters.big.l1={size: 1KiB, ways: 1, hit_latency: 3cycles}"};
}  // namespace

// A line handed between cores under a DSU goes through the DSU's snoop unit:
// the snoop leaves snoop_latency DSU cycles after the request reaches it, the
// answer transfer_latency DSU cycles after it does; each hop lands on the
// receiver's next edge.
void dsu_transfer_case(const char* from, unsigned from_agent, std::uint64_t snoop, std::uint64_t transfer) {
    const std::string lat = "dsus.dsu0.snoop_latency=" + std::to_string(snoop) + "cycles";
    const std::string tr = "dsus.dsu0.transfer_latency=" + std::to_string(transfer) + "cycles";
    system_model sys(test_platform({dynamiq[0], dynamiq[1], dynamiq[2], lat.c_str(), tr.c_str()}));
    const op_times rd = store_then_load(sys, from, "little.0", 6);
    const hops h;
    const clock_domain D("dsu", frequency{1'200'000'000});
    const clock_domain& T = std::string(from).rfind("big", 0) == 0 ? h.B : h.L;
    // 3 + 2 little cycles to the SCU; through the DSU; the owner's SCU hop (2
    // of its cycles) and its answer's (2); back through the DSU; the grant
    // in 2 little cycles.
    const duration at_dsu = h.L.edge_after(rd.before, cycles{5});
    const duration snooped = T.edge_after(D.edge_after(at_dsu, cycles{snoop}), cycles{2});
    const duration answered = D.edge_after(T.edge_after(snooped, cycles{2}), cycles{transfer});
    EXPECT_EQ(rd.after.fs, h.L.edge_after(answered, cycles{2}).fs);
    EXPECT_EQ(sys.memory().l1_state(from_agent, A), cstate::O);
    // Counted as a hand-off inside the cluster or between the DSU's clusters, never on the interconnect.
    const bool same = T.name() == "little";
    EXPECT_EQ(counter_value(sys, "little.scu", "core_transfers"), same ? 1u : 0u);
    EXPECT_EQ(counter_value(sys, "dsu0.l3", "transfers"), same ? 0u : 1u);
    EXPECT_EQ(counter_value(sys, "interconnect", "cross_cluster_transfers"), 0u);
    EXPECT_EQ(sys.memory().traffic().at(0).cross_cluster, same ? 0u : 1u);
}

TEST(MemoryLatency, DynamiqTransferBetweenClustersStaysInTheDsu) { dsu_transfer_case("big.0", 2, 0, 0); }
TEST(MemoryLatency, DynamiqTransferBetweenClustersTakesTheDsusHops) { dsu_transfer_case("big.0", 2, 10, 7); }

TEST(MemoryLatency, DynamiqTransferInsideAClusterGoesThroughTheDsuToo) { dsu_transfer_case("little.1", 1, 10, 7); }
// DC ZVA from I while big.0 holds the line dirty: a MakeU. The interconnect
// invalidates big.0 without its data (27 out, 2 + 2 big cycles, 26 back, as
// the upgrade above), reads no memory, and grants (26 + 2 little cycles);
// the whole line is zero, big.0's store is gone.
TEST(MemoryLatency, ZeroingALineInvalidatesTheOwnerWithoutItsData) {
    system_model sys(test_platform());
    sys.find_core("big.0")->set_program([&](core& c) {
        c.store(A, 42);
        c.store(A + 56, 43);
    });
    const op_times z = zero_after(sys, "little.0", 10'000, 1'000'000'000'000ULL);
    const hops h;
    const duration at_ic = h.ic(h.L.edge_after(z.before, cycles{5}), 26);
    const duration inv = h.B.edge_after(h.B.next_edge(h.ic(at_ic, 27)), cycles{2});
    const duration back = h.ic(h.B.edge_after(inv, cycles{2}), 26);
    EXPECT_EQ(z.after.fs, h.L.edge_after(h.L.next_edge(h.ic(back, 26)), cycles{2}).fs);
    EXPECT_EQ(sys.memory().l1_state(0, A), cstate::M);
    EXPECT_EQ(sys.memory().l1_state(2, A), cstate::I);
    for (std::uint64_t a = A; a < A + 64; a += 8) EXPECT_EQ(sys.memory().peek(a, 8), 0u) << a;
    EXPECT_EQ(counter_value(sys, "interconnect", "cross_cluster_transfers"), 0u);  // the dirty line did not move
    EXPECT_EQ(counter_value(sys, "interconnect", "memory_reads"), 1u);             // big.0's first store alone
    EXPECT_EQ(counter_value(sys, "big.0.l1", "snoops_inv"), 1u);
}

// DC ZVA on a line no cache holds: the MakeU goes to the interconnect (the
// cluster cannot know that no other has it), which snoops the big cluster
// (27 out, a snoop miss of 6 big cycles, 26 back) and reads no memory: the
// grant leaves as the snoop answer is in (26 + 2 little cycles). A load
// miss would wait for memory too (MissToMemoryThenL1Hit), here made 500 ns.
TEST(MemoryLatency, ZeroingALineNobodyHoldsReadsNoMemory) {
    system_model sys(test_platform({"memory={latency: 500ns, bytes_per_second: 12800000000}"}));
    const op_times z = zero_after(sys, "little.0", 0, 10'000'000'000ULL);
    const hops h;
    const duration at_ic = h.ic(h.L.time_of(5), 26);
    const duration snoop_back = h.ic(h.B.edge_after(h.B.next_edge(h.ic(at_ic, 27)), cycles{6}), 26);
    EXPECT_EQ(z.after.fs, h.L.edge_after(h.L.next_edge(h.ic(snoop_back, 26)), cycles{2}).fs);
    EXPECT_LT(z.after.fs, at_ic.fs + 500'000'000u);  // sooner than memory could answer
    EXPECT_EQ(sys.memory().l1_state(0, A), cstate::M);
    EXPECT_EQ(counter_value(sys, "interconnect", "requests_getm"), 1u);
    EXPECT_EQ(counter_value(sys, "interconnect", "memory_reads"), 0u);
}

namespace {
// The test platform's four cores on a 2 x 2 mesh at 1 GHz, one core per
// crosspoint: little.0 at XP 0 (0,0), little.1 at XP 1 (1,0), big.0 at XP 2
// (0,1), big.1 at XP 3 (1,1); a home node on every XP, line k's at XP k mod 4
// (A = 0x1000, line 64: XP 0).
const char* const meshed[] = {
    "dsus={m: {freq: 1GHz, snoop_latency: 5cycles, transfer_latency: 7cycles, l3: {size: 2MiB, ways: 16, latency: 20cycles}, "
    "mesh: {width: 2, height: 2, cores_per_xp: 1, hop_latency: 3cycles}}}",
    "clusters.little.dsu=m", "clusters.big.dsu=m"};
}  // namespace

// A line handed across the mesh: the request travels to the line's home
// node, the snoop from there to the owner's crosspoint, the owner's line
// straight to the requester (direct transfer); each hop 3 mesh cycles.
TEST(MemoryLatency, MeshTransferTravelsToTheHomeNodeAndStraightBack) {
    system_model sys(test_platform({meshed[0], meshed[1], meshed[2]}));
    const op_times rd = store_then_load(sys, "big.1", "little.0", 6);
    const hops h;
    const clock_domain M("mesh", frequency{1'000'000'000});
    // 3 + 2 little cycles to its crosspoint, which is the home node's: the
    // next mesh edge; the lookup (5); the snoop to XP 3, two hops (6); big.1's
    // SCU hop in (2 big cycles) and its answer's out (2); the line read out
    // (7) and straight back to XP 0, two hops (6); the grant's SCU hop (2
    // little cycles).
    const duration at_home = M.next_edge(h.L.edge_after(rd.before, cycles{5}));
    const duration snooped = h.B.edge_after(M.edge_after(at_home, cycles{5 + 6}), cycles{2});
    const duration back = M.edge_after(M.edge_after(h.B.edge_after(snooped, cycles{2}), cycles{7}), cycles{6});
    EXPECT_EQ(rd.after.fs, h.L.edge_after(back, cycles{2}).fs);
    EXPECT_EQ(sys.memory().l1_state(3, A), cstate::O);
    EXPECT_EQ(counter_value(sys, "m.l3", "transfers"), 1u);
    // Beyond the mesh only big.1's first store, a miss in every cache (to DRAM).
    EXPECT_EQ(counter_value(sys, "interconnect", "requests"), 1u);
    EXPECT_GT(counter_value(sys, "m.mesh", "hops"), 0u);
}

// DC ZVA on a mesh, of a line no cache holds: the home node knows from its
// snoop filter that nobody has it, so the MakeU is granted there, with no
// memory read and nothing beyond the mesh: big.1 (XP 3) to A's home node
// (XP 0), two hops (6 mesh cycles), and the grant back, two hops (6).
TEST(MemoryLatency, MeshZeroingALineNobodyHoldsIsGrantedAtTheHomeNode) {
    system_model sys(test_platform({meshed[0], meshed[1], meshed[2]}));
    const op_times z = zero_after(sys, "big.1", 1'000, 10'000'000'000ULL);
    const hops h;
    const clock_domain M("mesh", frequency{1'000'000'000});
    const duration at_home = M.next_edge(h.B.edge_after(z.before, cycles{5}));
    EXPECT_EQ(z.after.fs, h.B.edge_after(M.edge_after(at_home, cycles{6 + 6}), cycles{2}).fs);
    EXPECT_EQ(sys.memory().l1_state(3, A), cstate::M);
    EXPECT_EQ(counter_value(sys, "interconnect", "requests"), 0u);
    EXPECT_EQ(counter_value(sys, "interconnect", "memory_reads"), 0u);
}

// A second socket of meshes: big (socket 1) on a 2 x 2 mesh at 1 GHz, one
// core per crosspoint (big.0 at XP 0), its gateway to the link at XP 3.
// big.0 reads A, homed on socket 0 (line 64, interleaved): its request goes
// to the line's home node on its mesh (XP 0: no hop) and, as no cache of the
// socket has it, from there to the gateway (two hops, 6 mesh cycles), over
// the link to socket 0's interconnect; memory and the broadcast snoop of
// little as in RemoteSocketCrossesTheLinkBothWays; the data over the link
// and from the gateway to big.0's crosspoint (two hops), then its SCU hop.
TEST(MemoryLatency, ASecondSocketsMeshCrossesToItsGatewayAndBack) {
    system_model sys(test_platform({"clusters.big.socket=1", "interconnect.link_latency=100ns",
                                    "dsus={m1: {freq: 1GHz, l3: {size: 2MiB, ways: 16, latency: 20cycles}, "
                                    "mesh: {width: 2, height: 2, cores_per_xp: 1, hop_latency: 3cycles, gateway: 3}}}",
                                    "clusters.big.dsu=m1"}));
    const op_times rd = lone_load(sys, "big.0");
    const hops h;
    const clock_domain M("mesh", frequency{1'000'000'000});
    const std::uint64_t link = 100'000'000;
    const duration at_home = M.next_edge(h.B.edge_after(rd.before, cycles{5}));
    const duration at_gateway = M.edge_after(at_home, cycles{6});
    const duration at_ic = h.ic(duration{at_gateway.fs + link}, 26);
    const duration mem = h.I.next_edge(duration{at_ic.fs + 100'000'000});
    const duration little_back = h.ic(h.L.edge_after(h.L.next_edge(h.ic(at_ic, 27)), cycles{6}), 26);
    const duration in = h.B.next_edge(duration{h.ic(hops::max(mem, little_back), 26).fs + link});
    const duration at_core = M.edge_after(M.next_edge(in), cycles{6});
    EXPECT_EQ(rd.after.fs, h.B.edge_after(at_core, cycles{2}).fs);
    // Two hops each: the request, the data, and big.0's Unblock on its way to the link.
    EXPECT_EQ(counter_value(sys, "m1.mesh", "hops"), 6u);
}

// Two stores to one line at the same instant from little.0 (XP 0) and big.1
// (XP 3): the request nearer the line's home node reaches it first and is
// served first, so the other store is the one that stays. The home node of
// A is at XP 0 (little.0's), of A + 0xC0 at XP 3 (big.1's).
void mesh_race_case(std::uint64_t addr, std::uint64_t last_writer) {
    system_model sys(test_platform({meshed[0], meshed[1], meshed[2]}));
    // Both start their store at 3 us, a time on both cores' clocks' edges
    // (832 MHz: 2496 cycles; 1.75 GHz: 5250).
    sys.find_core("little.0")->set_program([&](core& c) {
        c.work(cycles{2496});
        c.store(addr, 1);
    });
    sys.find_core("big.1")->set_program([&](core& c) {
        c.work(cycles{5250});
        c.store(addr, 2);
    });
    run_for_fs(1'000'000'000'000ULL);
    EXPECT_EQ(sys.memory().peek(addr, 8), last_writer);
}

// Home at little.0's XP: little.0 first, big.1's store stays; and the other way round.
TEST(MemoryLatency, MeshTheCoreNearerTheHomeNodeIsServedFirst) { mesh_race_case(A, 2); }
TEST(MemoryLatency, MeshTheCoreNearerTheHomeNodeIsServedFirstEitherWay) { mesh_race_case(A + 0xC0, 1); }

namespace {
// `addr` holds 5; big.0 adds 3 at once, little.0 adds 4 after 10,000
// cycles of work: their old values and little.0's add's times.
struct two_adds {
    std::uint64_t first = 99, second = 99;
    op_times at;
};
two_adds add_then_add(system_model& sys, std::uint64_t addr) {
    two_adds r;
    sys.memory().poke(addr, 8, 5);
    sys.find_core("big.0")->set_program([&r, addr](core& c) { r.first = c.atomic(atomic_op::add, addr, 3); });
    sys.find_core("little.0")->set_program([&r, addr](core& c) {
        c.work(cycles{10'000});
        r.at.before = c.local_time();
        r.second = c.atomic(atomic_op::add, addr, 4);
        r.at.after = c.local_time();
    });
    run_for_fs(1'000'000'000'000ULL);
    return r;
}
// Both adds done, neither core caching the line; little.0's performed far
// at `l3` (from its data there), big.0's at the interconnect, which
// fetched the line from memory.
void expect_both_added(system_model& sys, const two_adds& r, std::uint64_t addr, const char* l3) {
    EXPECT_EQ(r.first, 5u);
    EXPECT_EQ(r.second, 8u);
    EXPECT_EQ(sys.memory().peek(addr, 8), 12u);
    EXPECT_EQ(sys.memory().l1_state(0, addr), cstate::I);
    EXPECT_EQ(sys.memory().l1_state(2, addr), cstate::I);
    EXPECT_EQ(counter_value(sys, l3, "far_atomics"), 1u);
    EXPECT_EQ(counter_value(sys, l3, "l3_hits"), 1u);
    EXPECT_EQ(counter_value(sys, "interconnect", "far_atomics"), 1u);
}
}  // namespace

// A far atomic on a mesh is performed at the line's home node. B's home
// node is XP 3 (big.1's). big.0's add finds B nowhere: it goes on to the
// interconnect, and the SLC keeps the line. little.0's add (XP 0) then
// crosses the mesh to XP 3, two hops (6 mesh cycles), is served from the
// SLC slice (20), performs, and its old value crosses back as one flit
// (6), then the SCU's 2 little cycles. Neither core caches B.
TEST(MemoryLatency, MeshFarAtomicIsPerformedAtTheHomeNode) {
    system_model sys(test_platform({meshed[0], meshed[1], meshed[2], "dsus.m.far_atomics=true"}));
    const std::uint64_t B = A + 0xC0;
    const two_adds r = add_then_add(sys, B);
    const op_times& at = r.at;
    const hops h;
    const clock_domain M("mesh", frequency{1'000'000'000});
    const duration at_home = M.edge_after(M.next_edge(h.L.edge_after(at.before, cycles{5})), cycles{6});
    const duration back = M.edge_after(M.edge_after(at_home, cycles{20}), cycles{6});
    EXPECT_EQ(at.after.fs, h.L.edge_after(back, cycles{2}).fs);
    expect_both_added(sys, r, B, "m.l3");
}

// The owner's copy of a far atomic's line is snooped from the home node
// and its line travels to the home node, not to the requester: little.1
// (XP 1) holds B modified; little.0's add reaches XP 3 as above; the snoop
// leaves after the lookup (5) and crosses one hop (3) and little.1's SCU (2
// little cycles); the answer's SCU hop (2), the line read out (7) and one
// hop back (3); the atomic performs when both the answer and the SLC's
// access (20) are in, and its old value returns as above.
TEST(MemoryLatency, MeshFarAtomicTakesTheOwnersLineToTheHomeNode) {
    system_model sys(test_platform({meshed[0], meshed[1], meshed[2], "dsus.m.far_atomics=true"}));
    const std::uint64_t B = A + 0xC0;
    op_times at;
    std::uint64_t old = 99;
    sys.find_core("little.1")->set_program([&](core& c) { c.store(B, 40); });
    sys.find_core("little.0")->set_program([&](core& c) {
        c.work(cycles{10'000});
        at.before = c.local_time();
        old = c.atomic(atomic_op::add, B, 2);
        at.after = c.local_time();
    });
    run_for_fs(1'000'000'000'000ULL);
    const hops h;
    const clock_domain M("mesh", frequency{1'000'000'000});
    const duration at_home = M.edge_after(M.next_edge(h.L.edge_after(at.before, cycles{5})), cycles{6});
    const duration snooped = h.L.edge_after(M.edge_after(at_home, cycles{5 + 3}), cycles{2});
    const duration answered = M.edge_after(M.edge_after(h.L.edge_after(snooped, cycles{2}), cycles{7}), cycles{3});
    const duration ready = hops::max(M.edge_after(at_home, cycles{20}), answered);
    EXPECT_EQ(at.after.fs, h.L.edge_after(M.edge_after(ready, cycles{6}), cycles{2}).fs);
    EXPECT_EQ(old, 40u);
    EXPECT_EQ(sys.memory().peek(B, 8), 42u);
    EXPECT_EQ(sys.memory().l1_state(1, B), cstate::I);
    EXPECT_EQ(sys.memory().l1_state(0, B), cstate::I);
    EXPECT_EQ(counter_value(sys, "m.l3", "far_atomics"), 1u);
    EXPECT_EQ(counter_value(sys, "m.l3", "transfers"), 0u);  // no hand-off to a core
}

TEST(MemoryLatency, DynamiqL3Hit) {
    // big.0 reads A (filling big's L2 and the DSU's L3) and evicts it from its
    // 1 KiB L1; little.0 then finds it in the L3 (not in little's L2).
    system_model sys(test_platform({dynamiq[0], dynamiq[1], dynamiq[2], dynamiq[3]}));
    op_times rd;
    sys.find_core("big.0")->set_program([&](core& c) {
        c.load(A);
        c.load(A + 1024);
    });
    sys.find_core("little.0")->set_program([&](core& c) {
        c.work(cycles{10'000});
        rd.before = c.local_time();
        c.load(A);
        rd.after = c.local_time();
    });
    run_for_fs(1'000'000'000'000ULL);
    const hops h;
    const clock_domain D("dsu", frequency{1'200'000'000});
    const duration data = D.edge_after(h.L.edge_after(rd.before, cycles{5}), cycles{20});
    EXPECT_EQ(rd.after.fs, h.L.edge_after(data, cycles{2}).fs);
}

TEST(MemoryLatency, StoreExclusiveUpgradeThatLostItsCopyFailsAtTheHome) {
    // Both cores read A (Shared). little.0 reserves A and issues its STXR
    // (an exclusive upgrade); big.0's plain store upgrades first at the
    // interconnect, which invalidates little.0's copy and clears its
    // reservation. When little.0's upgrade is then served, the home fails
    // it without taking the line (ACE exclusive CleanUnique): little.0 ends
    // with no copy and big.0 keeps its M line.
    system_model sys(test_platform());
    op_times sc, st;
    bool ok = true;
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load(A);
        c.work(cycles{10'000});  // 12.02 us
        c.load_exclusive(A);
        sc.before = c.local_time();
        ok = c.store_exclusive(A, 5);
        sc.after = c.local_time();
    });
    sys.find_core("big.0")->set_program([&](core& c) {
        c.work(cycles{2'000});
        c.load(A);
        c.work(cycles{19'000});  // to ~12.0 us
        st.before = c.local_time();
        c.store(A, 9);
        st.after = c.local_time();
    });
    run_for_fs(1'000'000'000'000ULL);
    const hops h;
    // big.0's upgrade: 3 + 2 big cycles to its SCU edge, 26 to the interconnect.
    const duration big_at_ic = h.ic(h.B.edge_after(st.before, cycles{5}), 26);
    const duration little_at_ic = h.ic(h.L.edge_after(sc.before, cycles{5}), 26);
    ASSERT_LT(big_at_ic.fs, little_at_ic.fs) << "the scenario needs big.0 to reach the interconnect first";
    // Invalidate little.0 (27 out, 2 + 2 little cycles, 26 back), grant big.0
    // (26 + 2 big cycles), big.0 unblocks the home (2 big cycles + 26).
    const duration inv = h.L.edge_after(h.L.next_edge(h.ic(big_at_ic, 27)), cycles{2});
    const duration back = h.ic(h.L.edge_after(inv, cycles{2}), 26);
    const duration big_done = h.B.edge_after(h.B.next_edge(h.ic(back, 26)), cycles{2});
    EXPECT_EQ(st.after.fs, big_done.fs);
    const duration unblocked = h.ic(h.B.edge_after(big_done, cycles{2}), 26);
    ASSERT_LT(little_at_ic.fs, unblocked.fs) << "little.0's upgrade must wait behind big.0's";
    // Served at the unblock: the failure goes back like an ack (26 + 2 little cycles).
    const duration failed = h.L.edge_after(h.L.next_edge(h.ic(unblocked, 26)), cycles{2});
    EXPECT_FALSE(ok);
    EXPECT_EQ(sc.after.fs, failed.fs);
    EXPECT_EQ(sys.memory().l1_state(0, A), cstate::I);
    EXPECT_EQ(sys.memory().l1_state(2, A), cstate::M);
    EXPECT_EQ(sys.memory().peek(A, 8), 9u);
}

TEST(LineTraffic, CountsEachRequestSnoopAndTransferOfALine) {
    // little.0 reads A (GetS from memory: alone, it gets E), big.0 writes it
    // (GetM: the E owner little.0 supplies the line across clusters and is
    // invalidated, 1 snoop), little.0 reads it again (GetS: big.0's dirty
    // copy crosses clusters, 1 snoop), big.0 writes again (Upg from O:
    // little.0 invalidated, 1 snoop). The other cores hold nothing, and the
    // snoop filter is off, so only holders' L1s are snooped.
    system_model sys(test_platform());
    sys.find_core("little.0")->set_program([&](core& c) {
        c.load(A);
        c.work(cycles{2'000});
        c.load(A);
    });
    sys.find_core("big.0")->set_program([&](core& c) {
        c.work(cycles{2'000});
        c.store(A, 1);
        c.work(cycles{4'000});
        c.store(A, 2);
    });
    run_for_fs(1'000'000'000'000ULL);
    const auto all = sys.memory().traffic();
    ASSERT_EQ(all.size(), 1u);
    const auto& t = all[0];
    EXPECT_EQ(t.line, A);
    EXPECT_EQ(t.gets, 2u);
    EXPECT_EQ(t.getm, 1u);
    EXPECT_EQ(t.upgrades, 1u);
    EXPECT_EQ(t.requests(), 4u);
    EXPECT_EQ(t.snoops, 3u);
    EXPECT_EQ(t.cross_cluster, 2u);
    EXPECT_EQ(t.exclusive_fails, 0u);
    EXPECT_EQ(t.cross_socket, 0u);
}

TEST(MemoryLatency, DsuFarAtomicIsPerformedAtTheL3) {
    // dsu0 performs atomics at its L3. big.0's add finds A nowhere: the L3
    // fetches it through the interconnect and keeps it. little.0's add then
    // travels to the L3 (snoop_latency, 10 DSU cycles), is served there (20),
    // performs, and its old value returns (transfer_latency, 7, then the SCU's
    // 2 little cycles). Neither core caches A; the L3 counts both.
    system_model sys(test_platform({dynamiq[0], dynamiq[1], dynamiq[2], "dsus.dsu0.far_atomics=true",
                                    "dsus.dsu0.snoop_latency=10cycles", "dsus.dsu0.transfer_latency=7cycles"}));
    const two_adds r = add_then_add(sys, A);
    const op_times& at = r.at;
    const hops h;
    const clock_domain D("dsu", frequency{1'200'000'000});
    const duration at_l3 = D.edge_after(h.L.edge_after(at.before, cycles{5}), cycles{10});
    const duration back = D.edge_after(D.edge_after(at_l3, cycles{20}), cycles{7});
    EXPECT_EQ(at.after.fs, h.L.edge_after(back, cycles{2}).fs);
    expect_both_added(sys, r, A, "dsu0.l3");
}

TEST(MemoryLatency, DsuFarAtomicSnoopsTheRequestersOwnCopy) {
    // little.0 and little.1 share A (both read it); little.0's add is
    // performed at the L3 (a shared copy is not unique: no near atomic),
    // which first snoops both copies away (the snoops leave
    // snoop_latency after the request reaches the L3, 2 little cycles each
    // way, the answer transfer_latency through the DSU); the L3's own access
    // runs meanwhile.
    system_model sys(test_platform({dynamiq[0], dynamiq[1], dynamiq[2], "dsus.dsu0.far_atomics=true",
                                    "dsus.dsu0.snoop_latency=10cycles", "dsus.dsu0.transfer_latency=7cycles"}));
    op_times at;
    sys.find_core("little.1")->set_program([&](core& c) { c.load(A); });
    sys.find_core("little.0")->set_program([&](core& c) {
        c.work(cycles{10'000});
        c.load(A);
        at.before = c.local_time();
        c.atomic(atomic_op::add, A, 1);
        at.after = c.local_time();
    });
    run_for_fs(1'000'000'000'000ULL);
    const hops h;
    const clock_domain D("dsu", frequency{1'200'000'000});
    const duration at_l3 = D.edge_after(h.L.edge_after(at.before, cycles{5}), cycles{10});
    const duration answered = D.edge_after(h.L.edge_after(h.L.edge_after(D.edge_after(at_l3, cycles{10}), cycles{2}), cycles{2}), cycles{7});
    const duration ready = hops::max(D.edge_after(at_l3, cycles{20}), answered);
    EXPECT_EQ(at.after.fs, h.L.edge_after(D.edge_after(ready, cycles{7}), cycles{2}).fs);
    EXPECT_EQ(sys.memory().l1_state(0, A), cstate::I);
    EXPECT_EQ(sys.memory().l1_state(1, A), cstate::I);
    EXPECT_EQ(counter_value(sys, "dsu0.l3", "far_atomics"), 1u);
}

// Two stores to A, held by big.0, one little cycle apart: little.1's request
// waits while little.0's is served. Without overlapped_lookup its snoop
// leaves snoop_latency after little.0's Unblock; with it, snoop_latency after
// it reached the DSU, or as the line frees if that is later.
void waiting_request_case(bool overlapped) {
    system_model sys(test_platform({dynamiq[0], dynamiq[1], dynamiq[2], "dsus.dsu0.snoop_latency=10cycles",
                                    "dsus.dsu0.transfer_latency=7cycles",
                                    overlapped ? "dsus.dsu0.overlapped_lookup=true" : "dsus.dsu0.overlapped_lookup=false"}));
    op_times st0, st1;
    sys.find_core("big.0")->set_program([&](core& c) { c.store(A, 1); });
    sys.find_core("little.0")->set_program(timed_store(st0, 10'000, 2));
    sys.find_core("little.1")->set_program(timed_store(st1, 10'001, 3));
    run_for_fs(1'000'000'000'000ULL);
    const hops h;
    const clock_domain D("dsu", frequency{1'200'000'000});
    // little.0: through the DSU to big.0 and back, as in dsu_transfer_case.
    const duration snooped0 = h.B.edge_after(D.edge_after(h.L.edge_after(st0.before, cycles{5}), cycles{10}), cycles{2});
    const duration granted0 = h.L.edge_after(D.edge_after(h.B.edge_after(snooped0, cycles{2}), cycles{7}), cycles{2});
    EXPECT_EQ(st0.after.fs, granted0.fs);
    const duration unblocked = h.L.edge_after(granted0, cycles{2});
    const duration arrived1 = h.L.edge_after(st1.before, cycles{5});
    ASSERT_LT(arrived1, unblocked);  // it did wait
    const duration out = overlapped ? hops::max(D.edge_after(arrived1, cycles{10}), D.next_edge(unblocked))
                                    : D.edge_after(unblocked, cycles{10});
    const duration snooped1 = h.L.edge_after(out, cycles{2});
    EXPECT_EQ(st1.after.fs, h.L.edge_after(D.edge_after(h.L.edge_after(snooped1, cycles{2}), cycles{7}), cycles{2}).fs);
    EXPECT_EQ(sys.memory().peek(A, 8), 3u);
}

TEST(MemoryLatency, DsuWaitingRequestLooksUpAfterTheLineFrees) { waiting_request_case(false); }
TEST(MemoryLatency, DsuOverlappedLookupSendsAWaitingRequestsSnoopAsTheLineFrees) { waiting_request_case(true); }

namespace {
// big.0 holds A dirty; little.0 stores to it, and little.1's store, which
// passed its SCU while the line was idle (its owner is in the other cluster),
// reaches the interconnect while little.0's is served there: it waits
// there. Without overlapped_lookup little.0's Unblock crosses to the
// interconnect and then little.1's snoop leaves; with it, the line frees as
// it reaches little.0 and the snoop arrives as its trip from little.1's
// arrival would bring it, or then if that is later.
void interconnect_waiting_case(bool overlapped) {
    system_model sys(test_platform({overlapped ? "interconnect.overlapped_lookup=true" : "interconnect.overlapped_lookup=false"}));
    op_times st0, st1;
    sys.find_core("big.0")->set_program([&](core& c) { c.store(A, 1); });
    sys.find_core("little.0")->set_program(timed_store(st0, 10'000, 2));
    sys.find_core("little.1")->set_program(timed_store(st1, 10'008, 3));  // about 10 ns after little.0
    run_for_fs(1'000'000'000'000ULL);
    const hops h;
    // little.0: to the interconnect, which snoops big.0 for its line, as in transfer_case.
    const duration at_ic0 = h.ic(h.L.edge_after(st0.before, cycles{5}), 26);
    const duration snooped0 = h.B.edge_after(h.ic(at_ic0, 27), cycles{2});
    const duration granted0 = h.L.edge_after(h.ic(h.ic(h.B.edge_after(snooped0, cycles{2}), 26), 26), cycles{2});
    EXPECT_EQ(st0.after.fs, granted0.fs);
    const duration unblock_at_scu = h.L.edge_after(granted0, cycles{2});
    const duration freed = overlapped ? unblock_at_scu : h.ic(unblock_at_scu, 26);
    // little.1 went on to the interconnect while the line was idle there, and waited.
    const duration at_ic1 = h.ic(h.L.edge_after(st1.before, cycles{5}), 26);
    ASSERT_LT(at_ic0, at_ic1);
    ASSERT_LT(at_ic1, freed);
    const duration out = overlapped ? hops::max(h.ic(at_ic1, 27), freed) : h.ic(freed, 27);
    const duration snooped1 = h.L.edge_after(out, cycles{2});
    const duration done1 = h.L.edge_after(h.ic(h.ic(h.L.edge_after(snooped1, cycles{2}), 26), 26), cycles{2});
    EXPECT_EQ(st1.after.fs, done1.fs);
    EXPECT_EQ(sys.memory().peek(A, 8), 3u);
}
}  // namespace

TEST(MemoryLatency, InterconnectWaitingRequestIsServedAfterTheUnblockArrives) { interconnect_waiting_case(false); }
TEST(MemoryLatency, InterconnectOverlappedLookupSendsAWaitingRequestsSnoopAfterTheLine) {
    interconnect_waiting_case(true);
}

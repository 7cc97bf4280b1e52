// A processor core: its clock domain, its event register and WFE, and the
// instruction-level operations a program runs on it (loads, stores,
// exclusives, atomics, barriers, compute, WFE/SEV/SEVL).
//
// Modelled:
//   - the per-core event register (one bit). WFE with the bit set clears it
//     and continues; with it clear, the core sleeps until a wake-up event,
//     which sets the bit and is consumed by the WFE.
//   - wake-up events: the generic-timer event stream, SEV (from any core),
//     SEVL (own core), the clearing of this core's exclusive monitor by
//     another observer.
//   - the wake-up latency: an event at time t is seen at this core's next
//     clock edge at or after t, and the core runs again `wfe_wake_latency`
//     of its own cycles later.
//   - local time: compute (`work`) only moves the core's own clock ahead;
//     the core catches the simulation up (one SystemC wait) before its next
//     memory access, WFE or SEV, so accesses perform at their true time.
//   - an optional periodic interrupt (the scheduler tick): every
//     `tick_period`, at the core's next operation (or, asleep in WFE, when
//     the interrupt wakes it like any event: next edge + wfe_wake_latency),
//     the core spends `tick_handler` away from its program; the exception
//     return sets the event register and clears the local exclusive monitor.
//     The first tick's phase is drawn from the run's seed: one phase for
//     all cores (Linux's default: every CPU's tick at the same jiffy
//     boundary) or, with `tick_skew`, one per core (Linux's skew_tick=1).
//     Each tick n arrives at its instant plus a draw uniform in [0,
//     `tick_jitter`) of its own (per core and tick: the per-CPU timers of an
//     aligned tick do not fire in the same nanosecond); the timekeeping core
//     (Linux's tick_do_timer_cpu) spends `tick_timekeeping` more on each
//     tick; every `softirq_every`-th tick of a core also runs softirq work
//     (`softirq_time`: timers, RCU, load balancing).
//   - handler times vary: each invocation's is drawn from a lognormal around
//     the configured median (`*_spread`: the standard deviation of its
//     logarithm; 0: every invocation the same), per core, source and
//     invocation number, from the run's seed: a pure function of what
//     happens, so both timing modes draw the same.
//   - optional random interrupts (device, firmware or secure-world
//     interrupts that reach a core at no fixed rhythm): a Poisson process
//     with mean gap `irq_interval`, each taken like a tick but costing
//     `irq_handler`; the gaps are drawn from the core's own interrupt stream
//     (seeded from the run's seed), so a run is deterministic.
//   - memory accesses go to the memory system and take what it says. With
//     `store_buffer` 0 a store completes before the next instruction and a
//     barrier costs only `barrier_latency`. With N > 0 entries a plain store
//     is issued and the core goes on: up to N stores perform in the
//     background, in any order across lines (Armv8 orders neither stores nor
//     loads to different addresses without a barrier); a store-release
//     first waits for every earlier load and store; a plain load (LDR) whose
//     bytes a store in flight wholly covers takes them from it (store-to-load
//     forwarding, in l1.hit_latency cycles); any other access to a line with
//     a store in flight waits for that store; DMB/DSB, LDAR, exclusives and
//     atomics wait for all of them. A full buffer stalls.
// Not modelled yet: per-instruction costs of a real pipeline (workloads).
// A core without a program runs an idle loop `1: wfe; b 1b`.
// Timing assumptions: a sleeping core costs no simulation event; each wake-up
// costs one; an L1 hit costs none beyond the catch-up wait.
#pragma once

#include <systemc>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/memory_system.h"
#include "sim/clock_domain.h"
#include "sim/event_queue.h"
#include "sim/process.h"
#include "sim/observer.h"
#include "sim/random.h"
#include "sim/schema.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

enum class core_type {
    cortex_a7, cortex_a15, cortex_a53, cortex_a55, cortex_a73, cortex_a75, thunderx2,
    // current cores (2018-2022)
    cortex_a76, cortex_a77, cortex_a78, cortex_x1, neoverse_n1, cortex_a510, cortex_a710, cortex_x2,
    // server cores of the X line (2021-2023)
    neoverse_v1, neoverse_v2
};

template <>
struct cfg::enum_names<core_type> {
    static const std::vector<std::pair<core_type, const char*>>& list();
};

// What a core type is, as its preset (core.cpp) says: the architecture it
// implements, as far as the lock code cares (Armv8.1's LSE atomics, CAS,
// LDADD, SWP..., or only Armv8.0's LDXR/STXR), and the instruction costs and
// outstanding misses that fill a cluster's unset `timing` values. Each
// figure's source is beside it in the table.
struct core_preset {
    core_type type;
    const char* name;
    // Architecture version x10: 70 (Armv7, modelled with the Armv8.0
    // exclusives), 80, 81, 82, 84, 90 (Armv9.0 includes Armv8.5).
    unsigned arch;
    bool rcpc;  // FEAT_LRCPC (LDAPR): from Armv8.3, and an Armv8.2 extension the A55/A75 generation has
    cycles alu, branch, hint;
    std::uint32_t outstanding_misses;
    // The caches this core type is built with, filling a cluster's unset
    // l1.size, l1.ways, l1.hit_latency, l2.size, l2.ways, l2.latency,
    // scu.request_latency and scu.snoop_latency (platform.cpp). Latencies are
    // the model's parameters: an L2 hit costs l1_hit + scu_request +
    // l2_latency + scu_snoop, fitted to the measured load-to-use.
    struct caches {
        std::uint64_t l1_bytes;
        std::uint32_t l1_ways;
        cycles l1_hit;
        std::uint64_t l2_bytes;  // per core when l2_private, else the cluster's
        bool l2_private;         // one L2 per core (modelled as one cluster L2 of their sum)
        std::uint32_t l2_ways;
        cycles l2_latency, scu_request, scu_snoop;
        // Latencies not measured on this core but taken from its family's
        // (the run warns that they are estimates); the source says which.
        bool estimate;
        const char* source;
    } cache;
};
const core_preset& preset_of(core_type t);
// LSE atomics: Armv8.1 and later.
bool has_lse(core_type t);
// LDAPR (FEAT_LRCPC).
bool has_rcpc(core_type t);
// LDAPUR/STLUR, RCpc with an unscaled offset (FEAT_LRCPC2): Armv8.4 and later.
bool has_lrcpc2(core_type t);

// Per-cluster core timing (every core of a cluster is the same type).
struct core_params {
    // Cycles per instruction class; unset = the core type's preset.
    std::optional<cycles> alu, branch, hint;
    // Plain loads (LDR) that may miss at once; unset = the core type's preset.
    std::optional<std::uint32_t> outstanding_misses;
    // Stores that may be in flight at once; 0 = none (each completes first).
    std::uint32_t store_buffer;
    cycles wfe_wake_latency;
    cycles barrier_latency;
    // Interrupts: not config keys of the core (a platform describes silicon);
    // set from the scenario's activity profile (workloads/activity.h).
    // Each handler time is the median of a lognormal whose logarithm has
    // standard deviation `*_spread` (0: every invocation the same), drawn
    // per invocation.
    duration tick_period{};   // 0 = no periodic interrupt
    duration tick_handler{};
    bool tick_skew = false;   // false: every non-skewed core ticks at one phase (Linux's default)
    duration tick_jitter{};   // each tick arrives at its instant plus a uniform draw in [0, tick_jitter)
    duration tick_timekeeping{};      // more per tick on the timekeeping core (0 on the others)
    std::uint32_t softirq_every = 0;  // every Nth tick also runs softirq work; 0 = none
    std::uint32_t softirq_phase = 0;  // which tick of the N (tick numbers n with n % N == phase)
    duration softirq_time{};
    double tick_spread = 0;   // of the handler, timekeeping and softirq times
    duration irq_interval{};  // mean gap between random interrupts; 0 = none
    duration irq_handler{};
    double irq_spread = 0;
    // Periodic device interrupts aimed at this core (a display's vsync, an
    // audio period): each every `period` from `first`, costing `handler`.
    struct device_interrupt {
        std::string name;
        duration period, handler, first;
        double spread = 0;
    };
    std::vector<device_interrupt> devices;
    static void describe(cfg::struct_schema<core_params>& s);
    // Fills unset instruction costs from `type`'s preset.
    void apply_preset(core_type type);
};

enum class wake_reason { event_stream, sev, monitor_cleared, interrupt };

// What a program tells the core it executed, besides memory operations and
// WFE/SEV: the instruction's class, which the core charges in its own cycles
// (its cluster's `timing`, the core type's preset unless the config says).
// A store instruction's own cost is its issue cycle (an ALU cycle) when a
// store buffer takes it; without one it is the access, already waited for.
enum class insn_class { alu, branch, hint, store };

class interrupt_alarm;

class core : public sc_core::sc_module, public core_port {
public:
    using program = std::function<void(core&)>;
    // `id` is "CLUSTER.INDEX"; the clock domain is the cluster's and outlives the core.
    core(const sc_core::sc_module_name& name, std::string id, std::string cluster, unsigned index, core_type type,
         const clock_domain& clock, const core_params& params);

    const std::string& id() const { return m_id; }
    const std::string& cluster() const { return m_cluster; }
    unsigned index() const { return m_index; }
    core_type type() const { return m_type; }
    const clock_domain& clock() const { return m_clock; }
    const core_params& params() const { return m_params; }
    const stat_group& stats() const { return m_stats; }
    bool asleep() const override { return m_asleep; }

    // A wake-up event for this core, raised at the current simulated time.
    void signal_event(wake_reason why);
    void monitor_cleared() override { signal_event(wake_reason::monitor_cleared); }

    // Set-up, before the simulation starts.
    void set_program(program p) { m_program = std::move(p); }
    // Why the program stopped the run (empty: it did not).
    const std::string& fault() const { return m_fault; }
    // Whether the fault is the simulator's own (a logic_error), not the program's.
    bool fault_is_model() const { return m_fault_is_model; }
    // When the fault happened: the core's local time at the faulting instruction.
    duration fault_time() const { return m_fault_at; }
    // The instant of the first tick (after seed_interrupts, whose stream
    // draws each tick's jitter).
    void set_tick_phase(duration first_tick);
    // When this core's tick number `n` (0: the first) arrives: its instant
    // (the phase plus n periods) plus its jitter draw.
    duration tick_due(std::uint64_t n) const;
    // Seeds the random-interrupt stream and draws the first arrival.
    void seed_interrupts(std::uint64_t seed);
    // This core's pseudo-random stream, seeded from the run's seed.
    random_stream& random() { return m_random; }
    duration next_tick() const { return m_next_tick; }
    // The earliest of the next tick, random and device interrupt (max if none).
    duration next_interrupt() const { return std::min(std::min(m_next_tick, m_next_irq), m_next_device_min); }
    void connect(memory_system* mem, unsigned agent, const std::vector<core*>* all_cores);
    // The memory system's functional contents (no timing): what a program's
    // directives read, e.g. a region's name.
    std::uint64_t peek(std::uint64_t addr, unsigned size) const { return m_mem->peek(addr, size); }
    // Who wakes this core from WFE at its interrupt arrivals.
    void set_alarm(interrupt_alarm* a) { m_alarm = a; }
    // The generic timer's system counter, which MRS CNTVCT_EL0 reads (set by
    // the timer when the core subscribes; none: MRS of it faults).
    void set_counter(const clock_domain* c) { m_counter = c; }
    const clock_domain* system_counter() const { return m_counter; }
    // Who watches: the timeline (interrupts, WFE sleeps, SEV).
    void observe(const observers& o) { m_obs = o; }
    unsigned agent() const { return m_agent; }

    // ---- operations, called by the program on the core's own thread ----
    std::uint64_t load(std::uint64_t addr, unsigned size = 8);
    // A plain load that does not wait for its data: returns a ticket for
    // load_result(). It waits first only while the core already has
    // outstanding_misses loads missing, or one to the same line in flight.
    // The issue itself takes no time (the instruction's cycle is the caller's).
    unsigned load_async(std::uint64_t addr, unsigned size = 8);
    // The data of that load: waits for it, and the core's time moves to
    // when it arrived (load-to-use). Each ticket is redeemed once.
    std::uint64_t load_result(unsigned ticket);
    // Waits until every load in flight has its data (tickets stay valid).
    void drain_loads();
    // A store; `release` (STLR) first waits for every earlier access. With a
    // store buffer it is issued and not waited for (the issue cycle is the
    // store instruction's: retire(insn_class::store)).
    void store(std::uint64_t addr, std::uint64_t value, unsigned size = 8, bool release = false);
    bool buffers_stores() const { return m_params.store_buffer > 0; }
    std::uint64_t load_exclusive(std::uint64_t addr, unsigned size = 8);
    bool store_exclusive(std::uint64_t addr, std::uint64_t value, unsigned size = 8);  // true: written
    std::uint64_t atomic(atomic_op op, std::uint64_t addr, std::uint64_t operand, unsigned size = 8,
                         std::uint64_t compare = 0);  // returns the old value
    // The 64-bit pairs (LDXP, STXP, CASP): one 16-byte access, the first
    // register's half at addr, the second's at addr + 8.
    std::pair<std::uint64_t, std::uint64_t> load_exclusive_pair(std::uint64_t addr);
    bool store_exclusive_pair(std::uint64_t addr, std::uint64_t lo, std::uint64_t hi);  // true: written
    // CASP: the old pair; the new one written when the old equals `compare`.
    std::pair<std::uint64_t, std::uint64_t> cas_pair(std::uint64_t addr, std::pair<std::uint64_t, std::uint64_t> compare,
                                                     std::pair<std::uint64_t, std::uint64_t> value);
    void prefetch_store(std::uint64_t addr);
    // DC ZVA: zeroes the line holding addr (line_bytes, the DCZID_EL0 block
    // size of the modelled cores) without reading it.
    void zero_line(std::uint64_t addr);
    void barrier();
    // An instruction of class `c` executed: the core's time moves on by its cost.
    void retire(insn_class c) {
        if (c == insn_class::store && !buffers_stores()) return;  // the access took its time already
        work(cost(c));
    }
    cycles cost(insn_class c) const {
        switch (c) {
            case insn_class::alu: return *m_params.alu;
            case insn_class::branch: return *m_params.branch;
            case insn_class::hint: return *m_params.hint;
            case insn_class::store: return buffers_stores() ? *m_params.alu : cycles{0};
        }
        return cycles{0};
    }
    // Counted in the core's own cycles: the time of an edge is needed only
    // when something looks at it (edge_after(local_time(), n), without
    // computing each edge on the way).
    void work(cycles n) {
        if (!m_on_edge) return work_from_time(n);
        m_k += n.n;
        if (m_k > m_safe_k) past_safe_edges();  // rare: the common case is a few cycles on, nothing more
    }
    void wfe();
    void sev();
    void sevl() { m_event_register = true; }
    // CLREX: opens the local exclusive monitor, after the loads in flight
    // (an LDXR still outstanding would arm it again).
    void clrex();
    // The core's own notion of now: simulated time plus what it has run ahead.
    duration local_time() const {
        return m_on_edge ? m_clock.time_of(m_k) : duration{kernel::now().fs + m_ahead.fs};
    }

    // Time the core has spent asleep in WFE up to now.
    duration time_asleep() const;
    // When the core last woke from WFE (0 if never).
    duration last_wake() const { return m_last_wake; }

private:
    random_stream m_random;
    void run();
    // Catches the simulation up to the core's local time: runs ahead when
    // nothing else happens before it (kernel::horizon()), else waits.
    void sync();
    // Waits (a kernel activation) until the model's time is `t`.
    void sleep_until(duration t);
    void take_due_interrupts();
    // work() from a local time that is not an edge index yet.
    void work_from_time(cycles n);
    // work() stepped past m_safe_k: looks at the edge's time (a sync() when
    // it is max_ahead past the simulation).
    void past_safe_edges();
    // The local time is now `t` (not on an edge the core counted to).
    void set_local_time(duration t);
    mem_response access(const mem_request& r);

    std::string m_id, m_cluster;
    unsigned m_index;
    core_type m_type;
    const clock_domain& m_clock;
    core_params m_params;

    program m_program;
    std::string m_fault;
    bool m_fault_is_model = false;
    duration m_fault_at;
    const clock_domain* m_counter = nullptr;
    memory_system* m_mem = nullptr;
    unsigned m_agent = 0;
    const std::vector<core*>* m_all = nullptr;
    // The core's local time: edge m_k of its clock (m_on_edge: after work()),
    // else simulated time plus m_ahead.
    duration m_ahead;
    std::uint64_t m_k = 0;
    bool m_on_edge = false;
    std::uint64_t m_safe_k = 0;  // on edge: the edges up to here are within max_ahead
    static constexpr std::uint64_t max_ahead_fs = 1'000'000'000;  // 1 us
    event_queue& m_queue;
    signal m_mem_done;  // an access answered
    signal m_resume;    // sleep_until's time has come
    const char* m_wake_why = "interrupt";  // the last wake-up's reason, for the trace
    // Loads issued with load_async, by ticket.
    struct pending_load {
        bool active = false, answered = false;
        std::uint64_t line = 0;
        mem_response resp;
        bool store = false;  // a buffered store: freed when done, not redeemed
        std::uint64_t addr = 0, value = 0;  // a store's bytes, for forwarding
        unsigned size = 0;
    };
    std::vector<pending_load> m_loads = std::vector<pending_load>(32);
    unsigned m_loads_active = 0;  // slots in use (loads not yet redeemed, stores not yet retired): 0 on the blocking path, which then skips the scan
    unsigned m_stores_active = 0;
    // Slots whose access is still in flight (loads only, or loads and stores).
    unsigned in_flight(bool loads_only) const;
    // Starts the access of a claimed slot; its answer marks the slot. Returns the slot.
    unsigned issue(pending_load& p, const mem_request& r);
    void retire_stores();  // frees the slots of stores that have performed
    void store_buffered(std::uint64_t addr, std::uint64_t value, unsigned size);
    // A free slot for an access to `line`: waits for an access to the same line
    // in flight and, while `busy` holds, for any access to complete.
    template <class Busy>
    pending_load& claim_slot(std::uint64_t line, const Busy& busy);
    void wait_answered(const pending_load& p);
    mem_response m_resp;
    bool m_resp_ready = false;

    duration m_next_tick{~std::uint64_t{0}};
    duration m_tick_first{};          // the instant of the first tick (before its jitter)
    std::uint64_t m_ticks = 0;        // ticks taken (random and device interrupts: their counters, their arrivals)
    std::uint64_t m_activity_draws = 0;  // the stream of handler-time and jitter draws
    // The uniform variate in (0, 1) of draw `what` of invocation `n`.
    double activity_uniform(std::uint64_t what, std::uint64_t n) const;
    // An invocation's time: lognormal around `median` with log-sd `spread`.
    duration handler_time(duration median, double spread, std::uint64_t what, std::uint64_t n) const;
    duration m_next_irq{~std::uint64_t{0}};
    std::vector<duration> m_next_device;             // per params().devices
    duration m_next_device_min{~std::uint64_t{0}};  // the earliest of them
    random_stream m_irq_random;
    interrupt_alarm* m_alarm = nullptr;
    observers m_obs;

    bool m_event_register = false;
    bool m_asleep = false;
    bool m_wake_pending = false;
    duration m_sleep_start;
    duration m_asleep_total;
    duration m_last_wake;
    signal m_wake;

    stat_group m_stats;
    counter m_wfe_executed{m_stats, "wfe_executed", "WFE instructions executed"};
    counter m_wfe_sleeps{m_stats, "wfe_sleeps", "WFEs that put the core to sleep (event register was clear)"};
    counter m_wake_event_stream{m_stats, "wakes_event_stream", "wake-ups caused by the generic-timer event stream"};
    counter m_wake_sev{m_stats, "wakes_sev", "wake-ups caused by SEV"};
    counter m_wake_monitor{m_stats, "wakes_monitor_cleared", "wake-ups caused by the clearing of this core's exclusive monitor"};
    counter m_wake_interrupt{m_stats, "wakes_interrupt", "wake-ups caused by an interrupt"};
    counter m_interrupts{m_stats, "interrupts", "interrupts taken (scheduler ticks and random interrupts)"};
    counter m_random_interrupts{m_stats, "random_interrupts", "random interrupts taken (activity.random_interrupts)"};
    counter m_device_interrupts{m_stats, "device_interrupts", "periodic device interrupts taken (activity.device_interrupts)"};
    counter m_stores_buffered{m_stats, "stores_buffered", "stores issued into the store buffer (timing.store_buffer)"};
    counter m_store_buffer_full{m_stats, "store_buffer_full", "stores that waited for a free store-buffer entry"};
    counter m_loads_forwarded{m_stats, "loads_forwarded", "loads served from a store in flight (store-to-load forwarding)"};
    // The core's program runs on its own stack, resumed by the event queue
    // (declared last: destroyed first, while what it uses still exists).
    std::unique_ptr<process> m_process;
    // A load whose bytes a store in flight wholly covers: a ticket already
    // answered with them, or -1.
    int forward_from_store(std::uint64_t addr, unsigned size);
};

// Wakes cores sleeping in WFE when their next interrupt (tick or random)
// arrives, with one pending SystemC notification for all cores: the earliest
// arrival still to come. (One per core, re-armed at every WFE, would fill
// SystemC's timed queue with far-off entries and slow every notification.)
// A core that is awake at its arrival takes the interrupt at its next
// operation; the alarm only matters to sleepers.
class interrupt_alarm : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(interrupt_alarm);
    interrupt_alarm(const sc_core::sc_module_name& name, std::vector<core*> cores);
    // A core's next arrival is now `t`: fire by then.
    void arrival_changed(duration t);

private:
    void start_of_simulation() override;
    void fire();
    std::vector<core*> m_cores;
    event_queue& m_queue;
    std::uint64_t m_generation = 0;
    duration m_armed{~std::uint64_t{0}};
};

}  // namespace cohsim

#include "models/core.h"

#include <algorithm>

#include "sim/kernel.h"

namespace cohsim {

namespace {
// Every integer instruction of these cores issues in one cycle and the result
// is ready the next (LLVM scheduling models: AArch64SchedA53, SchedA55,
// SchedCortexA57-class for A73/A75, SchedA510, SchedNeoverseN1 for the
// A76 family, SchedThunderX2T99; ARM's A7/A15 models in gem5's ex5 configs).
// Dual issue is not modelled, so the costs agree today; the table is where a
// measured difference goes.
//
// Outstanding misses (plain loads missing the L1 at once, at most
// memory_system::max_outstanding = 16): the Cortex-A72 TRM (section 6.4)
// gives six outstanding 64-byte line requests for its L1, our figure for its
// successor A73. The others are estimates by core class until a source is
// found: in-order cores keep few misses in flight, wide out-of-order cores
// many. For the A76 family the TRMs bound them from above: the private L2
// accepts 22 to 46 reads in flight (Cortex-A76 TRM, Table A7-1, by
// transaction-queue size), more than the L1 can issue.
//
// Architecture versions: the cores' TRMs and Arm's product pages (Armv8.2 for
// A55/A75/A76/A77/A78/X1/N1, Armv9.0 for A510/A710/X2); ThunderX2 Armv8.1
// (Marvell's product brief; `atomics` in its /proc/cpuinfo, sources.md 5).
// RCpc (LDAPR): the A55/A75 generation implements it with Armv8.2 (`lrcpc`
// in the Snapdragon 845's and RK3588's /proc/cpuinfo, sources.md 2, 10), as
// do all later cores; ThunderX2's flags list no `lrcpc` (estimate: none).
// LRCPC2 (LDAPUR/STLUR) is Armv8.4's, so the Armv9.0 cores' only: the
// Armv8.2 cores' /proc/cpuinfo lists `lrcpc` but not `ilrcpc` (sources.md 2, 10).
constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;
// Cache rows: {L1 bytes, ways, hit; L2 bytes, private per core, ways, latency;
// SCU request, snoop; estimate; source}. The measured rows are the shipped
// platforms' values (each platform file gives the arithmetic beside it); the
// latest cores' latencies are their family's until a measurement is found.
using caches = core_preset::caches;
const caches a76_family_estimate{64 * KiB, 4, cycles{4}, 512 * KiB, true, 8, cycles{5}, cycles{2}, cycles{2}, true,
                                 "L1 64KB 4-way, L2 512KB 8-way per core (the TRM's usual build); latencies as the "
                                 "Cortex-A76's, measured on the RK3588 (sources.md 10, estimate)"};
const std::vector<core_preset>& presets() {
    static const std::vector<core_preset> t = {
        {core_type::cortex_a7, "cortex-a7", 70, false, cycles{1}, cycles{1}, cycles{1}, 1,  // in-order, small (estimate)
         {32 * KiB, 4, cycles{3}, 512 * KiB, false, 8, cycles{5}, cycles{2}, cycles{2}, false,
          "BCM2836 (Raspberry Pi 2): L1 3 cycles, L2 hit 9-14 cycles (sources.md 3)"}},
        {core_type::cortex_a15, "cortex-a15", 70, false, cycles{1}, cycles{1}, cycles{1}, 6,  // out-of-order, A72-class (estimate)
         {32 * KiB, 2, cycles{4}, 2 * MiB, false, 16, cycles{13}, cycles{2}, cycles{2}, false,
          "Exynos 5422 / 7-cpu: L1 4 cycles, L2 21 cycles (sources.md 4)"}},
        {core_type::cortex_a53, "cortex-a53", 80, false, cycles{1}, cycles{1}, cycles{1}, 3,  // in-order (estimate)
         {32 * KiB, 4, cycles{3}, 1 * MiB, false, 16, cycles{17}, cycles{4}, cycles{6}, false,
          "Kirin 960 / S922X: L1 3 cycles, L2 27-35 cycles (sources.md 1.3, 1.4)"}},
        {core_type::cortex_a55, "cortex-a55", 82, true, cycles{1}, cycles{1}, cycles{1}, 4,  // in-order (estimate)
         {32 * KiB, 4, cycles{2}, 128 * KiB, true, 4, cycles{15}, cycles{2}, cycles{2}, false,
          "Snapdragon 845 / RK3588: L1 2 cycles, private 128KB L2 19-21 cycles (sources.md 2, 10)"}},
        {core_type::cortex_a73, "cortex-a73", 80, false, cycles{1}, cycles{1}, cycles{1}, 6,  // A72's six (A72 TRM 6.4)
         {64 * KiB, 4, cycles{3}, 2 * MiB, false, 16, cycles{14}, cycles{6}, cycles{9}, false,
          "Kirin 960 / S922X: L1 3 cycles, L2 21 cycles (sources.md 1.3, 1.4)"}},
        {core_type::cortex_a75, "cortex-a75", 82, true, cycles{1}, cycles{1}, cycles{1}, 8,  // estimate
         {64 * KiB, 4, cycles{3}, 256 * KiB, true, 8, cycles{10}, cycles{2}, cycles{2}, false,
          "Snapdragon 845: L1 3 cycles, private 256KB L2 12-17 cycles (sources.md 2)"}},
        {core_type::thunderx2, "thunderx2", 81, false, cycles{1}, cycles{1}, cycles{1}, 8,  // estimate
         {32 * KiB, 8, cycles{4}, 256 * KiB, true, 8, cycles{6}, cycles{1}, cycles{1}, true,
          "ThunderX2 (WikiChip, LLVM): L1 4 cycles; private 256KB L2 10-12 cycles, an estimate (sources.md 5)"}},
        {core_type::cortex_a76, "cortex-a76", 82, true, cycles{1}, cycles{1}, cycles{1}, 12,  // 4-wide OoO (estimate)
         {64 * KiB, 4, cycles{4}, 512 * KiB, true, 8, cycles{5}, cycles{2}, cycles{2}, false,
          "RK3588: L1 4 cycles, private 512KB L2 12 cycles (sources.md 10)"}},
        {core_type::cortex_a77, "cortex-a77", 82, true, cycles{1}, cycles{1}, cycles{1}, 12,  // A76 successor (estimate)
         a76_family_estimate},
        {core_type::cortex_a78, "cortex-a78", 82, true, cycles{1}, cycles{1}, cycles{1}, 12,  // A77 successor (estimate)
         a76_family_estimate},
        {core_type::cortex_x1, "cortex-x1", 82, true, cycles{1}, cycles{1}, cycles{1}, 16,  // 5-wide A78 (estimate)
         {64 * KiB, 4, cycles{4}, 1 * MiB, true, 8, cycles{5}, cycles{2}, cycles{2}, true,
          "L1 64KB 4-way, L2 1MB 8-way per core (its usual build); latencies as the Cortex-A76's (sources.md 10, "
          "estimate)"}},
        {core_type::neoverse_n1, "neoverse-n1", 82, true, cycles{1}, cycles{1}, cycles{1}, 12,  // the A76 core (estimate)
         {64 * KiB, 4, cycles{4}, 1 * MiB, true, 8, cycles{6}, cycles{2}, cycles{2}, false,
          "Ampere Altra Q80-26 ramlat: L1 1.539 ns = 4 cycles, L2 5.39 ns = 14 cycles at 2.6 GHz, 1MB private L2 "
          "(sources.md 11)"}},
        {core_type::cortex_a510, "cortex-a510", 90, true, cycles{1}, cycles{1}, cycles{1}, 4,  // in-order, A55 successor (estimate)
         {32 * KiB, 4, cycles{2}, 128 * KiB, true, 4, cycles{15}, cycles{2}, cycles{2}, true,
          "L1 32KB 4-way; L2 and latencies as the Cortex-A55's (sources.md 2, 10, estimate: the A510 shares its L2 "
          "between a pair of cores)"}},
        {core_type::cortex_a710, "cortex-a710", 90, true, cycles{1}, cycles{1}, cycles{1}, 12,  // A78 successor (estimate)
         a76_family_estimate},
        {core_type::cortex_x2, "cortex-x2", 90, true, cycles{1}, cycles{1}, cycles{1}, 16,  // X1 successor (estimate)
         {64 * KiB, 4, cycles{4}, 1 * MiB, true, 8, cycles{5}, cycles{2}, cycles{2}, true,
          "L1 64KB 4-way, L2 1MB 8-way per core (its usual build); latencies as the Cortex-A76's (sources.md 10, "
          "estimate)"}},
        {core_type::neoverse_v1, "neoverse-v1", 84, true, cycles{1}, cycles{1}, cycles{1}, 16,  // the X1's twin (estimate)
         {64 * KiB, 4, cycles{4}, 1 * MiB, true, 8, cycles{5}, cycles{2}, cycles{2}, true,
          "L1 64KB 4-way, L2 1MB 8-way per core as Graviton3 builds it (sources.md 18); latencies as the "
          "Cortex-A76's (sources.md 10, estimate)"}},
        {core_type::neoverse_v2, "neoverse-v2", 90, true, cycles{1}, cycles{1}, cycles{1}, 16,  // the X3's server form (estimate)
         {64 * KiB, 4, cycles{4}, 2 * MiB, true, 8, cycles{3}, cycles{2}, cycles{2}, false,
          "Graviton4 ASCT: L1 1.4 ns = 4 cycles, L2 4.0 ns = 11 cycles at 2.8 GHz, 2MB private L2 8-way "
          "(sources.md 19)"}},
    };
    return t;
}
}  // namespace

const core_preset& preset_of(core_type type) {
    for (const auto& p : presets())
        if (p.type == type) return p;
    return presets().front();  // unreachable: every core type has a row (tested)
}

const std::vector<std::pair<core_type, const char*>>& cfg::enum_names<core_type>::list() {
    static const std::vector<std::pair<core_type, const char*>> l = [] {
        std::vector<std::pair<core_type, const char*>> out;
        for (const auto& p : presets()) out.emplace_back(p.type, p.name);
        return out;
    }();
    return l;
}

bool has_lse(core_type t) { return preset_of(t).arch >= 81; }
bool has_rcpc(core_type t) { return preset_of(t).rcpc; }
bool has_lrcpc2(core_type t) { return preset_of(t).arch >= 84; }

namespace {
mem_request request(mem_request::kind_t kind, std::uint64_t addr, unsigned size, std::uint64_t value = 0) {
    mem_request r;
    r.kind = kind, r.addr = addr, r.size = size, r.value = value;
    return r;
}
}  // namespace

void core_params::apply_preset(core_type type) {
    const core_preset& p = preset_of(type);
    if (!alu) alu = p.alu;
    if (!branch) branch = p.branch;
    if (!hint) hint = p.hint;
    if (!outstanding_misses) outstanding_misses = p.outstanding_misses;
}

void core_params::describe(cfg::struct_schema<core_params>& s) {
    s.param("alu", &core_params::alu, "cycles of an ALU instruction (mov, add, eor, cmp, ...); default: the core type's preset")
        .def(std::nullopt)
        .range(cycles{0}, cycles{1000});
    s.param("branch", &core_params::branch, "cycles of a branch; default: the core type's preset")
        .def(std::nullopt)
        .range(cycles{0}, cycles{1000});
    s.param("hint", &core_params::hint, "cycles of nop, yield and a load prefetch; default: the core type's preset")
        .def(std::nullopt)
        .range(cycles{0}, cycles{1000});
    s.param("outstanding_misses", &core_params::outstanding_misses,
            "plain loads (LDR) that may be missing the L1 at once; the core waits for a load's data only when an "
            "instruction uses its register; default: the core type's preset")
        .def(std::nullopt)
        .range(std::uint32_t{1}, std::uint32_t{memory_system::max_outstanding});
    // Store buffers are not documented for these cores in a form we can use;
    // 0 (no buffer) is what the calibration ran with.
    s.param("store_buffer", &core_params::store_buffer,
            "stores that may be in flight at once while the core goes on (a store buffer); 0: each store completes "
            "before the next instruction")
        .def(std::uint32_t{0})
        .range(std::uint32_t{0}, std::uint32_t{memory_system::max_outstanding});
    // The architecture leaves WFE exit latency implementation defined
    // (arm-sync.md section 7.5); a handful of cycles to restart the pipeline
    // is our estimate until a measurement exists.
    s.param("wfe_wake_latency", &core_params::wfe_wake_latency,
            "core cycles from a wake-up event (aligned to the core's clock) to the core running again")
        .def(cycles{10})
        .range(cycles{0}, cycles{1000000});
    // With no store buffer modelled, DMB/DSB only drains the pipeline; a few
    // cycles is our estimate.
    s.param("barrier_latency", &core_params::barrier_latency, "core cycles a DMB/DSB costs")
        .def(cycles{4})
        .range(cycles{0}, cycles{10000});
}

namespace {
core_params with_preset(core_params p, core_type type) {
    p.apply_preset(type);
    return p;
}
}  // namespace

core::core(const sc_core::sc_module_name& name, std::string id, std::string cluster, unsigned index, core_type type,
           const clock_domain& clock, const core_params& params)
    : sc_module(name),
      m_id(std::move(id)),
      m_cluster(std::move(cluster)),
      m_index(index),
      m_type(type),
      m_clock(clock),
      m_params(with_preset(params, type)),
      m_queue(kernel::queue()),
      m_stats(m_id),
      m_process(std::make_unique<process>(m_id, [this] { run(); })) {
    for (const auto& d : m_params.devices) m_next_device.push_back(d.first);
    if (!m_next_device.empty()) m_next_device_min = *std::min_element(m_next_device.begin(), m_next_device.end());
    m_queue.ready(*m_process);
}

void core::connect(memory_system* mem, unsigned agent, const std::vector<core*>* all_cores) {
    m_mem = mem;
    m_agent = agent;
    m_all = all_cores;
    if (mem) mem->attach(agent, this);
}

void core::run() {
    // A program that goes wrong (runs off its end, jumps nowhere, a fault the
    // interpreter finds, a broken lock) stops the run where it happened: the
    // fault is kept for the caller, and the simulation stops at the core's
    // local time (kernel::stop: nothing else runs, in either timing mode).
    // A logic_error is the model's own (a protocol table with no entry, a
    // wiring mistake), not the program's: it says so.
    try {
        if (m_program) m_program(*this);
    } catch (const std::logic_error& e) {
        m_fault = e.what();
        m_fault_is_model = true;
        m_fault_at = local_time();
        kernel::stop(m_fault_at);
    } catch (const std::exception& e) {
        m_fault = e.what();
        m_fault_at = local_time();
        kernel::stop(m_fault_at);
    }
    if (kernel::stopped()) {
        process::suspend();  // never resumed: the simulation has stopped
        return;
    }
    sync();
    for (;;) wfe();  // a finished program idles
}

void core::set_local_time(duration t) {
    m_ahead = {t.fs - kernel::now().fs};
    m_on_edge = false;
}

void core::set_tick_phase(duration first_tick) {
    if (m_params.tick_period.fs == 0) return;
    m_tick_first = first_tick;
    m_next_tick = tick_due(0);
}

duration core::tick_due(std::uint64_t n) const {
    duration t{m_tick_first.fs + n * m_params.tick_period.fs};
    if (m_params.tick_jitter.fs > 0)
        t.fs += static_cast<std::uint64_t>(activity_uniform(4, n) * static_cast<double>(m_params.tick_jitter.fs));
    return t;
}

void core::seed_interrupts(std::uint64_t seed) {
    m_irq_random = random_stream(seed);
    m_activity_draws = splitmix64(seed ^ 0x68616e646c6572ULL);
    if (m_params.irq_interval.fs > 0) m_next_irq = {m_irq_random.exponential(m_params.irq_interval.fs)};
}

double core::activity_uniform(std::uint64_t what, std::uint64_t n) const {
    return open_unit(splitmix64(splitmix64(m_activity_draws ^ what) ^ n));
}

duration core::handler_time(duration median, double spread, std::uint64_t what, std::uint64_t n) const {
    if (spread == 0) return median;
    return {lognormal_at(median.fs, spread, activity_uniform(what, n))};
}

void core::take_due_interrupts() {
    if (next_interrupt().fs == ~std::uint64_t{0}) return;  // no interrupts: no clock read on every access
    duration local = local_time();
    if (local < next_interrupt()) return;  // the common case: nothing due
    while (!(local < next_interrupt())) {
        // The earliest source; at equal times the tick, then the random
        // interrupt, then the devices in their order.
        enum class source { tick, random, device } src = source::tick;
        std::size_t dev = 0;
        duration due_at = m_next_tick;
        if (m_next_irq < due_at) src = source::random, due_at = m_next_irq;
        for (std::size_t i = 0; i < m_next_device.size(); ++i)
            if (m_next_device[i] < due_at) src = source::device, dev = i, due_at = m_next_device[i];
        ++m_interrupts;
        if (src == source::random) ++m_random_interrupts;
        if (src == source::device) ++m_device_interrupts;
        if (local < due_at) local = due_at;
        const duration entry = local;
        const char* extra = "";
        switch (src) {
            case source::tick: {
                const std::uint64_t n = m_ticks;
                local.fs += handler_time(m_params.tick_handler, m_params.tick_spread, 1, n).fs;
                if (m_params.tick_timekeeping.fs > 0) {
                    local.fs += handler_time(m_params.tick_timekeeping, m_params.tick_spread, 2, n).fs;
                    extra = " + timekeeping";
                }
                if (m_params.softirq_every > 0 && n % m_params.softirq_every == m_params.softirq_phase) {
                    local.fs += handler_time(m_params.softirq_time, m_params.tick_spread, 3, n).fs;
                    extra = m_params.tick_timekeeping.fs > 0 ? " + timekeeping + softirq" : " + softirq";
                }
                m_next_tick = tick_due(++m_ticks);
                break;
            }
            case source::random:
                // (counted above: this is invocation number count - 1)
                local.fs += handler_time(m_params.irq_handler, m_params.irq_spread, 5, m_random_interrupts.value() - 1).fs;
                m_next_irq.fs += m_irq_random.exponential(m_params.irq_interval.fs);
                break;
            case source::device: {
                const auto& d = m_params.devices[dev];  // its invocation number: periods since its first
                local.fs += handler_time(d.handler, d.spread, 16 + dev, (m_next_device[dev].fs - d.first.fs) / d.period.fs).fs;
                m_next_device[dev].fs += m_params.devices[dev].period.fs;
                m_next_device_min = *std::min_element(m_next_device.begin(), m_next_device.end());
                break;
            }
        }
        if (m_obs.trace)
            m_obs.trace->slice(timeline_observer::group::cores, m_id + " interrupts",
                               src == source::tick     ? std::string("tick handler") + extra
                               : src == source::random ? "interrupt handler"
                                                       : m_params.devices[dev].name + " handler",
                               entry, local);
        m_event_register = true;  // the exception return is a WFE wake-up event ...
        if (m_mem) m_mem->clear_exclusive(m_agent);  // ... and clears the local monitor (arm-sync.md 3.2)
    }
    set_local_time(local);
    if (m_alarm) m_alarm->arrival_changed(next_interrupt());
}

void core::sync() {
    take_due_interrupts();
    const duration t = local_time();
    // Caught up: the local time is simulated time (what a wait after this sees).
    m_on_edge = false;
    m_ahead = {};
    if (t.fs == kernel::now().fs) return;
    // Run ahead: nothing else happens before t, so no wait could be seen.
    if (t < m_queue.horizon()) return kernel::advance_to(t);
    sleep_until(t);
}

void core::sleep_until(duration t) {
    m_queue.at(t, rank(phase::core, m_agent), [this] { m_queue.notify(m_resume); });
    event_queue::wait(m_resume);
}

// A program that only computes must still let the others run: never get more
// than a microsecond ahead of the simulation. Edges up to m_safe_k are surely
// within it (each period at most the clock's longest), so only a step past it
// looks at the edge's time.
void core::work_from_time(cycles n) {
    const std::uint64_t limit = kernel::now().fs + max_ahead_fs, longest = m_clock.longest_period_fs();
    const duration t = local_time();
    m_k = m_clock.next_edge_cycle(t) + n.n, m_on_edge = true;
    // That edge is less than one period after t.
    m_safe_k = limit > t.fs + longest ? m_k - n.n + (limit - t.fs) / longest - 1 : 0;
    if (m_k > m_safe_k) past_safe_edges();
}

void core::past_safe_edges() {
    const std::uint64_t limit = kernel::now().fs + max_ahead_fs, longest = m_clock.longest_period_fs();
    const std::uint64_t at = m_clock.time_of(m_k).fs;
    if (at > limit) return sync();
    m_safe_k = m_k + (limit - at) / longest;
}

mem_response core::access(const mem_request& r) {
    if (!m_mem) throw std::logic_error("core " + m_id + " has no memory system");
    drain_loads();  // a blocking access waits for the loads in flight (no reordering past it)
    sync();
    m_resp_ready = false;
    m_mem->access(m_agent, r, [this](const mem_response& resp) {
        m_resp = resp;
        m_resp_ready = true;
        m_queue.notify(m_mem_done);
    });
    if (!m_resp_ready) event_queue::wait(m_mem_done);
    set_local_time(m_resp.done);
    return m_resp;
}

void core::wait_answered(const pending_load& p) {
    if (p.answered) return;
    sync();  // catch the simulation up to this core's time before waiting
    while (!p.answered) event_queue::wait(m_mem_done);
}

unsigned core::in_flight(bool loads_only) const {
    if (m_loads_active == 0) return 0;
    unsigned n = 0;
    for (const auto& p : m_loads) n += p.active && !p.answered && !(loads_only && p.store);
    return n;
}

void core::retire_stores() {
    if (m_stores_active == 0) return;
    for (auto& p : m_loads)
        if (p.active && p.store && p.answered) p.active = false, --m_loads_active, --m_stores_active;
}

template <class Busy>
core::pending_load& core::claim_slot(std::uint64_t line, const Busy& busy) {
    sync();
    if (m_loads_active != 0)
        for (const auto& p : m_loads)
            if (p.active && p.line == line) wait_answered(p);  // one access per line in flight
    retire_stores();  // frees slots, and store-buffer entries for busy()
    while (busy() || in_flight(false) >= memory_system::max_outstanding) {
        event_queue::wait(m_mem_done);
        retire_stores();
    }
    auto it = std::find_if(m_loads.begin(), m_loads.end(), [](const auto& p) { return !p.active; });
    if (it == m_loads.end()) throw std::logic_error("core " + m_id + ": more than 32 loads waiting to be used");
    sync();  // waiting above may have taken an interrupt
    *it = pending_load{true, false, line, {}, false};
    ++m_loads_active;
    return *it;
}

int core::forward_from_store(std::uint64_t addr, unsigned size) {
    if (m_stores_active == 0) return -1;
    retire_stores();
    const auto st = std::find_if(m_loads.begin(), m_loads.end(), [&](const auto& p) {
        return p.active && p.store && p.addr <= addr && addr + size <= p.addr + p.size;
    });
    const auto slot = std::find_if(m_loads.begin(), m_loads.end(), [](const auto& p) { return !p.active; });
    if (st == m_loads.end() || slot == m_loads.end()) return -1;
    const unsigned shift = static_cast<unsigned>(8 * (addr - st->addr));
    const std::uint64_t bytes = st->value >> shift;
    mem_response r;
    r.value = size >= 8 ? bytes : bytes & ((std::uint64_t{1} << (8 * size)) - 1);
    r.done = m_clock.edge_after(local_time(), m_mem->l1_hit_latency(m_agent));
    *slot = pending_load{true, true, addr & ~std::uint64_t{63}, r, false};
    ++m_loads_active;
    ++m_loads_forwarded;
    return static_cast<int>(slot - m_loads.begin());
}

unsigned core::load_async(std::uint64_t addr, unsigned size) {
    if (!m_mem) throw std::logic_error("core " + m_id + " has no memory system");
    if (const int t = forward_from_store(addr, size); t >= 0) return static_cast<unsigned>(t);
    pending_load& p = claim_slot(addr & ~std::uint64_t{63},
                                 [this] { return in_flight(true) >= m_params.outstanding_misses.value_or(1); });
    return issue(p, request(mem_request::load, addr, size));
}

unsigned core::issue(pending_load& p, const mem_request& r) {
    const unsigned slot = static_cast<unsigned>(&p - m_loads.data());
    m_mem->access(m_agent, r, [this, slot](const mem_response& resp) {
        m_loads[slot].resp = resp;
        m_loads[slot].answered = true;
        m_queue.notify(m_mem_done);
    });
    return slot;
}

void core::store_buffered(std::uint64_t addr, std::uint64_t value, unsigned size) {
    if (!m_mem) throw std::logic_error("core " + m_id + " has no memory system");
    bool waited = false;
    pending_load& p = claim_slot(addr & ~std::uint64_t{63}, [this, &waited] {
        const bool full = m_stores_active >= m_params.store_buffer;
        waited |= full;
        return full;
    });
    m_store_buffer_full += waited;
    ++m_stores_buffered;
    p.store = true, p.addr = addr, p.value = value, p.size = size;
    ++m_stores_active;
    issue(p, request(mem_request::store, addr, size, value));
}

std::uint64_t core::load_result(unsigned ticket) {
    pending_load& p = m_loads.at(ticket);
    if (!p.active) throw std::logic_error("core " + m_id + ": load ticket redeemed twice");
    wait_answered(p);
    if (p.resp.done.fs > local_time().fs) set_local_time(p.resp.done);
    p.active = false;
    --m_loads_active;
    return p.resp.value;
}

void core::drain_loads() {
    if (m_loads_active == 0) return;
    for (const auto& p : m_loads) {
        if (!p.active) continue;
        wait_answered(p);
        if (p.resp.done.fs > local_time().fs) set_local_time(p.resp.done);
    }
    retire_stores();  // buffered stores are done too
}

std::uint64_t core::load(std::uint64_t addr, unsigned size) { return access(request(mem_request::load, addr, size)).value; }

void core::store(std::uint64_t addr, std::uint64_t value, unsigned size, bool release) {
    if (!buffers_stores()) {
        access(request(mem_request::store, addr, size, value));
        return;
    }
    if (release) drain_loads();  // every earlier load and store performs first
    store_buffered(addr, value, size);
}

std::uint64_t core::load_exclusive(std::uint64_t addr, unsigned size) {
    return access(request(mem_request::load_exclusive, addr, size)).value;
}

bool core::store_exclusive(std::uint64_t addr, std::uint64_t value, unsigned size) {
    return access(request(mem_request::store_exclusive, addr, size, value)).success;
}

std::uint64_t core::atomic(atomic_op op, std::uint64_t addr, std::uint64_t operand, unsigned size,
                           std::uint64_t compare) {
    mem_request r = request(mem_request::atomic, addr, size, operand);
    r.op = op, r.compare = compare;
    return access(r).value;
}

std::pair<std::uint64_t, std::uint64_t> core::load_exclusive_pair(std::uint64_t addr) {
    const mem_response r = access(request(mem_request::load_exclusive, addr, 16));
    return {r.value, r.value_hi};
}

bool core::store_exclusive_pair(std::uint64_t addr, std::uint64_t lo, std::uint64_t hi) {
    mem_request r = request(mem_request::store_exclusive, addr, 16, lo);
    r.value_hi = hi;
    return access(r).success;
}

std::pair<std::uint64_t, std::uint64_t> core::cas_pair(std::uint64_t addr, std::pair<std::uint64_t, std::uint64_t> compare,
                                                        std::pair<std::uint64_t, std::uint64_t> value) {
    mem_request r = request(mem_request::atomic, addr, 16, value.first);
    r.op = atomic_op::cas, r.compare = compare.first, r.compare_hi = compare.second, r.value_hi = value.second;
    const mem_response out = access(r);
    return {out.value, out.value_hi};
}

void core::prefetch_store(std::uint64_t addr) { access(request(mem_request::prefetch_unique, addr, 8)); }

void core::zero_line(std::uint64_t addr) { access(request(mem_request::zero_line, line_of(addr), line_bytes)); }

void core::barrier() {
    drain_loads();
    work(m_params.barrier_latency);
}

void core::clrex() {
    drain_loads();
    sync();
    if (m_mem) m_mem->clear_exclusive(m_agent);
}

void core::sev() {
    sync();
    if (m_obs.trace) m_obs.trace->instant(timeline_observer::group::cores, m_id + " memory", "SEV", kernel::now());
    if (m_all)
        for (core* c : *m_all) c->signal_event(wake_reason::sev);
}

void core::wfe() {
    sync();
    ++m_wfe_executed;
    if (m_event_register) {
        m_event_register = false;
        return;
    }
    ++m_wfe_sleeps;
    m_asleep = true;
    m_sleep_start = kernel::now();
    event_queue::wait(m_wake);
    m_last_wake = kernel::now();
    if (m_obs.trace) {
        m_obs.trace->slice(timeline_observer::group::cores, m_id + " memory", "asleep (WFE)", m_sleep_start, kernel::now());
        m_obs.trace->instant(timeline_observer::group::cores, m_id + " memory", std::string("woken: ") + m_wake_why, kernel::now());
    }
    m_asleep_total.fs += kernel::now().fs - m_sleep_start.fs;
    m_asleep = false;
    m_wake_pending = false;
    m_event_register = false;  // the wake-up event is consumed by this WFE
}

void core::signal_event(wake_reason why) {
    m_event_register = true;
    if (!m_asleep || m_wake_pending) return;
    switch (why) {
        case wake_reason::event_stream: ++m_wake_event_stream, m_wake_why = "event stream"; break;
        case wake_reason::sev: ++m_wake_sev, m_wake_why = "SEV"; break;
        case wake_reason::monitor_cleared: ++m_wake_monitor, m_wake_why = "reservation cleared"; break;
        case wake_reason::interrupt: ++m_wake_interrupt, m_wake_why = "interrupt"; break;
    }
    m_wake_pending = true;
    const duration at = m_clock.edge_after(kernel::now(), m_params.wfe_wake_latency);
    m_queue.at(at, rank(phase::core, m_agent), [this] { m_queue.notify(m_wake); });
}

duration core::time_asleep() const {
    duration d = m_asleep_total;
    if (m_asleep) d.fs += kernel::now().fs - m_sleep_start.fs;
    return d;
}

interrupt_alarm::interrupt_alarm(const sc_core::sc_module_name& name, std::vector<core*> cores)
    : sc_module(name), m_cores(std::move(cores)), m_queue(kernel::queue()) {}

void interrupt_alarm::start_of_simulation() {
    duration first{~std::uint64_t{0}};
    for (core* c : m_cores) first = std::min(first, c->next_interrupt());
    arrival_changed(first);
}

void interrupt_alarm::fire() {
    const duration now = kernel::now();
    duration next{~std::uint64_t{0}};
    for (core* c : m_cores) {
        const duration t = c->next_interrupt();
        if (!(now < t)) {
            if (c->asleep()) c->signal_event(wake_reason::interrupt);  // taken when it runs again
        } else {
            next = std::min(next, t);
        }
    }
    m_armed = {~std::uint64_t{0}};
    arrival_changed(next);
}

void interrupt_alarm::arrival_changed(duration t) {
    if (!(t < m_armed) || t.fs == ~std::uint64_t{0}) return;  // nothing earlier, or nothing to come
    m_armed = t;
    // An earlier arrival supersedes the one armed before: that one's action is stale.
    m_queue.at(t, rank(phase::system, 1), [this, gen = ++m_generation] {
        if (gen == m_generation) fire();
    });
}

}  // namespace cohsim

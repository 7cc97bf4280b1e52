#include "models/core.h"

#include "sim/kernel.h"

namespace cohsim {

const std::vector<std::pair<core_type, const char*>>& cfg::enum_names<core_type>::list() {
    static const std::vector<std::pair<core_type, const char*>> l = {
        {core_type::cortex_a7, "cortex-a7"},   {core_type::cortex_a15, "cortex-a15"},
        {core_type::cortex_a53, "cortex-a53"}, {core_type::cortex_a55, "cortex-a55"},
        {core_type::cortex_a73, "cortex-a73"}, {core_type::cortex_a75, "cortex-a75"},
        {core_type::thunderx2, "thunderx2"}};
    return l;
}

void core_params::describe(cfg::struct_schema<core_params>& s) {
    // The architecture leaves WFE exit latency implementation defined
    // (arm-sync.md section 7.5); a handful of cycles to restart the pipeline
    // is our estimate until a measurement exists.
    s.param("wfe_wake_latency", &core_params::wfe_wake_latency,
            "core cycles from a wake-up event (aligned to the core's clock) to the core running again")
        .def(cycles{10})
        .range(cycles{0}, cycles{1000000});
}

core::core(const sc_core::sc_module_name& name, std::string id, std::string cluster, unsigned index, core_type type,
           const clock_domain& clock, const core_params& params)
    : sc_module(name),
      m_id(std::move(id)),
      m_cluster(std::move(cluster)),
      m_index(index),
      m_type(type),
      m_clock(clock),
      m_params(params),
      m_stats(m_id) {
    SC_THREAD(run);
}

void core::run() {
    kernel::count_event();
    for (;;) wfe();
}

void core::wfe() {
    ++m_wfe_executed;
    if (m_event_register) {
        m_event_register = false;
        return;
    }
    ++m_wfe_sleeps;
    m_asleep = true;
    m_sleep_start = kernel::now();
    wait(m_wake);
    kernel::count_event();
    m_last_wake = kernel::now();
    m_asleep_total.fs += kernel::now().fs - m_sleep_start.fs;
    m_asleep = false;
    m_wake_pending = false;
    m_event_register = false;  // the wake-up event is consumed by this WFE
}

void core::signal_event(wake_reason why) {
    m_event_register = true;
    if (!m_asleep || m_wake_pending) return;
    switch (why) {
        case wake_reason::event_stream: ++m_wake_event_stream; break;
        case wake_reason::sev: ++m_wake_sev; break;
        case wake_reason::monitor_cleared: ++m_wake_monitor; break;
        case wake_reason::interrupt: ++m_wake_interrupt; break;
    }
    m_wake_pending = true;
    const duration t = kernel::now();
    const duration at = m_clock.edge_after(t, m_params.wfe_wake_latency);
    m_wake.notify(kernel::to_sc({at.fs - t.fs}));
}

duration core::time_asleep() const {
    duration d = m_asleep_total;
    if (m_asleep) d.fs += kernel::now().fs - m_sleep_start.fs;
    return d;
}

}  // namespace cohsim

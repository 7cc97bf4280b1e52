#include "models/generic_timer.h"

#include "models/core.h"
#include "sim/kernel.h"

namespace cohsim {

void generic_timer_params::describe(cfg::struct_schema<generic_timer_params>& s) {
    s.param("freq", &generic_timer_params::freq,
            "system counter frequency (CNTFRQ_EL0); docs/sources.md section 8 lists real values")
        .range(frequency{1000}, frequency{10'000'000'000ULL});
    s.param("event_stream", &generic_timer_params::event_stream,
            "event stream enabled (CNTKCTL_EL1.EVNTEN; Linux default CONFIG_ARM_ARCH_TIMER_EVTSTREAM=y)")
        .def(true);
    s.param("evnti", &generic_timer_params::evnti,
            "counter bit whose 0->1 transition fires an event: period = 2^(evnti+1) counter ticks "
            "(Linux <= 5.10 picks 8 at 1.92MHz, 11 at 19.2MHz; arm-sync.md section 3.5); give this or period")
        .def(std::nullopt)
        .range(0u, 15u);
    s.param("period", &generic_timer_params::period, "event-stream period set directly; give this or evnti")
        .def(std::nullopt)
        .range(duration{1'000'000}, duration{fs_per_second});
    s.rule([](const generic_timer_params& t, const cfg::node* n, const std::string& path) {
        if (t.evnti.has_value() == t.period.has_value()) {
            const cfg::node* at = n ? (n->find("period") ? n->find("period") : n) : nullptr;
            throw cfg::config_error(at ? at->loc : cfg::source_loc{}, cfg::join_path(path, t.evnti ? "period" : "evnti"),
                                    t.evnti ? "both evnti and period are given" : "neither evnti nor period is given",
                                    "exactly one of them");
        }
    });
}

generic_timer::generic_timer(const sc_core::sc_module_name& name, const generic_timer_params& params)
    : sc_module(name), m_params(params), m_counter("counter", params.freq) {
    kernel::queue();  // created now, while elaborating
}

void generic_timer::subscribe(core* c) {
    m_cores.push_back(c);
    c->set_counter(&m_counter);
}

void generic_timer::start_of_simulation() {
    if (m_params.event_stream) schedule_next();
}

void generic_timer::schedule_next() {
    kernel::queue().at(event_time(m_next), rank(phase::system, 0), [this] { tick(); });
}

void generic_timer::tick() {
    ++m_ticks;
    if (m_obs.trace) m_obs.trace->instant(timeline_observer::group::system, "event stream", "event-stream tick", kernel::now());
    for (core* c : m_cores) c->signal_event(wake_reason::event_stream);
    ++m_next;
    schedule_next();
}

}  // namespace cohsim

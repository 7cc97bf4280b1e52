// The Arm generic timer's event stream (CNTKCTL_EL1.EVNTEN/EVNTI).
//
// Modelled: one system counter at `timer.freq`, shared by all cores. With the
// stream enabled, an event fires each time counter bit EVNTI toggles from 0
// to 1, i.e. every 2^(EVNTI+1) counter ticks (arm-sync.md section 3.4), on all
// cores at the same instant. Event k fires at counter cycle k * 2^(EVNTI+1),
// converted to time exactly by the counter's clock domain; each core then
// aligns it to its own clock (see core.h).
// The period can also be set directly (`timer.period`), for what-if runs.
// Not modelled: EVNTDIR (1->0 trigger: same period, shifted by half), EVNTIS
// scaling, the timer's compare/interrupt registers.
// Cost: one action of the model's event queue per stream tick, however many
// cores listen.
#pragma once

#include <systemc>

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/clock_domain.h"
#include "sim/event_queue.h"
#include "sim/observer.h"
#include "sim/schema.h"
#include "sim/stats.h"

namespace cohsim {

class core;

struct generic_timer_params {
    frequency freq;
    bool event_stream = true;
    std::optional<std::uint32_t> evnti;
    std::optional<duration> period;  // set directly instead of evnti
    static void describe(cfg::struct_schema<generic_timer_params>& s);
};

class generic_timer : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(generic_timer);
    generic_timer(const sc_core::sc_module_name& name, const generic_timer_params& params);

    // `c` gets the stream's events, and reads the counter (MRS CNTVCT_EL0).
    void subscribe(core* c);
    // Who watches: the timeline (each event-stream tick).
    void observe(const observers& o) { m_obs = o; }

    // Counter ticks between two stream events: 2^(EVNTI+1) (0 when the
    // period is set directly).
    std::uint64_t period_ticks() const { return m_params.evnti ? std::uint64_t{2} << *m_params.evnti : 0; }
    // Time of stream event k (k >= 1).
    duration event_time(std::uint64_t k) const {
        if (m_params.period) return duration{k * m_params.period->fs};
        return m_counter.time_of(k * period_ticks());
    }
    const stat_group& stats() const { return m_stats; }

private:
    void start_of_simulation() override;
    void tick();
    void schedule_next();

    generic_timer_params m_params;
    clock_domain m_counter;
    std::vector<core*> m_cores;
    std::uint64_t m_next = 1;
    observers m_obs;

    stat_group m_stats{"timer"};
    counter m_ticks{m_stats, "event_stream_ticks", "event-stream events broadcast to all cores"};
};

}  // namespace cohsim

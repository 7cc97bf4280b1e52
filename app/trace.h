// A timeline of a run in the Chrome/Perfetto trace-event JSON format (open it
// in ui.perfetto.dev or chrome://tracing).
//
// Tracks (one "thread" each, under one "process" per kind):
//   cores   "CORE"          lock wait and critical section (the program's marks)
//           "CORE memory"   misses (request to data), WFE sleeps; instants for
//                           snoops received, reservations lost, STXR failures,
//                           SEV, wake-ups and their reason
//           "CORE interrupts" tick and random-interrupt handlers
//   lines   "LINE CORE"     the line's state in that core's L1 over time
//   system  "event stream"  the generic timer's event-stream ticks
// Flow arrows join a request leaving a core to the grant arriving at its L1.
//
// The models report through the timeline_observer interface (sim/observer.h).
// Only events inside the window are kept; slices are clipped to it.
//
// Streamed: each event goes to the file as soon as it is complete (a slice at
// its end, a flow arrow once its end is known), so memory stays bounded
// however long the run; the file is a temporary one beside the target until
// finish() renames it (a reader never sees half a trace). Events are in the
// order the run produced them, not sorted by time: trace viewers sort them.
// At most `max_events` events are written; past that the trace stops, and
// otherData says where (`recorded_to_us`, `truncated`).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/files.h"
#include "sim/observer.h"
#include "sim/units.h"

namespace cohsim {

class trace_recorder : public timeline_observer {
public:
    // Records [from, to) of simulated time into `path`; `max_events` bounds
    // the file. Throws std::runtime_error naming the path when it cannot be
    // written (before the run, not after it).
    trace_recorder(const std::string& path, duration from, duration to, std::size_t max_events = 2'000'000);

    // Lines whose L1 states get tracks (line addresses).
    void trace_line(std::uint64_t line) { m_lines.insert(line); }
    bool traces_line(std::uint64_t line) const override { return m_lines.count(line) > 0; }
    const std::set<std::uint64_t>& lines() const { return m_lines; }

    // A slice [t0, t1) on a track.
    void slice(group g, const std::string& track, const std::string& name, duration t0, duration t1) override;
    // A moment on a track.
    void instant(group g, const std::string& track, const std::string& name, duration t) override;
    // Flow arrows: a start inside a slice on one track, the end in a slice on another.
    std::uint64_t flow_start(group g, const std::string& track, duration t) override;
    void flow_end(group g, const std::string& track, duration t, std::uint64_t id) override;

    // L1 state of `line` at `agent` (named `core`) is now `state`: closes the
    // previous state's slice on that line track.
    void line_state(std::uint64_t line, unsigned agent, const std::string& core, const char* state, duration t) override;

    // While the run goes on (at simulated time `now`): once, when the events
    // so far say the window will not fit under the cap, a warning saying
    // about when the trace will stop; else "".
    std::string forecast(duration now);
    // Nothing more can be recorded after `now`: the cap is reached or the
    // window is over (the models may stop reporting; finish() still closes
    // the line states open at the window's end).
    bool over(duration now) const { return m_truncated || !(now < m_to); }
    // Closes every open line slice at `end`, ends the JSON and puts the file in
    // place. Returns a warning when events were dropped, else "".
    std::string finish(duration end);
    std::size_t events() const { return m_written; }

private:
    struct event {
        const char* ph;
        int pid = 0, tid = 0;
        duration ts, dur;
        std::uint64_t id = 0;
    };
    int tid_of(group g, const std::string& track);
    bool keep(duration t0, duration t1) const;
    bool full(duration t_end, std::uint64_t events = 1);  // no room for `events` more: the cap is reached at t_end
    void put(const std::string& name, const event& e);
    void flush();

    atomic_file m_file;  // without finish(), nothing is left behind
    std::string m_buf;  // formatted events not yet written
    bool m_first = true;
    duration m_from, m_to;
    std::size_t m_max, m_written = 0;
    bool m_truncated = false, m_forecast_done = false;
    duration m_truncated_at{};
    std::set<std::uint64_t> m_lines;
    std::map<std::pair<int, std::string>, int> m_tids;
    std::uint64_t m_next_flow = 1;
    struct pending_flow {
        bool kept;
        event start;
    };
    std::map<std::uint64_t, pending_flow> m_flows;  // started, end not yet seen
    struct open_state {
        const char* state = nullptr;  // a protocol state's name (static), null before the first report
        duration since;
        std::string core;
    };
    std::map<std::uint64_t, std::vector<open_state>> m_line_state;  // by line, then agent
};

}  // namespace cohsim

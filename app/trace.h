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
// The models report through the timeline_observer interface (sim/observer.h). Only events inside the window are kept; slices
// are clipped to it.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/observer.h"
#include "sim/units.h"

namespace cohsim {

class trace_recorder : public timeline_observer {
public:
    // Records [from, to) of simulated time; `max_events` bounds the file (a
    // warning says where recording stopped).
    trace_recorder(duration from, duration to, std::size_t max_events = 2'000'000);

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
    void line_state(std::uint64_t line, const std::string& core, const std::string& state, duration t) override;

    // Closes every open line slice at `end` and writes the JSON (atomically).
    // Returns a warning when events were dropped, else "".
    std::string write(const std::string& path, duration end);
    std::size_t events() const { return m_events.size(); }

private:
    struct event {
        std::string name, ph;
        int pid = 0, tid = 0;
        double ts = 0, dur = 0;  // us
        std::uint64_t id = 0;
    };
    int tid_of(group g, const std::string& track);
    bool keep(duration t0, duration t1) const;
    void add(event e);

    duration m_from, m_to;
    std::size_t m_max;
    bool m_truncated = false;
    duration m_truncated_at{};
    std::set<std::uint64_t> m_lines;
    std::map<std::pair<int, std::string>, int> m_tids;
    std::vector<event> m_events;
    std::map<std::uint64_t, bool> m_flow_started;  // id -> its start was kept
    std::uint64_t m_next_flow = 1;
    struct open_state {
        std::string state;
        duration since;
    };
    std::map<std::pair<std::uint64_t, std::string>, open_state> m_line_state;
};



}  // namespace cohsim

#include "app/trace.h"

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/files.h"

namespace cohsim {

using json = nlohmann::ordered_json;


namespace {
double us(duration t) { return static_cast<double>(t.fs) * 1e-9; }
const char* group_name(trace_recorder::group g) {
    switch (g) {
        case trace_recorder::group::cores: return "cores";
        case trace_recorder::group::lines: return "cache lines";
        case trace_recorder::group::system: return "system";
    }
    return "?";
}
}  // namespace

trace_recorder::trace_recorder(duration from, duration to, std::size_t max_events)
    : m_from(from), m_to(to), m_max(max_events) {}

int trace_recorder::tid_of(group g, const std::string& track) {
    const auto key = std::make_pair(static_cast<int>(g) + 1, track);
    auto it = m_tids.find(key);
    if (it != m_tids.end()) return it->second;
    const int tid = static_cast<int>(m_tids.size()) + 1;
    m_tids[key] = tid;
    return tid;
}

bool trace_recorder::keep(duration t0, duration t1) const { return !(t1 < m_from) && t0 < m_to; }

void trace_recorder::add(event e) {
    if (m_events.size() >= m_max) {
        if (!m_truncated) m_truncated = true, m_truncated_at = duration{static_cast<std::uint64_t>(e.ts * 1e9)};
        return;
    }
    m_events.push_back(std::move(e));
}

void trace_recorder::slice(group g, const std::string& track, const std::string& name, duration t0, duration t1) {
    if (t1 < t0 || !keep(t0, t1)) return;
    const duration a = std::max(t0, m_from), b = std::min(t1, m_to);
    add({name, "X", static_cast<int>(g) + 1, tid_of(g, track), us(a), us(b) - us(a), 0});
}

void trace_recorder::instant(group g, const std::string& track, const std::string& name, duration t) {
    if (!keep(t, t)) return;
    add({name, "i", static_cast<int>(g) + 1, tid_of(g, track), us(t), 0, 0});
}

std::uint64_t trace_recorder::flow_start(group g, const std::string& track, duration t) {
    const std::uint64_t id = m_next_flow++;
    m_flow_started[id] = keep(t, t) && m_events.size() < m_max;
    if (m_flow_started[id]) add({"request", "s", static_cast<int>(g) + 1, tid_of(g, track), us(t), 0, id});
    return id;
}

void trace_recorder::flow_end(group g, const std::string& track, duration t, std::uint64_t id) {
    auto it = m_flow_started.find(id);
    if (it == m_flow_started.end()) return;
    // An end outside the trace leaves the flow open: write() drops its start,
    // so the arrows that remain are all paired.
    if (it->second && (!keep(t, t) || m_events.size() >= m_max)) return;
    const bool started = it->second;
    m_flow_started.erase(it);
    if (started) add({"request", "f", static_cast<int>(g) + 1, tid_of(g, track), us(t), 0, id});
}

void trace_recorder::line_state(std::uint64_t line, const std::string& core, const std::string& state, duration t) {
    auto& open = m_line_state[{line, core}];
    if (open.state == state) return;
    if (!open.state.empty() && open.state != "I")
        slice(group::lines, hex(line) + " " + core, open.state, open.since, t);
    open = {state, t};
}

std::string trace_recorder::write(const std::string& path, duration end) {
    for (auto& [key, open] : m_line_state)
        if (!open.state.empty() && open.state != "I")
            slice(group::lines, hex(key.first) + " " + key.second, open.state, open.since, end);
    m_line_state.clear();
    // Flows whose end is not in the trace: drop their starts (one pass).
    m_events.erase(std::remove_if(m_events.begin(), m_events.end(),
                                  [&](const event& e) { return e.ph == "s" && m_flow_started.count(e.id); }),
                   m_events.end());
    m_flow_started.clear();
    std::stable_sort(m_events.begin(), m_events.end(), [](const event& a, const event& b) {
        return a.pid != b.pid ? a.pid < b.pid : a.tid != b.tid ? a.tid < b.tid : a.ts < b.ts;
    });
    json events = json::array();
    for (int g = 1; g <= 3; ++g)
        events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", g}, {"tid", 0},
                          {"args", {{"name", group_name(static_cast<group>(g - 1))}}}});
    for (const auto& [key, tid] : m_tids)
        events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", key.first}, {"tid", tid}, {"args", {{"name", key.second}}}});
    for (const auto& e : m_events) {
        json j = {{"name", e.name}, {"ph", e.ph}, {"pid", e.pid}, {"tid", e.tid}, {"ts", e.ts}};
        if (e.ph == "X") j["dur"] = e.dur;
        if (e.ph == "i") j["s"] = "t";
        if (e.ph == "s" || e.ph == "f") j["id"] = e.id, j["cat"] = "coherence";
        if (e.ph == "f") j["bp"] = "e";
        events.push_back(std::move(j));
    }
    json doc = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"},
                {"otherData", {{"generator", "cohsim"}, {"window_from_us", us(m_from)}, {"window_to_us", us(std::min(m_to, end))}}}};
    write_file_atomic(path, doc.dump() + "\n");
    if (!m_truncated) return "";
    return "the trace stopped at " + std::to_string(m_max) + " events (at " + to_string(m_truncated_at) +
           " simulated); use --trace-window START:END or --trace-lines to keep it smaller";
}

}  // namespace cohsim

#include "app/trace.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <cstdio>

namespace cohsim {

namespace {
const char* group_name(trace_recorder::group g) {
    switch (g) {
        case trace_recorder::group::cores: return "cores";
        case trace_recorder::group::lines: return "cache lines";
        case trace_recorder::group::system: return "system";
    }
    return "?";
}

// Microseconds, the trace format's unit, written exactly from the femtoseconds
// (up to nine decimals, trailing zeros dropped): no rounding, and no
// floating-point formatting on the way.
void append_us(std::string& out, duration t) {
    char buf[40];
    auto r = std::to_chars(buf, buf + 24, t.fs / 1'000'000'000);
    std::uint64_t frac = t.fs % 1'000'000'000;
    if (frac) {
        char* p = r.ptr;
        *p++ = '.';
        int digits = 9;
        while (frac % 10 == 0) frac /= 10, --digits;
        for (int i = digits - 1; i >= 0; --i, frac /= 10) p[i] = static_cast<char>('0' + frac % 10);
        r.ptr = p + digits;
    }
    out.append(buf, r.ptr);
}

void append_int(std::string& out, std::uint64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void append_string(std::string& out, const std::string& s) {
    out += '"';
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c);
            out += esc;
        } else {
            out += c;
        }
    }
    out += '"';
}

}  // namespace

trace_recorder::trace_recorder(const std::string& path, duration from, duration to, std::size_t max_events)
    : m_file(path), m_from(from), m_to(to), m_max(max_events) {
    m_buf = "{\"traceEvents\":[\n";
}

void trace_recorder::flush() {
    m_file.write(m_buf);
    m_buf.clear();
}

int trace_recorder::tid_of(group g, const std::string& track) {
    const auto key = std::make_pair(static_cast<int>(g) + 1, track);
    auto it = m_tids.find(key);
    if (it != m_tids.end()) return it->second;
    const int tid = static_cast<int>(m_tids.size()) + 1;
    m_tids[key] = tid;
    return tid;
}

bool trace_recorder::keep(duration t0, duration t1) const { return !(t1 < m_from) && t0 < m_to; }

// The cap is reached: nothing more is written. Events are written as they
// complete, so the trace holds exactly the events that end before the end
// of the first one dropped, `t_end` (recorded_to_us).
bool trace_recorder::full(duration t_end, std::uint64_t events) {
    if (!m_truncated && m_written + events <= m_max) return false;
    if (!m_truncated) m_truncated = true, m_truncated_at = t_end;
    return true;
}

void trace_recorder::put(const std::string& name, const event& e) {
    if (!m_first) m_buf += ",\n";
    m_first = false;
    m_buf += "{\"name\":";
    append_string(m_buf, name);
    m_buf += ",\"ph\":\"";
    m_buf += e.ph;
    m_buf += "\",\"pid\":";
    append_int(m_buf, static_cast<std::uint64_t>(e.pid));
    m_buf += ",\"tid\":";
    append_int(m_buf, static_cast<std::uint64_t>(e.tid));
    m_buf += ",\"ts\":";
    append_us(m_buf, e.ts);
    const char ph = e.ph[0];
    if (ph == 'X') {
        m_buf += ",\"dur\":";
        append_us(m_buf, e.dur);
    }
    if (ph == 'i') m_buf += ",\"s\":\"t\"";
    if (ph == 's' || ph == 'f') {
        m_buf += ",\"id\":";
        append_int(m_buf, e.id);
        m_buf += ",\"cat\":\"coherence\"";
    }
    if (ph == 'f') m_buf += ",\"bp\":\"e\"";
    m_buf += '}';
    ++m_written;
    if (m_buf.size() > (1u << 20)) flush();
}

void trace_recorder::slice(group g, const std::string& track, const std::string& name, duration t0, duration t1) {
    if (t1 < t0 || !keep(t0, t1) || full(t1)) return;
    const duration a = std::max(t0, m_from), b = std::min(t1, m_to);
    put(name, {"X", static_cast<int>(g) + 1, tid_of(g, track), a, {b.fs - a.fs}, 0});
}

void trace_recorder::instant(group g, const std::string& track, const std::string& name, duration t) {
    if (!keep(t, t) || full(t)) return;
    put(name, {"i", static_cast<int>(g) + 1, tid_of(g, track), t, {}, 0});
}

// A start waits for its end: an arrow whose end falls outside the trace is never written.
std::uint64_t trace_recorder::flow_start(group g, const std::string& track, duration t) {
    const std::uint64_t id = m_next_flow++;
    const bool kept = keep(t, t);
    m_flows[id] = {kept, {"s", static_cast<int>(g) + 1, kept ? tid_of(g, track) : 0, t, {}, id}};
    return id;
}

void trace_recorder::flow_end(group g, const std::string& track, duration t, std::uint64_t id) {
    auto it = m_flows.find(id);
    if (it == m_flows.end()) return;
    const pending_flow f = it->second;
    m_flows.erase(it);
    if (!f.kept || !keep(t, t) || full(t, 2)) return;
    put("request", f.start);
    put("request", {"f", static_cast<int>(g) + 1, tid_of(g, track), t, {}, id});
}

void trace_recorder::line_state(std::uint64_t line, unsigned agent, const std::string& core, const char* state, duration t) {
    std::vector<open_state>& cores = m_line_state[line];
    if (cores.size() <= agent) cores.resize(agent + 1);
    open_state& open = cores[agent];
    if (open.state && std::strcmp(open.state, state) == 0) return;
    if (open.state && std::strcmp(open.state, "I") != 0)
        slice(group::lines, hex(line) + " " + core, open.state, open.since, t);
    open.state = state;
    open.since = t;
    if (open.core.empty()) open.core = core;
}

std::string trace_recorder::forecast(duration now) {
    if (m_forecast_done || m_truncated || now.fs <= m_from.fs) return "";
    const duration to = m_to;
    if (m_written < std::max<std::size_t>(m_max / 100, 1000)) return "";  // too few to say
    m_forecast_done = true;
    const double rate = static_cast<double>(m_written) / static_cast<double>(std::min(now, to).fs - m_from.fs);
    const double projected = rate * static_cast<double>(to.fs - m_from.fs);
    if (projected <= static_cast<double>(m_max)) return "";
    const duration stop{m_from.fs + static_cast<std::uint64_t>(static_cast<double>(m_max) / rate)};
    return "the trace will hold about " + std::to_string(static_cast<std::uint64_t>(projected)) + " events, over its cap of " +
           std::to_string(m_max) + ": it will stop at about " + to_string(stop) +
           " simulated; use --trace-window START:END or --trace-lines to keep it smaller";
}

std::string trace_recorder::finish(duration end) {
    for (auto& [line, cores] : m_line_state)
        for (const open_state& open : cores)
            if (open.state && std::strcmp(open.state, "I") != 0)
                slice(group::lines, hex(line) + " " + open.core, open.state, open.since, end);
    m_line_state.clear();
    m_flows.clear();  // arrows whose end never came
    auto meta = [&](const char* what, int pid, int tid, const std::string& name) {
        if (!m_first) m_buf += ",\n";
        m_first = false;
        m_buf += std::string("{\"name\":\"") + what + "\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
                 ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"name\":";
        append_string(m_buf, name);
        m_buf += "}}";
    };
    for (int g = 1; g <= 3; ++g) meta("process_name", g, 0, group_name(static_cast<group>(g - 1)));
    for (const auto& [key, tid] : m_tids) meta("thread_name", key.first, tid, key.second);
    const duration recorded_to = m_truncated ? m_truncated_at : std::min(m_to, end);
    m_buf += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"cohsim\",\"window_from_us\":";
    append_us(m_buf, m_from);
    m_buf += ",\"window_to_us\":";
    append_us(m_buf, std::min(m_to, end));
    m_buf += ",\"recorded_to_us\":";
    append_us(m_buf, std::max(m_from, recorded_to));
    m_buf += ",\"events\":" + std::to_string(m_written) + ",\"event_cap\":" + std::to_string(m_max) +
             ",\"truncated\":" + (m_truncated ? "true" : "false") + "}}\n";
    flush();
    m_file.commit();
    if (!m_truncated) return "";
    return "the trace stopped at " + std::to_string(m_max) + " events (at " + to_string(m_truncated_at) +
           " simulated; otherData.recorded_to_us says so); use --trace-window START:END or --trace-lines to keep it smaller";
}

}  // namespace cohsim

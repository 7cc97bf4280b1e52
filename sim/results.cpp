#include "sim/results.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "sim/text_table.h"

namespace cohsim {

json to_json(const cfg::node& n) {
    switch (n.k) {
        case cfg::node::kind::null: return nullptr;
        case cfg::node::kind::scalar:
            if (n.s == cfg::node::style::boolean) return n.text == "true";
            if (n.s == cfg::node::style::number) return std::stoull(n.text);
            return n.text;
        case cfg::node::kind::seq: {
            json a = json::array();
            for (const auto& i : n.items) a.push_back(to_json(i));
            return a;
        }
        case cfg::node::kind::map: {
            json o = json::object();
            for (const auto& [k, v] : n.entries) o[k] = to_json(v);
            return o;
        }
    }
    return nullptr;
}

namespace {

struct json_stats : stat_visitor {
    json& out;
    explicit json_stats(json& o) : out(o) {}
    void counter(const std::string& name, const std::string&, std::uint64_t value) override { out[name] = value; }
};

struct stat_names : stat_visitor {
    std::vector<std::string> names;
    std::vector<std::uint64_t> values;
    void counter(const std::string& name, const std::string&, std::uint64_t value) override {
        names.push_back(name);
        values.push_back(value);
    }
};

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string si(double v) {
    const char* suffix[] = {"", "k", "M", "G", "T"};
    int i = 0;
    while (v >= 1000 && i < 4) v /= 1000, ++i;
    return fixed(v, v < 10 && i ? 2 : (v < 100 && i ? 1 : 0)) + suffix[i];
}

}  // namespace

json make_result(const system_model& sys, const run_outcome& run, const std::string& config_source) {
    const auto& cfg = sys.config();
    json j;
    j["cohsim_version"] = version;
    j["config_source"] = config_source;
    j["description"] = cfg.description;
    j["seed"] = cfg.run.seed;
    j["completed"] = run.completed;
    j["simulated_ns"] = run.simulated.ns();
    j["host_seconds"] = run.host_seconds;
    j["sim_events"] = run.events;
    j["config"] = to_json(effective_config(cfg));
    json cores = json::array();
    for (const auto& c : sys.cores()) {
        json o;
        o["id"] = c->id();
        o["cluster"] = c->cluster();
        o["index"] = c->index();
        o["type"] = cfg::value_traits<core_type>::format(c->type());
        o["freq_mhz"] = static_cast<double>(c->clock().freq().hz) / 1e6;
        o["asleep_fraction"] =
            run.simulated.fs ? static_cast<double>(c->time_asleep().fs) / static_cast<double>(run.simulated.fs) : 0.0;
        json_stats v(o);
        c->stats().accept(v);
        cores.push_back(std::move(o));
    }
    j["cores"] = std::move(cores);
    json comps;
    json timer;
    timer["event_stream_period_ns"] = sys.timer().event_time(1).ns();
    json_stats tv(timer);
    sys.timer().stats().accept(tv);
    comps[sys.timer().stats().name()] = std::move(timer);
    j["components"] = std::move(comps);
    return j;
}

std::string format_table(const system_model& sys, const run_outcome& run) {
    const auto& cfg = sys.config();
    std::ostringstream os;
    os << "cohsim " << version;
    if (!cfg.description.empty()) os << ": " << cfg.description;
    os << "\n";
    const double speed = run.host_seconds > 0 ? run.simulated.seconds() / run.host_seconds : 0;
    os << "simulated " << to_string(run.simulated) << (run.completed ? "" : " (INTERRUPTED before the end)") << " in "
       << fixed(run.host_seconds, 3) << " s host (" << si(speed) << " simulated s per host s), " << run.events
       << " events (" << si(run.host_seconds > 0 ? run.events / run.host_seconds : 0) << "/s)\n\n";

    text_table t;
    std::vector<std::string> header = {"core", "type", "freq", "asleep"};
    stat_names first;
    if (!sys.cores().empty()) sys.cores().front()->stats().accept(first);
    for (const auto& n : first.names) header.push_back(n);
    t.header(header);
    for (const auto& c : sys.cores()) {
        stat_names s;
        c->stats().accept(s);
        std::vector<std::string> row = {
            c->id(), cfg::value_traits<core_type>::format(c->type()), to_string(c->clock().freq()),
            fixed(run.simulated.fs ? 100.0 * c->time_asleep().fs / run.simulated.fs : 0.0, 1) + "%"};
        for (auto v : s.values) row.push_back(std::to_string(v));
        t.row(row);
    }
    os << t.str();
    stat_names ts;
    sys.timer().stats().accept(ts);
    os << "\ntimer: event stream every " << to_string(sys.timer().event_time(1));
    for (std::size_t i = 0; i < ts.names.size(); ++i) os << ", " << ts.names[i] << " " << ts.values[i];
    os << "\n";
    return os.str();
}

void write_file_atomic(const std::string& path, const std::string& content) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    auto fail = [&](const std::string& what) {
        throw std::runtime_error(path + ": cannot write: " + what + ": " + std::strerror(errno));
    };
    const int fd = mkstemp(tmpl.data());
    if (fd < 0) fail("cannot create a temporary file in " + dir.string());
    std::size_t off = 0;
    while (off < content.size()) {
        const ssize_t n = ::write(fd, content.data() + off, content.size() - off);
        if (n < 0) {
            if (errno == EINTR) continue;
            ::close(fd);
            ::unlink(tmpl.c_str());
            fail("write failed");
        }
        off += static_cast<std::size_t>(n);
    }
    fchmod(fd, 0644);
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        ::unlink(tmpl.c_str());
        fail("flush failed");
    }
    if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
        ::unlink(tmpl.c_str());
        fail("rename failed");
    }
}

}  // namespace cohsim

#include "sim/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <systemc>

#include <cstdio>
#include <string>

#include "sim/kernel.h"
#include "sim/units.h"

namespace cohsim::log {
namespace {

bool g_progress_drawn = false;

// "%S": the model's simulated time, seven significant digits in the largest
// unit that keeps it at least 1, e.g. "266.6719 us".
class sim_time_flag : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg&, const std::tm&, spdlog::memory_buf_t& dest) override {
        const std::string t = time_text(kernel::now().ns(), 7);
        dest.append(t.data(), t.data() + t.size());
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<sim_time_flag>(); }
};

// "%E": erases a progress line drawn on the terminal, so that the message
// starts a line of its own (the progress is drawn again below it).
class erase_progress_flag : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg&, const std::tm&, spdlog::memory_buf_t& dest) override {
        if (!g_progress_drawn) return;
        static const char erase[] = "\r\033[K";
        dest.append(erase, erase + sizeof erase - 1);
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<erase_progress_flag>(); }
};

void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
    using namespace sc_core;
    if (actions & (SC_DISPLAY | SC_LOG)) {
        const char* origin = rep.get_msg_type();
        switch (rep.get_severity()) {
            case SC_INFO: spdlog::debug("systemc: {}: {}", origin, rep.get_msg()); break;
            case SC_WARNING: spdlog::warn("systemc: {}: {}", origin, rep.get_msg()); break;
            case SC_ERROR: spdlog::error("systemc: {}: {}", origin, rep.get_msg()); break;
            default: spdlog::critical("systemc: {}: {}", origin, rep.get_msg()); break;
        }
    }
    if (actions & SC_STOP) sc_stop();
    if (actions & SC_ABORT) std::abort();
    if (actions & SC_THROW) throw rep;
}

}  // namespace

std::unique_ptr<spdlog::formatter> formatter() {
    auto fmt = std::make_unique<spdlog::pattern_formatter>();
    fmt->add_flag<sim_time_flag>('S').add_flag<erase_progress_flag>('E').set_pattern("%E[%S] [%^%l%$] %v");
    return fmt;
}

void init(verbosity v) {
    auto logger = spdlog::get("cohsim");
    if (!logger) logger = spdlog::stderr_color_mt("cohsim");
    logger->set_formatter(formatter());
    switch (v) {
        case verbosity::quiet: logger->set_level(spdlog::level::err); break;
        case verbosity::normal: logger->set_level(spdlog::level::info); break;
        case verbosity::verbose: logger->set_level(spdlog::level::trace); break;
    }
    spdlog::set_default_logger(logger);
    sc_core::sc_report_handler::set_handler(&report_handler);
}

void progress_drawn(bool drawn) { g_progress_drawn = drawn; }

}  // namespace cohsim::log

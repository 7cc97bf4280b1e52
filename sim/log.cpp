#include "sim/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <systemc>

#include <cstdio>

namespace cohsim::log {
namespace {

// "%S": simulated time in ns with fs precision, e.g. "   266671.875000".
class sim_time_flag : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg&, const std::tm&, spdlog::memory_buf_t& dest) override {
        const auto fs = sc_core::sc_time_stamp().value();
        char buf[48];
        const int n = std::snprintf(buf, sizeof buf, "%12llu.%06llu ns", static_cast<unsigned long long>(fs / 1000000),
                                    static_cast<unsigned long long>(fs % 1000000));
        dest.append(buf, buf + n);
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<sim_time_flag>(); }
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
    fmt->add_flag<sim_time_flag>('S').set_pattern("[%S] [%^%l%$] %v");
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

}  // namespace cohsim::log

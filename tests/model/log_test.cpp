// Logging: simulated time on every line, SystemC reports routed into spdlog.
#include <gtest/gtest.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>

#include "sim/kernel.h"
#include "sim/log.h"
#include "sc_reports.h"

using namespace cohsim;

namespace {
std::ostringstream& capture() {
    static std::ostringstream os;
    log::init(log::verbosity::normal);
    auto logger = spdlog::default_logger();
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(os);
    sink->set_formatter(log::formatter());
    logger->sinks().push_back(sink);
    return os;
}

struct idle : sc_core::sc_module {
    explicit idle(const sc_core::sc_module_name& n) : sc_module(n) {}
};
}  // namespace

TEST(Log, EveryLineCarriesSimulatedTime) {
    kernel::init();
    auto& os = capture();
    idle m("idle");
    kernel::run(duration{266'671'875'000ULL});
    spdlog::info("hello");
    // 266671.875 ns = 266.671875 us, to seven significant digits.
    EXPECT_NE(os.str().find("[266.6719 us] [info] hello"), std::string::npos) << os.str();
}

TEST(Log, SystemcReportsGoThroughTheSameLogger) {
    kernel::init();
    expected_systemc_reports(2);
    auto& os = capture();
    SC_REPORT_WARNING("cohsim/test", "a warning from SystemC");
    EXPECT_NE(os.str().find("[warning] systemc: cohsim/test: a warning from SystemC"), std::string::npos) << os.str();
    EXPECT_THROW(SC_REPORT_ERROR("cohsim/test", "an error"), sc_core::sc_report);
    EXPECT_NE(os.str().find("[error] systemc: cohsim/test: an error"), std::string::npos) << os.str();
}

TEST(Log, AMessageErasesAProgressLineFirst) {
    auto& os = capture();
    log::progress_drawn(true);
    spdlog::warn("after the progress");
    log::progress_drawn(false);
    spdlog::warn("alone");
    EXPECT_NE(os.str().find("\r\033[K["), std::string::npos) << os.str();
    EXPECT_EQ(os.str().find("\r\033[K[", os.str().find("after the progress")), std::string::npos) << os.str();
}

TEST(Log, QuietDropsInfo) {
    auto& os = capture();
    log::init(log::verbosity::quiet);
    spdlog::info("not shown");
    spdlog::error("shown");
    EXPECT_EQ(os.str().find("not shown"), std::string::npos);
    EXPECT_NE(os.str().find("shown"), std::string::npos);
}

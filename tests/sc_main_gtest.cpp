// Test binaries link SystemC, whose library defines main() and calls sc_main.
//
// Every test also fails when SystemC reported a warning or an error while it
// ran (however the report was handled: logged, thrown or ignored), so that a
// model that misuses the kernel cannot pass unnoticed. A test that provokes
// such a report on purpose says how many with `expected_systemc_reports(N)`
// (tests/sc_reports.h).
#include <gtest/gtest.h>

#include <systemc>

#include "sc_reports.h"

namespace {

int g_expected = 0;

int reports_so_far() {
    using namespace sc_core;
    return sc_report_handler::get_count(SC_WARNING) + sc_report_handler::get_count(SC_ERROR) +
           sc_report_handler::get_count(SC_FATAL);
}

class systemc_report_check : public ::testing::EmptyTestEventListener {
    int m_before = 0;
    void OnTestStart(const ::testing::TestInfo&) override {
        m_before = reports_so_far();
        g_expected = 0;
    }
    void OnTestEnd(const ::testing::TestInfo&) override {
        EXPECT_EQ(reports_so_far() - m_before, g_expected)
            << "SystemC reported warnings or errors during this test (see its log); a test that provokes them on "
               "purpose declares how many with expected_systemc_reports(N)";
    }
};

}  // namespace

void expected_systemc_reports(int n) { g_expected = n; }

int sc_main(int argc, char* argv[]) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::UnitTest::GetInstance()->listeners().Append(new systemc_report_check);
    return RUN_ALL_TESTS();
}

// `cohsim sweep`: SPEC parsing and the grid, against values worked out here.
#include <gtest/gtest.h>

#include "app/cli.h"
#include "app/sweep.h"

using namespace cohsim;

namespace {
std::vector<std::string> values(const std::string& arg) { return parse_vary(arg).values; }

std::string error_of(const std::string& arg) {
    try {
        parse_vary(arg);
    } catch (const usage_error& e) {
        return e.what();
    }
    return "(no error)";
}
}  // namespace

TEST(SweepSpec, Lists) {
    const auto a = parse_vary("workload.threads.1.cpu_relax=yield,wfe_backoff");
    EXPECT_EQ(a.path, "workload.threads.1.cpu_relax");
    EXPECT_EQ(a.values, (std::vector<std::string>{"yield", "wfe_backoff"}));
    EXPECT_EQ(values("run.seed=7"), (std::vector<std::string>{"7"}));
    // A YAML flow value with colons is not a range.
    EXPECT_EQ(values("workload.threads=[{core: little.0}, {core: big.0}],[{core: big.1}]"),
              (std::vector<std::string>{"[{core: little.0}, {core: big.0}]", "[{core: big.1}]"}));
}

TEST(SweepSpec, RangesWithUnits) {
    // 300 MHz to 2 GHz by 100 MHz: 18 values, both ends included.
    const auto f = values("clusters.little.freq=300MHz:2GHz:100MHz");
    ASSERT_EQ(f.size(), 18u);
    EXPECT_EQ(f.front(), "300MHz");
    EXPECT_EQ(f[7], "1GHz");
    EXPECT_EQ(f.back(), "2GHz");
    // The end is kept only when a step lands on it: 1, 4, 7 us.
    EXPECT_EQ(values("run.duration=1us:8us:3us"), (std::vector<std::string>{"1us", "4us", "7us"}));
    EXPECT_EQ(values("clusters.little.l1.size=16KiB:64KiB:16KiB"),
              (std::vector<std::string>{"16KiB", "32KiB", "48KiB", "64KiB"}));
    EXPECT_EQ(values("workload.threads.0.outside=0cycles:300cycles:100cycles"),
              (std::vector<std::string>{"0cycles", "100cycles", "200cycles", "300cycles"}));
    EXPECT_EQ(values("run.seed=1:5:2"), (std::vector<std::string>{"1", "3", "5"}));
    EXPECT_EQ(values("x=0.5:1.5:0.25"), (std::vector<std::string>{"0.5", "0.75", "1", "1.25", "1.5"}));
}

TEST(SweepSpec, MultiplicativeRanges) {
    EXPECT_EQ(values("run.duration=1us:1ms:x10"), (std::vector<std::string>{"1us", "10us", "100us", "1ms"}));
    EXPECT_EQ(values("run.seed=1:16:x2"), (std::vector<std::string>{"1", "2", "4", "8", "16"}));
}

TEST(SweepSpec, BadSpecsSayWhatIsWrong) {
    auto has = [](const std::string& e, const std::string& part) {
        EXPECT_NE(e.find(part), std::string::npos) << e << "\nexpected: " << part;
        EXPECT_NE(e.find("expected PATH=LIST"), std::string::npos) << e;  // and shows good specs
    };
    has(error_of("novalue"), "no PATH=SPEC");
    has(error_of("a="), "no values after '='");
    has(error_of("a=1,,2"), "an empty value in the list");
    has(error_of("a=1:2"), "a range has three parts");
    has(error_of("a=2GHz:1GHz:100MHz"), "the range starts above its end");
    has(error_of("a=1GHz:2GHz:0MHz"), "the step must be above 0");
    has(error_of("a=1GHz:2GHz:1us"), "the range starts with a frequency but");
    has(error_of("a=1us:1ms:x1"), "the factor must be above 1");
    has(error_of("a=fast:slow:1"), "is neither a number nor a quantity");
    has(error_of("a=1Hz:2GHz:1Hz"), "more than 10000 values");
}

TEST(SweepGrid, GridAndZip) {
    const std::vector<sweep_axis> axes = {{"a", {"1", "2"}}, {"b", {"x", "y", "z"}}};
    const auto g = sweep_points(axes, false);
    ASSERT_EQ(g.size(), 6u);  // the first axis outermost
    EXPECT_EQ(g[0], (std::vector<std::string>{"1", "x"}));
    EXPECT_EQ(g[2], (std::vector<std::string>{"1", "z"}));
    EXPECT_EQ(g[3], (std::vector<std::string>{"2", "x"}));
    const std::vector<sweep_axis> same = {{"a", {"1", "2"}}, {"b", {"x", "y"}}};
    const auto z = sweep_points(same, true);
    ASSERT_EQ(z.size(), 2u);
    EXPECT_EQ(z[1], (std::vector<std::string>{"2", "y"}));
    EXPECT_THROW(sweep_points(axes, true), usage_error);  // 2 and 3 values cannot pair
}

TEST(Sweep, CsvSplitReadsQuotedFieldsAsWritten) {
    EXPECT_EQ(csv_split("a,\"b,c\",\"d\"\"e\","), (std::vector<std::string>{"a", "b,c", "d\"e", ""}));
    EXPECT_EQ(csv_split(""), (std::vector<std::string>{""}));
    EXPECT_EQ(csv_split("point,workload.threads=[{core: big.0}]"), (std::vector<std::string>{"point", "workload.threads=[{core: big.0}]"}));
}

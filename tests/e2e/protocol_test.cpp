// End-to-end, `cohsim protocol`: the protocol's tables with a run's counts.
#include "e2e/cli_fixture.h"

TEST_F(Cli, ProtocolTableWithARunsCounts) {
    const auto t = run({"protocol"});
    ASSERT_EQ(t.status, 0) << t.err;
    EXPECT_NE(t.out.find("| state | Load | Store |"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("| I | IS_D: send GetS | IM_D: send GetM |"), std::string::npos) << t.out;
    // --table NAME: that table alone, the same rows, no headings.
    const auto home = run({"protocol", "--table", "home"});
    ASSERT_EQ(home.status, 0) << home.err;
    EXPECT_EQ(home.out.rfind("| state | GetS | GetM |", 0), 0u) << home.out;
    EXPECT_EQ(home.out.find("| state | Load |"), std::string::npos);
    EXPECT_EQ(home.out.find("#"), std::string::npos);
    EXPECT_NE(t.out.find(home.out), std::string::npos);
    expect_bad({"protocol", "--table", "bogus"}, "--table bogus: no such table (expected cache, home or transactions)");
    expect_bad({"protocol", "--counts", "nothing.json"}, "--counts nothing.json: no such file");
    ASSERT_EQ(run({"run", "--duration", "1ms", "-q"}).status, 0);
    const json j = read_json("cohsim-out/result.json");
    const std::uint64_t gets = j["protocol_transitions"]["cache"]["I"]["Load"].get<std::uint64_t>();
    EXPECT_GT(gets, 100u);  // the little core's reads of the lock line
    const auto c = run({"protocol", "--counts", "cohsim-out/result.json"});
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_NE(c.out.find("| I | IS_D: send GetS ×" + std::to_string(gets) + " |"), std::string::npos) << c.out;
}

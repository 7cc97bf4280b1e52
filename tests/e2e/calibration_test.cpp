// The full calibration: `cohsim validate` with 20 s of simulated time per
// big.LITTLE case (several minutes of host time each). Label "soak" (run with
// COHSIM_SOAK=1); docs/guide/calibration.md shows its table. It checks the model's
// figures, not memory safety, so the sanitizer build skips it (it would take
// hours there).
//
// One row is a known gap of the model (docs/guide/calibration.md): the WFE
// back-off case's longest little wait, 6 ms against 38-784 ms measured.
// Every other row must pass, and that one must still be the only miss: when
// it passes, take it off the list.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

TEST(Calibration, ValidateFull) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "the full calibration runs in the release build";
#endif
    const auto dir = std::filesystem::temp_directory_path() / ("cohsim_calibration_" + std::to_string(::getpid()));
    const std::string cmd = std::string(COHSIM_BINARY) + " validate --out " + dir.string();
    const int st = std::system(cmd.c_str());
    EXPECT_TRUE(std::filesystem::exists(dir / "validate.json"));
    EXPECT_TRUE(WIFEXITED(st));
    // Every row passes but those cases.yaml marks known_miss, which must still miss (else the mark goes).
    std::ifstream in(dir / "validate.json");
    const auto v = nlohmann::json::parse(in);
    std::size_t rows = 0, known = 0;
    for (const auto& c : v["checks"]) {
        ++rows;
        const std::string row = c["case"].get<std::string>() + " " + c["check"].get<std::string>();
        if (c.contains("known_miss")) {
            ++known;
            EXPECT_EQ(c["result"], "KNOWN MISS") << row << " passes now: take its known_miss off in cases.yaml";
        } else {
            EXPECT_EQ(c["result"], "PASS") << row << ": " << c["simulated"] << " against " << c["measured"] << " ("
                                           << c["tolerance"] << ")";
        }
    }
    EXPECT_EQ(rows, 12u);
    EXPECT_EQ(known, 1u);  // the WFE case's longest wait
    EXPECT_EQ(WEXITSTATUS(st), 0) << "validate exits 0: every check passes or is a known miss";
}

// The full calibration: `cohsim validate` with 20 s of simulated time per
// big.LITTLE case (several minutes of host time each). Label "soak" (run with
// COHSIM_SOAK=1); docs/guide/calibration.md shows its table. It checks the model's
// figures, not memory safety, so the sanitizer build skips it (it would take
// hours there).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

TEST(Calibration, ValidateFull) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "the full calibration runs in the release build";
#endif
    const auto dir = std::filesystem::temp_directory_path() / ("cohsim_calibration_" + std::to_string(::getpid()));
    const std::string cmd = std::string(COHSIM_BINARY) + " validate --out " + dir.string();
    const int st = std::system(cmd.c_str());
    EXPECT_TRUE(std::filesystem::exists(dir / "validate.json"));
    EXPECT_TRUE(WIFEXITED(st));
    EXPECT_EQ(WEXITSTATUS(st), 0) << "some calibration checks failed: see the table above";
}

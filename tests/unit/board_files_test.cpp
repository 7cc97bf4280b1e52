// Reading a real board's measurements as its tools write them
// (app/board_files.h): files written by hand in each format.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "app/board_files.h"
#include "app/options.h"

using namespace cohsim;

namespace {

// The files a test wrote, removed when its process ends (each test runs in
// its own).
struct scratch_files {
    std::vector<std::filesystem::path> paths;
    ~scratch_files() {
        std::error_code ec;
        for (const auto& p : paths) std::filesystem::remove(p, ec);
    }
} written;

std::string file_with(const std::string& name, const std::string& text) {
    const auto p = std::filesystem::temp_directory_path() / ("cohsim-board-" + std::to_string(::getpid()) + "-" + name);
    std::ofstream(p) << text;
    written.paths.push_back(p);
    return p.string();
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const usage_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(BoardFiles, ReadsCoreToCoreLatencysLowerTriangle) {
    // As `core-to-core-latency --csv` writes it: row i holds CPU i's one-way
    // ns to CPUs 0..i-1, the rest of the row empty (row 0 all empty).
    const board_matrix m = read_board_matrix(file_with("c2c.csv", ",,,\n41.6,,,\n42.4,42.0,,\n42.0,42.4,40.4,\n"));
    EXPECT_EQ(m.format, "core-to-core-latency CSV");
    ASSERT_EQ(m.cpus(), 4u);
    EXPECT_DOUBLE_EQ(m.ns[1][0], 41.6);
    EXPECT_DOUBLE_EQ(m.ns[0][1], 41.6);  // the same pair
    EXPECT_DOUBLE_EQ(m.ns[3][2], 40.4);
    EXPECT_DOUBLE_EQ(m.ns[2][3], 40.4);
    EXPECT_LT(m.ns[2][2], 0);  // no figure for a CPU with itself
    // A full matrix: each pair the mean of its two directions.
    const board_matrix f = read_board_matrix(file_with("full.csv", ",10,20\n12,,30\n20,34,\n"));
    EXPECT_DOUBLE_EQ(f.ns[0][1], 11);
    EXPECT_DOUBLE_EQ(f.ns[2][1], 32);
    EXPECT_DOUBLE_EQ(f.ns[0][2], 20);
}

TEST(BoardFiles, ReadsCasBenchText) {
    // cas-bench: a row per CPU, its number, then a column per CPU, '-' on the
    // diagonal; each direction measured, a pair is their mean.
    const board_matrix m = read_board_matrix(file_with("cas.txt", "     0   -  29  30\n     1  31   -  28\n     2  30  28   -\n"));
    EXPECT_EQ(m.format, "cas-bench");
    ASSERT_EQ(m.cpus(), 3u);
    EXPECT_DOUBLE_EQ(m.ns[0][1], 30);
    EXPECT_DOUBLE_EQ(m.ns[1][0], 30);
    EXPECT_DOUBLE_EQ(m.ns[1][2], 28);
    EXPECT_DOUBLE_EQ(m.ns[2][0], 30);
}

TEST(BoardFiles, BadMatricesAreNamedByLine) {
    const std::string a = file_with("bad1.csv", ",,\n41.6,,\n42.4,fast,\n");
    EXPECT_NE(error_of([&] { read_board_matrix(a); }).find(a + ":3: 'fast' in column 2 is not a latency in ns"), std::string::npos)
        << error_of([&] { read_board_matrix(a); });
    const std::string b = file_with("bad2.txt", "0 - 29\n2 29 -\n");
    EXPECT_NE(error_of([&] { read_board_matrix(b); }).find(b + ":2: row starts with '2', not CPU 1"), std::string::npos);
    const std::string c = file_with("bad3.txt", "0 - 29 30\n1 29 -\n");
    EXPECT_NE(error_of([&] { read_board_matrix(c); }).find("CPU 0 has 3 columns, not 2"), std::string::npos)
        << error_of([&] { read_board_matrix(c); });
    const std::string d = file_with("empty.csv", "\n\n");
    EXPECT_NE(error_of([&] { read_board_matrix(d); }).find(d + ": is empty"), std::string::npos);
    EXPECT_NE(error_of([&] { read_board_matrix("/nonexistent/board.csv"); }).find("cannot be read"), std::string::npos);
}

TEST(BoardFiles, ReadsLatMemRdAndInterpolatesInLogSize) {
    // lat_mem_rd: size in MB (2^20 bytes) and ns per load, under "stride=N.
    const board_curve c =
        read_board_curve(file_with("lat.txt", "\"stride=64\n0.00049 1.520\n0.03125 4.000\n1.00000 20.000\n\n\"stride=128\n0.5 9\n"));
    EXPECT_EQ(c.format, "lmbench lat_mem_rd");
    ASSERT_EQ(c.points.size(), 3u);  // the first stride's curve only
    EXPECT_EQ(c.points[0].first, 514u);  // 0.00049 MB, as printed (lat_mem_rd rounds 512 B to 5 places)
    EXPECT_EQ(c.points[1].first, 32768u);
    EXPECT_DOUBLE_EQ(c.at(32768), 4.0);
    // 2^17 lies 2/5 of the way from 2^15 to 2^20 in log size: 4 + 0.4 x 16.
    EXPECT_NEAR(c.at(131072), 10.4, 1e-9);
    EXPECT_LT(c.at(4 * 1048576), 0);  // beyond the measured sizes: no figure
    const std::string bad = file_with("lat-bad.txt", "\"stride=64\n0.00049 1.520\nL2 4.0\n");
    EXPECT_NE(error_of([&] { read_board_curve(bad); }).find(bad + ":3: 'L2 4.0' is not a size in MB and a latency in ns"),
              std::string::npos);
    const std::string down = file_with("lat-down.txt", "0.5 9\n0.25 8\n");
    EXPECT_NE(error_of([&] { read_board_curve(down); }).find(":2: size 0.25 MB is not above the line before's"), std::string::npos);
}

// Measurements of a real board as its tools write them, for `cohsim c2c
// --measured` and `cohsim latmem --measured`:
//   - core-to-core latency matrices: the core-to-core-latency tool's CSV
//     (`core-to-core-latency ... --csv`: a row per CPU, the one-way ns to
//     each CPU numbered below it, the rest of the row empty; a full matrix
//     is read too), or the text of cas-bench (wtarreau/atomic-tests: a row
//     per CPU, its number, then a column per CPU, '-' on the diagonal);
//   - load-to-use curves: lmbench's lat_mem_rd output, `SIZE_MB NS` per line
//     (MB of 2^20 bytes), under a `"stride=N` header.
// Every error names the file and line, what is wrong and what was expected.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cohsim {

// One-way ns between CPUs i and j, [i][j] == [j][i]; negative where the
// file has no figure (the diagonal, or a pair it left out).
struct board_matrix {
    std::string format;  // "core-to-core-latency CSV" or "cas-bench"
    std::vector<std::vector<double>> ns;
    std::size_t cpus() const { return ns.size(); }
};
board_matrix read_board_matrix(const std::string& file);

// Load-to-use ns by working-set size, in increasing size.
struct board_curve {
    std::string format;  // "lmbench lat_mem_rd"
    std::vector<std::pair<std::uint64_t, double>> points;  // bytes, ns
    // The board's ns at `bytes`: linear in log(size) between the two nearest
    // sizes measured; negative outside the measured range.
    double at(std::uint64_t bytes) const;
};
board_curve read_board_curve(const std::string& file);

}  // namespace cohsim

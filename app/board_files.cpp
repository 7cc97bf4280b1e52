#include "app/board_files.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "app/options.h"
#include "sim/files.h"

namespace cohsim {

namespace {

[[noreturn]] void bad(const std::string& file, std::size_t line, const std::string& what, const std::string& expected) {
    throw usage_error(file + (line ? ":" + std::to_string(line) : "") + ": " + what + " (expected " + expected + ")");
}

std::string trimmed(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// A non-negative number, the whole field.
bool number(const std::string& t, double& v) {
    if (t.empty()) return false;
    char* end = nullptr;
    v = std::strtod(t.c_str(), &end);
    return end == t.c_str() + t.size() && std::isfinite(v) && v >= 0;
}

std::vector<std::string> lines_of(const std::string& file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) bad(file, 0, "cannot be read (no such file)", "a file written by the board's tool");
    const std::string text = read_file(file);
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    while (!out.empty() && trimmed(out.back()).empty()) out.pop_back();
    return out;
}

// A pair measured both ways (a full matrix; cas-bench measures each
// direction): the mean; one way only (a lower triangle): that.
void symmetric(board_matrix& m) {
    for (std::size_t i = 0; i < m.cpus(); ++i)
        for (std::size_t j = 0; j < i; ++j) {
            const double a = m.ns[i][j], b = m.ns[j][i];
            m.ns[i][j] = m.ns[j][i] = a >= 0 && b >= 0 ? (a + b) / 2 : std::max(a, b);
        }
}

const char* const c2c_expected =
    "core-to-core-latency's --csv output (a row per CPU: its one-way ns to each CPU before it, comma-separated) or "
    "cas-bench's text (a row per CPU: its number, then the ns to each CPU, '-' on the diagonal)";

board_matrix csv_matrix(const std::string& file, const std::vector<std::string>& lines) {
    board_matrix m;
    m.format = "core-to-core-latency CSV";
    std::vector<std::vector<std::string>> rows;
    for (const auto& l : lines) {
        std::vector<std::string> f(1);
        for (char c : l) {
            if (c == ',') f.emplace_back();
            else f.back() += c;
        }
        for (auto& x : f) x = trimmed(x);
        rows.push_back(f);
    }
    const std::size_t n = rows.size();
    m.ns.assign(n, std::vector<double>(n, -1));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < rows[i].size(); ++j) {
            const std::string& t = rows[i][j];
            if (t.empty() || j == i) continue;
            if (j >= n) bad(file, i + 1, "column " + std::to_string(j + 1) + " of a matrix of " + std::to_string(n) + " CPUs", c2c_expected);
            double v = 0;
            if (!number(t, v)) bad(file, i + 1, "'" + t + "' in column " + std::to_string(j + 1) + " is not a latency in ns", c2c_expected);
            m.ns[i][j] = v;
        }
    symmetric(m);
    return m;
}

board_matrix cas_bench_matrix(const std::string& file, const std::vector<std::string>& lines) {
    board_matrix m;
    m.format = "cas-bench";
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::istringstream in(lines[i]);
        std::vector<std::string> f;
        for (std::string w; in >> w;) f.push_back(w);
        if (f.empty()) continue;
        if (f[0] != std::to_string(rows.size()))
            bad(file, i + 1, "row starts with '" + f[0] + "', not CPU " + std::to_string(rows.size()), c2c_expected);
        rows.push_back(std::vector<std::string>(f.begin() + 1, f.end()));
    }
    const std::size_t n = rows.size();
    m.ns.assign(n, std::vector<double>(n, -1));
    for (std::size_t i = 0; i < n; ++i) {
        if (rows[i].size() != n)
            bad(file, i + 1, "CPU " + std::to_string(i) + " has " + std::to_string(rows[i].size()) + " columns, not " + std::to_string(n),
                "one column per CPU in every row");
        for (std::size_t j = 0; j < n; ++j) {
            if (rows[i][j] == "-") continue;
            double v = 0;
            if (!number(rows[i][j], v))
                bad(file, i + 1, "'" + rows[i][j] + "' for CPU " + std::to_string(j) + " is not a latency in ns", c2c_expected);
            m.ns[i][j] = v;
        }
    }
    symmetric(m);
    return m;
}

}  // namespace

board_matrix read_board_matrix(const std::string& file) {
    const auto lines = lines_of(file);
    if (lines.empty()) bad(file, 0, "is empty", c2c_expected);
    const bool csv = std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return l.find(',') != std::string::npos; });
    board_matrix m = csv ? csv_matrix(file, lines) : cas_bench_matrix(file, lines);
    if (m.cpus() < 2) bad(file, 0, "holds " + std::to_string(m.cpus()) + " CPU", c2c_expected);
    bool any = false;
    for (const auto& r : m.ns)
        for (double v : r) any |= v >= 0;
    if (!any) bad(file, 0, "has no latency in it", c2c_expected);
    return m;
}

board_curve read_board_curve(const std::string& file) {
    const char* const expected = "lmbench lat_mem_rd's output: a line '\"stride=N', then 'SIZE_MB NS' per line";
    const auto lines = lines_of(file);
    board_curve c;
    c.format = "lmbench lat_mem_rd";
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string l = trimmed(lines[i]);
        if (l.empty()) continue;
        if (l.rfind("\"stride=", 0) == 0 || l.rfind("stride=", 0) == 0) {
            if (!c.points.empty()) break;  // one stride's curve: the first
            continue;
        }
        std::istringstream in(l);
        std::string a, b, extra;
        in >> a >> b >> extra;
        double mb = 0, ns = 0;
        if (!number(a, mb) || !number(b, ns) || !extra.empty() || mb <= 0)
            bad(file, i + 1, "'" + l + "' is not a size in MB and a latency in ns", expected);
        const auto bytes = static_cast<std::uint64_t>(std::llround(mb * 1024 * 1024));
        if (!c.points.empty() && bytes <= c.points.back().first)
            bad(file, i + 1, "size " + a + " MB is not above the line before's", "sizes in increasing order");
        c.points.emplace_back(bytes, ns);
    }
    if (c.points.empty()) bad(file, 0, "has no size and latency in it", expected);
    return c;
}

double board_curve::at(std::uint64_t bytes) const {
    if (points.empty() || bytes < points.front().first || bytes > points.back().first) return -1;
    const auto hi = std::lower_bound(points.begin(), points.end(), bytes, [](const auto& p, std::uint64_t b) { return p.first < b; });
    if (hi->first == bytes) return hi->second;
    const auto lo = hi - 1;
    const double f = std::log(static_cast<double>(bytes) / static_cast<double>(lo->first)) /
                     std::log(static_cast<double>(hi->first) / static_cast<double>(lo->first));
    return lo->second + f * (hi->second - lo->second);
}

}  // namespace cohsim

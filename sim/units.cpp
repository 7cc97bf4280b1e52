#include "sim/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <limits>
#include <vector>

namespace cohsim {
namespace {

using u128 = unsigned __int128;

struct unit_def {
    const char* name;
    u128 factor_num;  // value in base units = number * factor_num / factor_den
    u128 factor_den;
};

// A decimal number as an exact fraction: mantissa / 10^scale.
struct decimal {
    u128 mantissa = 0;
    unsigned scale = 0;
};

u128 pow10(unsigned n) {
    u128 r = 1;
    while (n--) r *= 10;
    return r;
}

// Splits "1.8GHz" / "1.8 GHz" into the number and the unit text.
// Returns false if there is no leading number.
bool split_number(const std::string& text, decimal& num, std::string& unit, bool& negative) {
    std::size_t i = 0;
    negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        negative = text[i] == '-';
        ++i;
    }
    bool digits = false, dot = false;
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits = true;
            if (num.mantissa > (std::numeric_limits<std::uint64_t>::max)()) return false;
            num.mantissa = num.mantissa * 10 + static_cast<unsigned>(c - '0');
            if (dot) ++num.scale;
        } else if (c == '.' && !dot) {
            dot = true;
        } else {
            break;
        }
    }
    if (!digits) return false;
    while (i < text.size() && text[i] == ' ') ++i;
    unit = text.substr(i);
    return true;
}

std::string unit_list(const std::vector<unit_def>& units) {
    std::string s;
    for (const auto& u : units) {
        if (!s.empty()) s += ", ";
        s += u.name;
    }
    return s;
}

std::uint64_t parse_quantity(const std::string& text, const std::vector<unit_def>& units,
                             const char* kind, const char* example, const char* base_name,
                             std::uint64_t max_base) {
    const std::string expected = std::string("a ") + kind + " with a unit (" + unit_list(units) +
                                 "), e.g. " + example;
    decimal num;
    std::string unit;
    bool negative = false;
    if (!split_number(text, num, unit, negative))
        throw unit_error("'" + text + "' is not a " + kind, expected);
    if (unit.empty()) throw unit_error("'" + text + "' has no unit", expected);
    const unit_def* found = nullptr;
    for (const auto& u : units)
        if (unit == u.name) found = &u;
    if (!found) throw unit_error("'" + unit + "' is not a unit of " + kind, expected);
    if (negative && num.mantissa != 0)
        throw unit_error("'" + text + "' is negative", std::string("a positive ") + kind);
    const u128 num_scaled = num.mantissa * found->factor_num;
    const u128 den = pow10(num.scale) * found->factor_den;
    if (num_scaled % den != 0)
        throw unit_error("'" + text + "' is not a whole number of " + base_name,
                         std::string("a ") + kind + " that is a whole number of " + base_name);
    const u128 value = num_scaled / den;
    if (value > max_base)
        throw unit_error("'" + text + "' is too large",
                         std::string("at most ") + std::to_string(static_cast<std::uint64_t>(max_base)) +
                             " " + base_name);
    return static_cast<std::uint64_t>(value);
}

// Exact decimal text of value/factor, e.g. (1800000000, 1e9) -> "1.8".
std::string exact_decimal(std::uint64_t value, std::uint64_t factor) {
    std::string s = std::to_string(value / factor);
    std::uint64_t rem = value % factor;
    if (rem == 0) return s;
    s += '.';
    while (rem != 0) {
        rem *= 10;
        s += static_cast<char>('0' + rem / factor);
        rem %= factor;
    }
    return s;
}

// Frequency, duration: decimal units; pick the largest unit <= value.
std::string format_decimal(std::uint64_t value, const std::vector<std::pair<const char*, std::uint64_t>>& units) {
    for (const auto& [name, factor] : units)
        if (value >= factor) return exact_decimal(value, factor) + name;
    return "0" + std::string(units.back().first);
}

const std::vector<unit_def>& frequency_units() {
    static const std::vector<unit_def> u = {
        {"Hz", 1, 1}, {"kHz", 1000, 1}, {"MHz", 1000000, 1}, {"GHz", 1000000000, 1}};
    return u;
}

const std::vector<unit_def>& duration_units() {
    static const std::vector<unit_def> u = {{"fs", 1, 1},
                                            {"ps", 1000, 1},
                                            {"ns", 1000000, 1},
                                            {"us", 1000000000ULL, 1},
                                            {"ms", 1000000000000ULL, 1},
                                            {"s", fs_per_second, 1}};
    return u;
}

const std::vector<unit_def>& size_units() {
    static const std::vector<unit_def> u = {
        {"B", 1, 1}, {"KiB", 1ULL << 10, 1}, {"MiB", 1ULL << 20, 1}, {"GiB", 1ULL << 30, 1},
        {"TiB", 1ULL << 40, 1}};
    return u;
}

const std::vector<unit_def>& cycle_units() {
    static const std::vector<unit_def> u = {{"cycles", 1, 1}, {"cycle", 1, 1}};
    return u;
}

}  // namespace

frequency parse_frequency(const std::string& text) {
    return {parse_quantity(text, frequency_units(), "frequency", "1.8GHz or 832MHz", "Hz",
                           (std::numeric_limits<std::uint64_t>::max)())};
}

duration parse_duration(const std::string& text) {
    if (text.find("µs") != std::string::npos) {
        std::string t = text;
        t.replace(t.find("µs"), std::string("µs").size(), "us");
        return parse_duration(t);
    }
    return {parse_quantity(text, duration_units(), "duration", "120ns, 100us or 20ms", "fs",
                           (std::numeric_limits<std::uint64_t>::max)())};
}

byte_size parse_byte_size(const std::string& text) {
    for (const char* ambiguous : {"KB", "kB", "MB", "GB", "TB"}) {
        std::string unit;
        decimal d;
        bool neg;
        if (split_number(text, d, unit, neg) && unit == ambiguous)
            throw unit_error("'" + unit + "' is ambiguous (1000 or 1024?)",
                             "a binary size unit: B, KiB, MiB, GiB, e.g. 64KiB");
    }
    return {parse_quantity(text, size_units(), "size", "64KiB or 2MiB", "bytes",
                           (std::numeric_limits<std::uint64_t>::max)())};
}

cycles parse_cycles(const std::string& text) {
    return {parse_quantity(text, cycle_units(), "cycle count", "4cycles", "cycles",
                           (std::numeric_limits<std::uint64_t>::max)())};
}

std::string to_string(frequency f) {
    return format_decimal(f.hz, {{"GHz", 1000000000ULL}, {"MHz", 1000000ULL}, {"kHz", 1000ULL}, {"Hz", 1ULL}});
}

std::string to_string(duration d) {
    return format_decimal(d.fs, {{"s", fs_per_second},
                                 {"ms", 1000000000000ULL},
                                 {"us", 1000000000ULL},
                                 {"ns", 1000000ULL},
                                 {"ps", 1000ULL},
                                 {"fs", 1ULL}});
}

std::string to_string(byte_size s) {
    static const std::pair<const char*, std::uint64_t> units[] = {
        {"TiB", 1ULL << 40}, {"GiB", 1ULL << 30}, {"MiB", 1ULL << 20}, {"KiB", 1ULL << 10}};
    for (const auto& [name, factor] : units)
        if (s.bytes >= factor && s.bytes % factor == 0) return std::to_string(s.bytes / factor) + name;
    return std::to_string(s.bytes) + "B";
}

std::string to_string(cycles c) { return std::to_string(c.n) + (c.n == 1 ? "cycle" : "cycles"); }

std::string hex(std::uint64_t address) {
    char buf[24] = {'0', 'x'};
    const auto r = std::to_chars(buf + 2, buf + sizeof buf, address, 16);
    return std::string(buf, r.ptr);
}

std::string time_text(double ns, int digits) {
    if (!std::isfinite(ns)) return "-";
    static const std::pair<double, const char*> units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
    for (const auto& [scale, unit] : units)
        if (ns >= scale || scale == 1) {
            char buf[48];
            std::snprintf(buf, sizeof buf, "%.*g %s", digits, ns / scale, unit);
            return buf;
        }
    return "-";
}

}  // namespace cohsim

// Physical quantities with units, parsed from and printed to config text.
//
// Every quantity is an exact integer in its base unit: frequencies in Hz,
// durations in femtoseconds, sizes in bytes, cycle counts in cycles. Parsing
// "1.8GHz" or "213.3us" is exact decimal arithmetic (no floating point), and a
// value that is not a whole number of base units is an error, so the same text
// always gives the same simulation. Durations are limited to what a 64-bit
// femtosecond counter holds (about 5.1 hours), which is also SystemC's limit at
// femtosecond resolution.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cohsim {

struct frequency {
    std::uint64_t hz = 0;
    friend bool operator==(frequency a, frequency b) { return a.hz == b.hz; }
    friend bool operator<(frequency a, frequency b) { return a.hz < b.hz; }
};

struct duration {
    std::uint64_t fs = 0;
    friend bool operator==(duration a, duration b) { return a.fs == b.fs; }
    friend bool operator<(duration a, duration b) { return a.fs < b.fs; }
    double ns() const { return static_cast<double>(fs) * 1e-6; }
    double seconds() const { return static_cast<double>(fs) * 1e-15; }
};

struct byte_size {
    std::uint64_t bytes = 0;
    friend bool operator==(byte_size a, byte_size b) { return a.bytes == b.bytes; }
    friend bool operator<(byte_size a, byte_size b) { return a.bytes < b.bytes; }
};

struct cycles {
    std::uint64_t n = 0;
    friend bool operator==(cycles a, cycles b) { return a.n == b.n; }
    friend bool operator<(cycles a, cycles b) { return a.n < b.n; }
};

constexpr std::uint64_t fs_per_second = 1'000'000'000'000'000ULL;

// Thrown by the parsers below; `expected` says what a good value looks like.
struct unit_error : std::runtime_error {
    std::string expected;
    unit_error(const std::string& what, std::string expected_)
        : std::runtime_error(what), expected(std::move(expected_)) {}
};

frequency parse_frequency(const std::string& text);
duration parse_duration(const std::string& text);
byte_size parse_byte_size(const std::string& text);
cycles parse_cycles(const std::string& text);

// Canonical text: the largest unit that keeps the value exact ("1.8GHz",
// "832MHz", "20ms", "266.666666666us", "64KiB", "4cycles"). Parsing the
// result gives back the same value.
std::string to_string(frequency f);
std::string to_string(duration d);
std::string to_string(byte_size s);
std::string to_string(cycles c);

// A time given in ns, as people read it: the largest unit (s, ms, us, ns)
// that keeps it at least 1, three significant digits ("15.3 s", "218 ns")
// or `digits`; "-" when it is not a finite number.
std::string time_text(double ns, int digits = 3);
// A moment or a span of simulated time in a message: four significant digits
// ("1.067 ms", "10.86 ns").
inline std::string time_text(duration d) { return time_text(d.ns(), 4); }

// An address as text: "0x10000040".
std::string hex(std::uint64_t address);

}  // namespace cohsim

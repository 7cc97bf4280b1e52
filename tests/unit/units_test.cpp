#include <gtest/gtest.h>

#include "app/cli.h"
#include "sim/units.h"

using namespace cohsim;

TEST(Units, FrequencyParsesExactly) {
    EXPECT_EQ(parse_frequency("1.8GHz").hz, 1'800'000'000ULL);
    EXPECT_EQ(parse_frequency("832MHz").hz, 832'000'000ULL);
    EXPECT_EQ(parse_frequency("1.248GHz").hz, 1'248'000'000ULL);
    EXPECT_EQ(parse_frequency("1.92MHz").hz, 1'920'000ULL);
    EXPECT_EQ(parse_frequency("19.2 MHz").hz, 19'200'000ULL);
    EXPECT_EQ(parse_frequency("10kHz").hz, 10'000ULL);
    EXPECT_EQ(parse_frequency("7Hz").hz, 7ULL);
}

TEST(Units, DurationParsesExactly) {
    EXPECT_EQ(parse_duration("120ns").fs, 120'000'000ULL);
    EXPECT_EQ(parse_duration("20ms").fs, 20'000'000'000'000ULL);
    EXPECT_EQ(parse_duration("100us").fs, 100'000'000'000ULL);
    EXPECT_EQ(parse_duration("100µs").fs, 100'000'000'000ULL);
    EXPECT_EQ(parse_duration("20s").fs, 20 * fs_per_second);
    EXPECT_EQ(parse_duration("1.5ps").fs, 1500ULL);
    EXPECT_EQ(parse_duration("3fs").fs, 3ULL);
}

TEST(Units, SizeAndCycles) {
    EXPECT_EQ(parse_byte_size("64KiB").bytes, 65536ULL);
    EXPECT_EQ(parse_byte_size("2MiB").bytes, 2ULL << 20);
    EXPECT_EQ(parse_byte_size("64B").bytes, 64ULL);
    EXPECT_EQ(parse_byte_size("0.5KiB").bytes, 512ULL);
    EXPECT_EQ(parse_cycles("4cycles").n, 4ULL);
    EXPECT_EQ(parse_cycles("1cycle").n, 1ULL);
}

TEST(Units, MissingUnitIsAnError) {
    EXPECT_THROW(parse_frequency("1800"), unit_error);
    EXPECT_THROW(parse_duration("20"), unit_error);
    EXPECT_THROW(parse_cycles("4"), unit_error);
    try {
        parse_frequency("1800");
        FAIL();
    } catch (const unit_error& e) {
        EXPECT_NE(std::string(e.what()).find("no unit"), std::string::npos) << e.what();
        EXPECT_NE(e.expected.find("GHz"), std::string::npos) << e.expected;
    }
}

TEST(Units, WrongUnitIsAnError) {
    EXPECT_THROW(parse_frequency("20ms"), unit_error);
    EXPECT_THROW(parse_duration("1GHz"), unit_error);
    EXPECT_THROW(parse_frequency("1.8ghz"), unit_error);  // units are case-sensitive: mHz would be milli
    EXPECT_THROW(parse_byte_size("64KB"), unit_error);    // ambiguous 1000/1024
    try {
        parse_byte_size("64KB");
        FAIL();
    } catch (const unit_error& e) {
        EXPECT_NE(std::string(e.what()).find("ambiguous"), std::string::npos);
    }
}

TEST(Units, NotANumberOrNegativeOrFractional) {
    EXPECT_THROW(parse_frequency("fastGHz"), unit_error);
    EXPECT_THROW(parse_frequency(""), unit_error);
    EXPECT_THROW(parse_frequency("-1GHz"), unit_error);
    EXPECT_THROW(parse_duration("0.5fs"), unit_error);     // below the time resolution
    EXPECT_THROW(parse_frequency("0.5Hz"), unit_error);
    EXPECT_THROW(parse_cycles("1.5cycles"), unit_error);
    EXPECT_THROW(parse_duration("1.2.3ns"), unit_error);
    EXPECT_THROW(parse_duration("99999999s"), unit_error);  // beyond 64-bit femtoseconds
    EXPECT_EQ(parse_frequency("0Hz").hz, 0ULL);              // zero parses; ranges reject it
}

TEST(Units, CanonicalTextRoundTrips) {
    EXPECT_EQ(to_string(frequency{1'800'000'000}), "1.8GHz");
    EXPECT_EQ(to_string(frequency{832'000'000}), "832MHz");
    EXPECT_EQ(to_string(frequency{1'920'000}), "1.92MHz");
    EXPECT_EQ(to_string(duration{20'000'000'000'000ULL}), "20ms");
    EXPECT_EQ(to_string(duration{266'666'666'666ULL}), "266.666666666us");
    EXPECT_EQ(to_string(duration{0}), "0fs");
    EXPECT_EQ(to_string(byte_size{65536}), "64KiB");
    EXPECT_EQ(to_string(byte_size{1536}), "1536B");
    EXPECT_EQ(to_string(cycles{4}), "4cycles");
    for (std::uint64_t hz : {1ULL, 999ULL, 1'000'001ULL, 1'234'567'891ULL, 3'000'000'000ULL})
        EXPECT_EQ(parse_frequency(to_string(frequency{hz})).hz, hz);
    for (std::uint64_t fs : {std::uint64_t{1}, std::uint64_t{1001}, std::uint64_t{123'456'789'012'345}, 20 * fs_per_second})
        EXPECT_EQ(parse_duration(to_string(duration{fs})).fs, fs);
    for (std::uint64_t b : {1ULL, 1024ULL, 1536ULL, 3ULL << 30})
        EXPECT_EQ(parse_byte_size(to_string(byte_size{b})).bytes, b);
}

// The progress line rounds its times (it once printed 11.634807513101ms).
TEST(ProgressLine, RoundsItsTimesToThreeDigits) {
    EXPECT_EQ(progress_text(parse_duration("11.634807513101ms"), parse_duration("20ms"), 3.21),
              "[ 58%] 11.6 ms of 20 ms simulated, 3.2 s host, ETA 2.3 s");
    EXPECT_EQ(progress_text(duration{0}, parse_duration("1s"), 0.5), "[  0%] 0 ns of 1 s simulated, 0.5 s host, ETA 0.0 s");
}

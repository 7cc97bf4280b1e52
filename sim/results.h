// Run results: the JSON document (schema in README.md, "Results"), the text
// table on stdout, and atomic file writing.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "sim/config_tree.h"
#include "sim/runner.h"
#include "sim/system.h"

namespace cohsim {

using json = nlohmann::ordered_json;

extern const char* const version;

// The config tree as JSON: numbers and booleans typed, quantities as text
// with their unit ("1.8GHz"), so that the JSON reads like the YAML.
json to_json(const cfg::node& n);

json make_result(const system_model& sys, const run_outcome& run, const std::string& config_source);
std::string format_table(const system_model& sys, const run_outcome& run);
// One row per core (schema in README.md, "Results").
std::string format_csv(const system_model& sys, const run_outcome& run);

// Writes via a temporary file in the same directory and rename(2), so a
// reader sees either the old file or the whole new one. Throws
// std::runtime_error naming the path on failure.
void write_file_atomic(const std::string& path, const std::string& content);
// A whole file as text ("" when it cannot be read).
std::string read_file(const std::string& path);

}  // namespace cohsim

// Run results: the JSON document (schema: docs/schemas/result.schema.json, docs/guide/results.md), the text
// table on stdout, and atomic file writing.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "models/coherence_protocol.h"
#include "sim/config_tree.h"
#include "sim/files.h"
#include "sim/runner.h"
#include "app/system.h"

namespace cohsim {

using json = nlohmann::ordered_json;

extern const char* const version;
extern const char* const commit;      // the git commit built from ("…-dirty", or "unknown")
extern const char* const build_type;  // CMAKE_BUILD_TYPE

// Where a result came from: version, commit, build type, the command line
// (set once by the command-line front end) and the host's name.
void set_command_line(int argc, const char* const* argv);
json provenance();

// The config tree as JSON: numbers and booleans typed, quantities as text
// with their unit ("1.8GHz"), so that the JSON reads like the YAML.
json to_json(const cfg::node& n);

json make_result(const system_model& sys, const run_outcome& run, const std::string& config_source);

// The lock operations of each core of a result (make_result's "cores"), in
// order, for the cores that have any to count: its lock acquisitions, or
// for a lock-free update loop that marks none (lockref) the successes its
// program counts (its stat_*successes words).
std::vector<std::uint64_t> lock_operations(const json& result);

// A protocol table's per-cell counts as {STATE: {EVENT: count}}, non-zero
// cells only ("protocol_transitions" in the result JSON), and back.
template <class State, class Event, class Table>
json counts_json(const Table& t) {
    json out = json::object();
    for (std::size_t s = 0; s < t.size(); ++s)
        for (std::size_t e = 0; e < t[s].size(); ++e)
            if (t[s][e]) out[protocol::name(static_cast<State>(s))][protocol::name(static_cast<Event>(e))] = t[s][e];
    return out;
}
template <class State, class Event, class Table>
void counts_from_json(const json& j, Table& t) {
    for (std::size_t s = 0; s < t.size(); ++s)
        for (std::size_t e = 0; e < t[s].size(); ++e)
            t[s][e] = j.value(protocol::name(static_cast<State>(s)), json::object())
                          .value(protocol::name(static_cast<Event>(e)), std::uint64_t{0});
}
std::string format_table(const system_model& sys, const run_outcome& run);
// One row per core (schema: docs/schemas/result.schema.json, docs/guide/results.md).
std::string format_csv(const system_model& sys, const run_outcome& run);

}  // namespace cohsim

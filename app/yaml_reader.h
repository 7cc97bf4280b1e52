// Reading a hand-written YAML file of ours (calibration cases, platform
// references) with errors that name the file, line, column and key, what is
// wrong and what would be right (cfg::config_error).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <set>
#include <string>

#include "sim/config_tree.h"
#include "sim/units.h"

namespace cohsim {

struct yaml_reader {
    std::string file;
    [[noreturn]] void fail(const YAML::Node& n, const std::string& path, const std::string& what,
                           const std::string& expected = {}) const {
        const auto m = n.Mark();
        throw cfg::config_error({file, m.line + 1, m.column + 1}, path, what, expected);
    }
    const YAML::Node& need_map(const YAML::Node& n, const std::string& path) const {
        if (!n.IsMap()) fail(n, path, "is not a map", "KEY: VALUE lines");
        return n;
    }
    std::string text(const YAML::Node& n, const std::string& path) const {
        if (!n.IsScalar()) fail(n, path, "is not a single value", "a name or a number");
        return n.Scalar();
    }
    double number(const YAML::Node& n, const std::string& path) const {
        const std::string t = text(n, path);
        try {
            std::size_t used = 0;
            const double v = std::stod(t, &used);
            if (used == t.size() && std::isfinite(v)) return v;
        } catch (const std::exception&) {
        }
        fail(n, path, "'" + t + "' is not a number", "a number such as 1.5");
    }
    double time_ns(const YAML::Node& n, const std::string& path) const {
        try {
            return parse_duration(text(n, path)).ns();
        } catch (const std::exception& e) {
            fail(n, path, e.what(), "a time with a unit, e.g. 500us or 0.5s");
        }
    }
    // Every key of `n` must be one of `allowed`.
    void only(const YAML::Node& n, const std::string& path, const std::set<std::string>& allowed) const {
        for (const auto& kv : n) {
            const std::string k = kv.first.Scalar();
            if (allowed.count(k)) continue;
            std::string list;
            for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
            fail(kv.first, path + "." + k, "unknown key", "one of " + list);
        }
    }
};

// Loads `file`, or throws config_error naming it ("cannot read", "malformed YAML").
YAML::Node load_yaml_file(const std::string& file, const std::string& what);

}  // namespace cohsim

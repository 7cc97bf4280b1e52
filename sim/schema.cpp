#include "sim/schema.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace cohsim::cfg {

bool value_traits<bool>::parse(const std::string& s) {
    if (s == "true") return true;
    if (s == "false") return false;
    throw value_error{"'" + s + "' is not a boolean", "true or false"};
}

std::uint64_t parse_unsigned(const std::string& s, std::uint64_t max) {
    const std::string expected = "a whole number from 0 to " + std::to_string(max);
    if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        throw value_error{"'" + s + "' is not a whole number", expected};
    unsigned __int128 v = 0;
    for (char c : s) {
        v = v * 10 + static_cast<unsigned>(c - '0');
        if (v > max) throw value_error{"'" + s + "' is too large", expected};
    }
    return static_cast<std::uint64_t>(v);
}

namespace {
std::string trimmed(const std::string& t) {
    const auto a = t.find_first_not_of(" \t"), b = t.find_last_not_of(" \t");
    return a == std::string::npos ? "" : t.substr(a, b - a + 1);
}
}  // namespace

bool split_uncertain(const std::string& text, std::string& nominal, std::string& lo, std::string& hi) {
    const auto tilde = text.find('~');
    if (tilde == std::string::npos) return false;
    const std::string range = text.substr(tilde + 1);
    const auto dots = range.find("..");
    nominal = trimmed(text.substr(0, tilde));
    lo = dots == std::string::npos ? "" : trimmed(range.substr(0, dots));
    hi = dots == std::string::npos ? "" : trimmed(range.substr(dots + 2));
    if (nominal.empty() || lo.empty() || hi.empty())
        throw value_error{"'" + text + "' is not a value with a range",
                          "NOMINAL ~ LO..HI, each with its unit, e.g. 26cycles ~ 20cycles..34cycles"};
    return true;
}

std::string uncertain_param::text() const { return format(nominal) + " ~ " + format(lo) + ".." + format(hi); }

std::string join_path(const std::string& prefix, const std::string& key) {
    return prefix.empty() ? key : prefix + "." + key;
}

source_loc where(const node* n, const source_loc& fallback) { return n ? n->loc : fallback; }

void fail_missing(const source_loc& parent, const std::string& path, const std::string& expected) {
    throw config_error(parent, path, "required key is missing", expected);
}

namespace {
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}
}  // namespace

void check_map(const node* n, const std::string& path, const std::vector<std::string>& keys) {
    if (!n) return;
    for (const auto& [key, child] : n->entries) {
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
        std::string expected = "one of: ";
        for (std::size_t i = 0; i < keys.size(); ++i) expected += (i ? ", " : "") + keys[i];
        const std::string best = closest_name(key, keys);
        std::string problem = "unknown key '" + key + "'";
        if (!best.empty()) problem += "; did you mean '" + best + "'?";
        throw config_error(child.key_loc.line ? child.key_loc : child.loc, join_path(path, key), problem,
                           keys.empty() ? "no keys here" : expected);
    }
}

std::string closest_name(const std::string& name, const std::vector<std::string>& names) {
    std::string best;
    std::size_t best_d = 3;
    for (const auto& n : names)
        if (const std::size_t d = edit_distance(name, n); d < best_d) best_d = d, best = n;
    return best;
}

std::string typo_of(const std::string& name, const std::vector<std::string>& names) {
    for (const auto& n : names) {
        const std::size_t d = edit_distance(name, n);
        if (d == 1 || (d == 2 && name.size() >= 5 && n.size() >= 5)) return n;
    }
    return "";
}

void check_name(const std::string& name, const node& n, const std::string& path) {
    const bool ok = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                    std::all_of(name.begin(), name.end(), [](char c) {
                        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
                    });
    if (!ok)
        throw config_error(n.key_loc.line ? n.key_loc : n.loc, join_path(path, name),
                           "'" + name + "' is not a valid name",
                           "letters, digits, '_' or '-', starting with a letter (no dots)");
}

}  // namespace cohsim::cfg

// Parameters declared once. A config struct describes its own keys in a static
// `describe(struct_schema<S>&)`: for each key the member it fills, its type
// (which fixes its unit), its default or that it is required, its valid range
// and a one-line description. That one declaration drives
//   - loading: strict, every error names file, line, column and key path;
//   - the effective-config dump, with every default filled in;
//   - `cohsim params`, the listing of every parameter.
// Nothing about a parameter is written anywhere else.
#pragma once

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/config_tree.h"
#include "sim/units.h"

namespace cohsim::cfg {

// One row of `cohsim params`.
struct param_info {
    std::string path, type, unit, default_text, constraint, description;
};

// Thrown by value parsers: what is wrong and what would be right.
struct value_error {
    std::string problem, expected;
};

// A value given with its uncertainty, `NOMINAL ~ LO..HI` (e.g.
// `request_latency: 26cycles ~ 20cycles..34cycles`): a run uses NOMINAL; an
// ensemble (`cohsim predict`) draws each member's value from LO..HI. Numbers
// and quantities only. In base units (Hz, fs, bytes, cycles, the integer),
// with the step a draw is rounded to.
struct uncertain_param {
    std::string path;
    std::uint64_t lo = 0, nominal = 0, hi = 0;
    std::uint64_t quantum = 1;  // draws are whole multiples of it (1 kHz, 1 ps, else 1)
    std::string type;           // "frequency", "duration", ...
    std::function<std::string(std::uint64_t)> format;  // base units -> config text
    std::function<std::uint64_t(const std::string&)> parse;  // config text -> base units (throws value_error)
    std::string text() const;   // "26cycles ~ 20cycles..34cycles"
    std::string prior;          // "20cycles..34cycles" when a calibrated range replaced the file's, else empty
};

// Where the loader records the uncertain values it meets (null: nowhere).
// Set by load_config for the duration of one load.
inline thread_local std::vector<uncertain_param>* uncertain_sink = nullptr;

// Splits "NOMINAL ~ LO..HI" into its three texts; false if `text` has no '~';
// value_error if it has one but not that form.
bool split_uncertain(const std::string& text, std::string& nominal, std::string& lo, std::string& hi);

// ---- value types ---------------------------------------------------------

template <class T, class Enable = void>
struct value_traits;

template <class E>
struct enum_names;  // specialise: static const std::vector<std::pair<E, const char*>>& list();

#define COHSIM_QUANTITY_TRAITS(T, PARSE, TYPE, UNIT, FIELD, QUANTUM)                      \
    template <>                                                                          \
    struct value_traits<T> {                                                             \
        static constexpr const char* type = TYPE;                                        \
        static constexpr const char* unit = UNIT;                                        \
        static constexpr bool numeric = true;                                            \
        static constexpr std::uint64_t quantum = QUANTUM;                                \
        static std::uint64_t to_base(const T& v) { return v.FIELD; }                     \
        static T from_base(std::uint64_t b) { return T{b}; }                             \
        static constexpr node::style style = node::style::text;                          \
        static T parse(const std::string& s) {                                           \
            try {                                                                        \
                return PARSE(s);                                                         \
            } catch (const unit_error& e) {                                              \
                throw value_error{e.what(), e.expected};                                 \
            }                                                                            \
        }                                                                                \
        static std::string format(const T& v) { return to_string(v); }                   \
    };
COHSIM_QUANTITY_TRAITS(frequency, parse_frequency, "frequency", "Hz, kHz, MHz, GHz", hz, 1000)
COHSIM_QUANTITY_TRAITS(duration, parse_duration, "duration", "fs, ps, ns, us, ms, s", fs, 1000)
COHSIM_QUANTITY_TRAITS(byte_size, parse_byte_size, "size", "B, KiB, MiB, GiB", bytes, 1)
COHSIM_QUANTITY_TRAITS(cycles, parse_cycles, "cycles", "cycles", n, 1)
#undef COHSIM_QUANTITY_TRAITS

template <>
struct value_traits<bool> {
    static constexpr const char* type = "bool";
    static constexpr const char* unit = "";
    static constexpr node::style style = node::style::boolean;
    static bool parse(const std::string& s);
    static std::string format(bool v) { return v ? "true" : "false"; }
};

template <>
struct value_traits<std::string> {
    static constexpr const char* type = "string";
    static constexpr const char* unit = "";
    static constexpr node::style style = node::style::text;
    static std::string parse(const std::string& s) { return s; }
    static std::string format(const std::string& v) { return v; }
};

// Unsigned integers: plain digits, no unit.
template <class T>
struct value_traits<T, std::enable_if_t<std::is_integral_v<T> && std::is_unsigned_v<T> && !std::is_same_v<T, bool>>> {
    static constexpr const char* type = "integer";
    static constexpr const char* unit = "";
    static constexpr node::style style = node::style::number;
    static constexpr bool numeric = true;
    static constexpr std::uint64_t quantum = 1;
    static std::uint64_t to_base(T v) { return v; }
    static T from_base(std::uint64_t b) { return static_cast<T>(b); }
    static T parse(const std::string& s);
    static std::string format(T v) { return std::to_string(v); }
};
std::uint64_t parse_unsigned(const std::string& s, std::uint64_t max);
template <class T>
T value_traits<T, std::enable_if_t<std::is_integral_v<T> && std::is_unsigned_v<T> && !std::is_same_v<T, bool>>>::parse(
    const std::string& s) {
    return static_cast<T>(parse_unsigned(s, std::numeric_limits<T>::max()));
}

template <class E>
struct value_traits<E, std::enable_if_t<std::is_enum_v<E>>> {
    static constexpr const char* type = "choice";
    static constexpr const char* unit = "";
    static constexpr node::style style = node::style::text;
    static std::string choices() {
        std::string s;
        for (const auto& [v, name] : enum_names<E>::list()) s += (s.empty() ? "" : ", ") + std::string(name);
        return s;
    }
    static E parse(const std::string& s) {
        for (const auto& [v, name] : enum_names<E>::list())
            if (s == name) return v;
        throw value_error{"'" + s + "' is not a valid choice", "one of " + choices()};
    }
    static std::string format(E v) {
        for (const auto& [e, name] : enum_names<E>::list())
            if (e == v) return name;
        return "?";
    }
};

// An optional value: null (`~`) or absent means unset.
template <class T>
struct is_optional : std::false_type {};
template <class U>
struct is_optional<std::optional<U>> : std::true_type {};

template <class U>
struct value_traits<std::optional<U>> {
    static constexpr const char* type = value_traits<U>::type;
    static constexpr const char* unit = value_traits<U>::unit;
    static constexpr node::style style = value_traits<U>::style;
    static std::optional<U> parse(const std::string& s) { return value_traits<U>::parse(s); }
    static std::string format(const std::optional<U>& v) { return v ? value_traits<U>::format(*v) : "(unset)"; }
};

// ---- schema --------------------------------------------------------------

// Map of user-named entries (e.g. clusters), kept in document order.
template <class U>
struct named_list {
    std::vector<std::pair<std::string, U>> items;
    const U* find(const std::string& name) const {
        for (const auto& [n, u] : items)
            if (n == name) return &u;
        return nullptr;
    }
    std::size_t size() const { return items.size(); }
    auto begin() const { return items.begin(); }
    auto end() const { return items.end(); }
};

std::string join_path(const std::string& prefix, const std::string& key);
source_loc where(const node* n, const source_loc& fallback);
[[noreturn]] void fail_missing(const source_loc& parent, const std::string& path, const std::string& expected);
void check_map(const node* n, const std::string& path, const std::vector<std::string>& keys);
void check_name(const std::string& name, const node& n, const std::string& path);
// The name in `names` within two edits of `name` (the closest), or "".
std::string closest_name(const std::string& name, const std::vector<std::string>& names);
// Stricter: the name in `names` that `name` is likely a typo of: one edit
// away, or two when both have five letters or more ("mid" is not "big").
std::string typo_of(const std::string& name, const std::vector<std::string>& names);

template <class S>
class struct_schema;

template <class S>
const struct_schema<S>& schema_of() {
    static const struct_schema<S> schema = [] {
        struct_schema<S> s;
        S::describe(s);
        return s;
    }();
    return schema;
}

template <class S>
struct field {
    std::string key, desc;
    virtual ~field() = default;
    // `n` is this key's value node, or null if the key is absent; `parent`
    // locates the enclosing map for "missing key" messages.
    virtual void load(S& out, const node* n, const std::string& path, const source_loc& parent) const = 0;
    virtual node dump(const S& in) const = 0;
    virtual void list(std::vector<param_info>& out, const std::string& path) const = 0;
};

template <class S, class T>
class leaf : public field<S> {
public:
    explicit leaf(T S::*m) : m_member(m) {}
    leaf& def(T v) {
        m_default = std::move(v);
        return *this;
    }
    leaf& range(T lo, T hi) {
        m_range = {std::move(lo), std::move(hi)};
        return *this;
    }
    // Extra rule: `ok` returns false when the value is invalid; `expected`
    // says what is valid.
    leaf& rule(std::function<bool(const T&)> ok, std::string expected) {
        m_rules.push_back({std::move(ok), std::move(expected)});
        return *this;
    }

    void load(S& out, const node* n, const std::string& path, const source_loc& parent) const override {
        using tr = value_traits<T>;
        if (!n) {
            if (!m_default) fail_missing(parent, path, expected_text());
            out.*m_member = *m_default;
            return;
        }
        if (n->k == node::kind::null) {
            if constexpr (is_optional<T>::value) {
                out.*m_member = std::nullopt;
                return;
            }
            throw config_error(n->loc, path, "no value given", expected_text());
        }
        if (n->k != node::kind::scalar)
            throw config_error(n->loc, path, std::string("found ") + n->kind_name(), expected_text());
        std::string nominal_text, lo_text, hi_text;
        bool ranged = false;
        if constexpr (!std::is_same_v<T, std::string>) {
            try {
                ranged = split_uncertain(n->text, nominal_text, lo_text, hi_text);
            } catch (const value_error& e) {
                throw config_error(n->loc, path, e.problem, e.expected);
            }
        }
        if (ranged) {
            if constexpr (has_numeric()) {
                using nt = value_traits<std::remove_cv_t<typename unwrap<T>::type>>;
                auto base = [&](const std::string& t) {
                    const T v = checked(n, path, t);
                    if constexpr (is_optional<T>::value) return nt::to_base(*v);
                    else return nt::to_base(v);
                };
                const std::uint64_t lo = base(lo_text), hi = base(hi_text), nominal = base(nominal_text);
                if (!(lo <= nominal && nominal <= hi))
                    throw config_error(n->loc, path, "the range " + lo_text + ".." + hi_text + " does not hold " + nominal_text,
                                       "NOMINAL ~ LO..HI with LO <= NOMINAL <= HI, e.g. 26cycles ~ 20cycles..34cycles");
                if (uncertain_sink)
                    uncertain_sink->push_back({path, lo, nominal, hi, nt::quantum, nt::type,
                                               [](std::uint64_t b) { return nt::format(nt::from_base(b)); },
                                               [](const std::string& t) { return nt::to_base(nt::parse(t)); }, {}});
                out.*m_member = checked(n, path, nominal_text);
                return;
            } else {
                throw config_error(n->loc, path, "'" + n->text + "' gives a range, but " + tr::type + " values cannot vary",
                                   "a single value: ranges (NOMINAL ~ LO..HI) are for numbers and quantities");
            }
        }
        out.*m_member = checked(n, path, n->text);
    }

    node dump(const S& in) const override {
        if constexpr (is_optional<T>::value) {
            if (!(in.*m_member)) return node{};
        }
        return node::scalar(value_traits<T>::format(in.*m_member), value_traits<T>::style);
    }

    void list(std::vector<param_info>& out, const std::string& path) const override {
        using tr = value_traits<T>;
        std::string constraint = m_range ? range_text() : "";
        if constexpr (std::is_enum_v<T>) constraint = "one of " + tr::choices();
        for (const auto& r : m_rules) constraint += (constraint.empty() ? "" : "; ") + r.second;
        out.push_back({path, tr::type, tr::unit, m_default ? tr::format(*m_default) : "(required)", constraint,
                       this->desc});
    }

private:
    template <class V>
    struct unwrap {
        using type = V;
    };
    template <class V>
    struct unwrap<std::optional<V>> {
        using type = V;
    };
    template <class V, class = void>
    struct numeric_probe : std::false_type {};
    template <class V>
    struct numeric_probe<V, std::void_t<decltype(value_traits<V>::numeric)>> : std::true_type {};
    static constexpr bool has_numeric() { return numeric_probe<typename unwrap<T>::type>::value; }

    // One value's text, parsed and checked against the declared range and rules.
    T checked(const node* n, const std::string& path, const std::string& text) const {
        T v;
        try {
            v = value_traits<T>::parse(text);
        } catch (const value_error& e) {
            throw config_error(n->loc, path, e.problem, e.expected);
        }
        if (m_range && (v < m_range->first || m_range->second < v))
            throw config_error(n->loc, path, "'" + text + "' is out of range", range_text());
        for (const auto& r : m_rules)
            if (!r.first(v)) throw config_error(n->loc, path, "'" + text + "' is not allowed", r.second);
        return v;
    }

    std::string range_text() const {
        return "between " + value_traits<T>::format(m_range->first) + " and " +
               value_traits<T>::format(m_range->second);
    }
    std::string expected_text() const {
        using tr = value_traits<T>;
        const std::string type = tr::type;
        std::string s = (type.find_first_of("aeiou") == 0 ? "an " : "a ") + type;
        if (*tr::unit) s += " in " + std::string(tr::unit);
        if (m_range) s += ", " + range_text();
        if constexpr (std::is_enum_v<T>) s += ": one of " + tr::choices();
        return s;
    }

    T S::*m_member;
    std::optional<T> m_default;
    std::optional<std::pair<T, T>> m_range;
    std::vector<std::pair<std::function<bool(const T&)>, std::string>> m_rules;
};

template <class S, class U>
class group : public field<S> {
public:
    explicit group(U S::*m) : m_member(m) {}
    void load(S& out, const node* n, const std::string& path, const source_loc& parent) const override {
        schema_of<U>().load(out.*m_member, n, path, n ? n->loc : parent);
    }
    node dump(const S& in) const override { return schema_of<U>().dump(in.*m_member); }
    void list(std::vector<param_info>& out, const std::string& path) const override {
        schema_of<U>().list(out, path);
    }

private:
    U S::*m_member;
};

template <class S, class U>
class named_group : public field<S> {
public:
    named_group(named_list<U> S::*m, std::string placeholder, std::size_t min_items)
        : m_member(m), m_placeholder(std::move(placeholder)), m_min(min_items) {}
    void load(S& out, const node* n, const std::string& path, const source_loc& parent) const override {
        auto& list = out.*m_member;
        list.items.clear();
        const std::string expected = "a map of " + m_placeholder + " names to their settings";
        if (!n) {
            if (m_min > 0) fail_missing(parent, path, expected);
            return;
        }
        if (n->k == node::kind::null) throw config_error(n->loc, path, "no value given", expected);
        if (n->k != node::kind::map) throw config_error(n->loc, path, std::string("found ") + n->kind_name(), expected);
        if (n->entries.size() < m_min)
            throw config_error(n->loc, path, "needs at least " + std::to_string(m_min) + " entries", expected);
        std::vector<std::string> names;
        for (const auto& [name, child] : n->entries) names.push_back(name);
        for (const auto& [name, child] : n->entries) {
            check_name(name, child, path);
            // An override (its origin "--set #1", "--vary ...") that makes a
            // new entry next to one of nearly the same name is a typo far
            // more often than a new entry: refuse it, naming the close one.
            if (child.key_loc.file.rfind("--", 0) == 0) {
                std::vector<std::string> from_files;
                for (const auto& [o, c] : n->entries)
                    if (o != name && c.key_loc.file.rfind("--", 0) != 0) from_files.push_back(o);
                const std::string near = typo_of(name, from_files);
                if (!near.empty())
                    throw config_error(child.key_loc, join_path(path, name),
                                       "a new " + m_placeholder + " '" + name + "', nearly the name of '" + near + "'",
                                       "the existing " + m_placeholder + " '" + near + "', or a new " + m_placeholder +
                                           " whose name is not this close to another");
            }
            U u{};
            try {
                schema_of<U>().load(u, &child, join_path(path, name), child.loc);
            } catch (const config_error& e) {
                // A misspelt name (a --set to clusters.litle.freq) makes a new,
                // incomplete entry: say which one was probably meant.
                std::vector<std::string> others;
                for (const auto& o : names)
                    if (o != name) others.push_back(o);
                const std::string near = closest_name(name, others);
                if (near.empty() || e.problem().find("required key is missing") == std::string::npos) throw;
                throw config_error(e.loc(), e.path(),
                                   e.problem() + " (is '" + name + "' a new " + m_placeholder + "? did you mean '" + near + "'?)",
                                   e.expected());
            }
            list.items.emplace_back(name, std::move(u));
        }
    }
    node dump(const S& in) const override {
        node m = node::map();
        for (const auto& [name, u] : (in.*m_member).items) m.set(name, schema_of<U>().dump(u));
        return m;
    }
    void list(std::vector<param_info>& out, const std::string& path) const override {
        schema_of<U>().list(out, join_path(path, "<" + m_placeholder + ">"));
    }

private:
    named_list<U> S::*m_member;
    std::string m_placeholder;
    std::size_t m_min;
};

// A list of structs (e.g. the threads of a workload), paths PATH.INDEX.KEY.
template <class S, class U>
class list_group : public field<S> {
public:
    list_group(std::vector<U> S::*m, std::size_t min_items) : m_member(m), m_min(min_items) {}
    void load(S& out, const node* n, const std::string& path, const source_loc& parent) const override {
        auto& list = out.*m_member;
        list.clear();
        const std::string expected = "a list of maps, e.g. [{...}, {...}]";
        if (!n) {
            if (m_min > 0) fail_missing(parent, path, expected);
            return;
        }
        if (n->k == node::kind::null) throw config_error(n->loc, path, "no value given", expected);
        if (n->k != node::kind::seq) throw config_error(n->loc, path, std::string("found ") + n->kind_name(), expected);
        if (n->items.size() < m_min)
            throw config_error(n->loc, path, "needs at least " + std::to_string(m_min) + " entries", expected);
        for (std::size_t i = 0; i < n->items.size(); ++i) {
            U u{};
            schema_of<U>().load(u, &n->items[i], join_path(path, std::to_string(i)), n->items[i].loc);
            list.push_back(std::move(u));
        }
    }
    node dump(const S& in) const override {
        node l = node::seq();
        for (const auto& u : in.*m_member) l.items.push_back(schema_of<U>().dump(u));
        return l;
    }
    void list(std::vector<param_info>& out, const std::string& path) const override {
        schema_of<U>().list(out, join_path(path, "<n>"));
    }

private:
    std::vector<U> S::*m_member;
    std::size_t m_min;
};

// A map of names to integers (e.g. a program's .equ overrides).
template <class S>
class int_map_field : public field<S> {
public:
    explicit int_map_field(std::map<std::string, std::int64_t> S::*m) : m_member(m) {}
    void load(S& out, const node* n, const std::string& path, const source_loc&) const override {
        auto& map = out.*m_member;
        map.clear();
        if (!n) return;
        const std::string expected = "a map of names to integers, e.g. {THRESHOLD: 10000}";
        if (n->k == node::kind::null) throw config_error(n->loc, path, "no value given", expected);
        if (n->k != node::kind::map) throw config_error(n->loc, path, std::string("found ") + n->kind_name(), expected);
        for (const auto& [name, v] : n->entries) {
            const std::string p = join_path(path, name);
            if (v.k != node::kind::scalar) throw config_error(v.loc, p, std::string("found ") + v.kind_name(), "an integer");
            const source_loc& at = v.loc;  // (a structured binding is not captured by a lambda before C++20)
            auto integer = [&](const std::string& text) -> long long {
                try {
                    std::size_t used = 0;
                    const long long x = std::stoll(text, &used, 0);
                    if (used != text.size()) throw std::invalid_argument("trailing");
                    return x;
                } catch (const std::exception&) {
                    throw config_error(at, p, "'" + text + "' is not an integer", "an integer, e.g. 10000 or 0x10000");
                }
            };
            std::string nominal, lo_text, hi_text;
            bool ranged = false;
            try {
                ranged = split_uncertain(v.text, nominal, lo_text, hi_text);
            } catch (const value_error& e) {
                throw config_error(v.loc, p, e.problem, e.expected);
            }
            if (!ranged) {
                map[name] = integer(v.text);
                continue;
            }
            // NOMINAL ~ LO..HI: as for any number (uncertain_param), whole and not negative.
            const long long nom = integer(nominal), lo = integer(lo_text), hi = integer(hi_text);
            if (lo < 0 || !(lo <= nom && nom <= hi))
                throw config_error(v.loc, p, "the range " + lo_text + ".." + hi_text + " does not hold " + nominal,
                                   "NOMINAL ~ LO..HI with 0 <= LO <= NOMINAL <= HI, e.g. 200 ~ 150..250");
            if (uncertain_sink)
                uncertain_sink->push_back({p, static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(nom),
                                           static_cast<std::uint64_t>(hi), 1, "integer",
                                           [](std::uint64_t b) { return std::to_string(b); },
                                           [](const std::string& t) {
                                               std::size_t used = 0;
                                               std::uint64_t v = 0;
                                               try {
                                                   v = std::stoull(t, &used);
                                               } catch (const std::exception&) {
                                               }
                                               if (used == 0 || used != t.size() || t[0] == '-')
                                                   throw value_error{"'" + t + "' is not a whole number", "an integer such as 200"};
                                               return v;
                                           },
                                           {}});
            map[name] = nom;
        }
    }
    node dump(const S& in) const override {
        node m = node::map();
        for (const auto& [k, v] : in.*m_member) m.set(k, node::scalar(std::to_string(v), node::style::number));
        return m;
    }
    void list(std::vector<param_info>& out, const std::string& path) const override {
        out.push_back({path, "map", "", "{}", "names to integers", this->desc});
    }

private:
    std::map<std::string, std::int64_t> S::*m_member;
};

template <class S>
class struct_schema {
public:
    template <class T>
    leaf<S, T>& param(const char* key, T S::*member, const char* desc) {
        auto f = std::make_unique<leaf<S, T>>(member);
        auto& ref = *f;
        add(std::move(f), key, desc);
        return ref;
    }
    template <class U>
    void sub(const char* key, U S::*member, const char* desc) {
        add(std::make_unique<group<S, U>>(member), key, desc);
    }
    template <class U>
    void named(const char* key, named_list<U> S::*member, const char* placeholder, std::size_t min_items,
               const char* desc) {
        add(std::make_unique<named_group<S, U>>(member, placeholder, min_items), key, desc);
    }
    void int_map(const char* key, std::map<std::string, std::int64_t> S::*member, const char* desc) {
        add(std::make_unique<int_map_field<S>>(member), key, desc);
    }
    template <class U>
    void sequence(const char* key, std::vector<U> S::*member, std::size_t min_items, const char* desc) {
        add(std::make_unique<list_group<S, U>>(member, min_items), key, desc);
    }
    // A rule over several keys of this struct, run after they are loaded.
    // Throw config_error from it; `n` is this struct's map (may be null).
    void rule(std::function<void(const S&, const node* n, const std::string& path)> r) {
        m_rules.push_back(std::move(r));
    }
    // Fills values that depend on other keys (e.g. a core type's preset) after
    // loading, so the effective config shows them.
    void finish(std::function<void(S&)> f) { m_finish.push_back(std::move(f)); }

    void load(S& out, const node* n, const std::string& path, const source_loc& parent) const {
        if (n && n->k == node::kind::null)
            throw config_error(n->loc, path, "no value given", "a map of keys: " + key_list());
        if (n && n->k != node::kind::map)
            throw config_error(n->loc, path, std::string("found ") + n->kind_name(), "a map of keys: " + key_list());
        const node* m = n;
        check_map(m, path, m_keys);
        for (const auto& f : m_fields)
            f->load(out, m ? m->find(f->key) : nullptr, join_path(path, f->key), m ? m->loc : parent);
        for (const auto& f : m_finish) f(out);
        for (const auto& r : m_rules) r(out, m, path);
    }
    node dump(const S& in) const {
        node m = node::map();
        for (const auto& f : m_fields) m.set(f->key, f->dump(in));
        return m;
    }
    void list(std::vector<param_info>& out, const std::string& path) const {
        for (const auto& f : m_fields) f->list(out, join_path(path, f->key));
    }

private:
    void add(std::unique_ptr<field<S>> f, const char* key, const char* desc) {
        f->key = key;
        f->desc = desc;
        m_keys.push_back(key);
        m_fields.push_back(std::move(f));
    }
    std::string key_list() const {
        std::string s;
        for (const auto& k : m_keys) s += (s.empty() ? "" : ", ") + k;
        return s;
    }

    std::vector<std::unique_ptr<field<S>>> m_fields;
    std::vector<std::string> m_keys;
    std::vector<std::function<void(const S&, const node*, const std::string&)>> m_rules;
    std::vector<std::function<void(S&)>> m_finish;
};

// Whole-document helpers.
// `uncertain`, when given, receives every value written NOMINAL ~ LO..HI.
template <class S>
S load_config(const node& root, std::vector<uncertain_param>* uncertain = nullptr) {
    S s{};
    struct restore {
        std::vector<uncertain_param>* old;
        ~restore() { uncertain_sink = old; }
    } r{uncertain_sink};
    uncertain_sink = uncertain;
    schema_of<S>().load(s, &root, "", root.loc);
    return s;
}
template <class S>
node dump_config(const S& s) {
    return schema_of<S>().dump(s);
}
template <class S>
std::vector<param_info> list_params() {
    std::vector<param_info> out;
    schema_of<S>().list(out, "");
    return out;
}

}  // namespace cohsim::cfg

#include "sim/config_tree.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/files.h"

namespace cohsim::cfg {
namespace fs = std::filesystem;

namespace {
std::function<std::string(const std::string&)>& include_finder() {
    static std::function<std::string(const std::string&)> f;
    return f;
}
}  // namespace

void set_include_finder(std::function<std::string(const std::string&)> finder) { include_finder() = std::move(finder); }

std::string source_loc::str() const {
    if (line == 0) return file;
    return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

config_error::config_error(source_loc loc, std::string path, std::string problem, std::string expected)
    : m_loc(std::move(loc)), m_path(std::move(path)), m_problem(std::move(problem)), m_expected(std::move(expected)) {
    m_text = m_loc.str() + ": ";
    if (!m_path.empty()) m_text += m_path + ": ";
    m_text += m_problem;
    if (!m_expected.empty()) m_text += " (expected " + m_expected + ")";
}

node node::scalar(std::string t, style st) {
    node n;
    n.k = kind::scalar;
    n.s = st;
    n.text = std::move(t);
    return n;
}
node node::map() {
    node n;
    n.k = kind::map;
    return n;
}
node node::seq() {
    node n;
    n.k = kind::seq;
    return n;
}

const node* node::find(const std::string& key) const {
    for (const auto& [k2, v] : entries)
        if (k2 == key) return &v;
    return nullptr;
}
node* node::find(const std::string& key) {
    for (auto& [k2, v] : entries)
        if (k2 == key) return &v;
    return nullptr;
}
node& node::set(const std::string& key, node value) {
    if (node* existing = find(key)) return *existing = std::move(value);
    entries.emplace_back(key, std::move(value));
    return entries.back().second;
}
const char* node::kind_name() const {
    switch (k) {
        case kind::null: return "nothing";
        case kind::scalar: return "a scalar";
        case kind::map: return "a map";
        case kind::seq: return "a list";
    }
    return "?";
}

void merge(node& base, const node& over) {
    if (base.k == node::kind::map && over.k == node::kind::map) {
        for (const auto& [key, value] : over.entries) {
            // A key set to an empty map (`params: {}`) replaces: it clears what an included file set.
            const bool clears = value.k == node::kind::map && value.entries.empty();
            if (node* b = base.find(key))
                clears ? void(*b = value) : merge(*b, value);
            else
                base.entries.emplace_back(key, value);
        }
        return;
    }
    base = over;
}

namespace {

source_loc loc_of(const YAML::Mark& m, const std::string& file) {
    if (m.line < 0) return {file, 0, 0};
    return {file, m.line + 1, m.column + 1};
}

struct loader {
    std::vector<std::string> stack;  // canonical paths of files being loaded

    node convert(const YAML::Node& y, const std::string& file, const std::string& dir, const std::string& path) {
        node n;
        n.loc = loc_of(y.Mark(), file);
        switch (y.Type()) {
            case YAML::NodeType::Undefined:
            case YAML::NodeType::Null: n.k = node::kind::null; break;
            case YAML::NodeType::Scalar:
                n.k = node::kind::scalar;
                n.text = y.Scalar();
                break;
            case YAML::NodeType::Sequence:
                n.k = node::kind::seq;
                for (std::size_t i = 0; i < y.size(); ++i)
                    n.items.push_back(convert(y[i], file, dir, path + "." + std::to_string(i)));
                break;
            case YAML::NodeType::Map: {
                n.k = node::kind::map;
                node includes;
                bool has_include = false;
                for (const auto& kv : y) {
                    const source_loc key_loc = loc_of(kv.first.Mark(), file);
                    if (!kv.first.IsScalar())
                        throw config_error(key_loc, path, "a map key must be a plain name", "key: value");
                    const std::string key = kv.first.Scalar();
                    const std::string child_path = path.empty() ? key : path + "." + key;
                    if (n.find(key) || (key == "include" && has_include))
                        throw config_error(key_loc, child_path, "key given twice in the same map",
                                           "each key once");
                    node child = convert(kv.second, file, dir, child_path);
                    child.key_loc = key_loc;
                    // A missing value has no position of its own: point at its key.
                    if (child.k == node::kind::null) child.loc = key_loc;
                    if (key == "include") {
                        has_include = true;
                        includes = std::move(child);
                    } else {
                        n.entries.emplace_back(key, std::move(child));
                    }
                }
                if (has_include) {
                    node base = load_includes(includes, dir, path);
                    merge(base, n);
                    base.loc = n.loc;
                    return base;
                }
                break;
            }
        }
        return n;
    }

    node load_includes(const node& inc, const std::string& dir, const std::string& path) {
        const std::string inc_path = path.empty() ? "include" : path + ".include";
        std::vector<const node*> names;
        if (inc.k == node::kind::scalar) {
            names.push_back(&inc);
        } else if (inc.k == node::kind::seq) {
            for (const auto& item : inc.items) {
                if (item.k != node::kind::scalar)
                    throw config_error(item.loc, inc_path, "an include entry must be a file name",
                                       "a file name, e.g. platforms/asr.yaml");
                names.push_back(&item);
            }
        } else {
            throw config_error(inc.loc, inc_path, std::string("found ") + inc.kind_name(),
                               "a file name or a list of file names");
        }
        node merged = node::map();
        for (const node* name : names) {
            fs::path p = name->text;
            if (p.is_relative()) {
                std::error_code ec;
                p = fs::path(dir) / p;
                if (!fs::exists(p, ec) && include_finder())
                    if (const std::string shipped = include_finder()(name->text); !shipped.empty()) p = shipped;
            }
            node sub = load(p.string(), name->loc, inc_path);
            if (sub.k == node::kind::null) continue;
            if (sub.k != node::kind::map)
                throw config_error(sub.loc, inc_path, "an included file must hold a map of keys",
                                   "key: value lines at the top level");
            merge(merged, sub);
        }
        return merged;
    }

    node load(const std::string& file, const source_loc& from, const std::string& from_path) {
        const std::string key = same_file(file);
        for (std::size_t i = 0; i < stack.size(); ++i) {
            if (stack[i] == key) {
                std::string chain;
                for (std::size_t j = i; j < stack.size(); ++j) chain += fs::path(stack[j]).filename().string() + " -> ";
                chain += fs::path(key).filename().string();
                throw config_error(from, from_path, "include cycle: " + chain, "includes that form no loop");
            }
        }
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            const std::string why = std::strerror(errno);
            if (from.file.empty())
                throw config_error({file, 0, 0}, "", "cannot read config file: " + why, "a readable YAML file");
            throw config_error(from, from_path, "cannot read '" + file + "': " + why,
                               "a readable YAML file, beside the including file or a shipped config by its name "
                               "(platforms/asr_4xa53_4xa73.yaml, or a platform's bare name: asr_4xa53_4xa73)");
        }
        if (fs::is_directory(file))
            throw config_error(from.file.empty() ? source_loc{file, 0, 0} : from, from_path,
                               "'" + file + "' is a directory", "a YAML file");
        std::stringstream ss;
        ss << in.rdbuf();
        stack.push_back(key);
        node n = parse(ss.str(), file, fs::path(file).parent_path().string());
        stack.pop_back();
        return n;
    }

    node parse(const std::string& text, const std::string& name, const std::string& dir) {
        YAML::Node y;
        try {
            y = YAML::Load(text);
        } catch (const YAML::ParserException& e) {
            throw config_error(loc_of(e.mark, name), "", "malformed YAML: " + e.msg, "valid YAML");
        }
        if (y.IsNull() || !y.IsDefined()) {
            node n = node::map();
            n.loc = {name, 1, 1};
            return n;
        }
        return convert(y, name, dir, "");
    }
};

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : path) {
        if (c == '.') {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

void emit(YAML::Emitter& out, const node& n) {
    switch (n.k) {
        case node::kind::null: out << YAML::Null; break;
        case node::kind::scalar: out << n.text; break;
        case node::kind::seq:
            out << YAML::BeginSeq;
            for (const auto& i : n.items) emit(out, i);
            out << YAML::EndSeq;
            break;
        case node::kind::map:
            out << YAML::BeginMap;
            for (const auto& [k, v] : n.entries) {
                out << YAML::Key << k << YAML::Value;
                emit(out, v);
            }
            out << YAML::EndMap;
            break;
    }
}

}  // namespace

node load_file(const std::string& path) {
    loader l;
    return l.load(path, {}, "");
}

node load_text(const std::string& text, const std::string& name, const std::string& base_dir) {
    loader l;
    return l.parse(text, name, base_dir);
}

node* find_path(node& root, const std::string& path) {
    node* cur = &root;
    for (const auto& part : split_path(path)) {
        if (cur->k == node::kind::map) {
            cur = cur->find(part);
        } else if (cur->k == node::kind::seq && !part.empty() && part.size() < 7 &&
                   std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                   std::stoul(part) < cur->items.size()) {
            cur = &cur->items[std::stoul(part)];
        } else {
            return nullptr;
        }
        if (!cur) return nullptr;
    }
    return cur;
}

void apply_override(node& root, const std::string& assignment, const std::string& where) {
    const auto eq = assignment.find('=');
    const std::string expected = "PATH=VALUE, e.g. clusters.little.freq=1248MHz";
    if (eq == std::string::npos)
        throw config_error({where, 1, 1}, "", "'" + assignment + "' has no '='", expected);
    const std::string path = assignment.substr(0, eq);
    const std::string value = assignment.substr(eq + 1);
    const auto parts = split_path(path);
    for (const auto& p : parts)
        if (p.empty() || p == "include")
            throw config_error({where, 1, 1}, path, "not a valid config path", expected);

    loader l;
    node v = l.parse(value, where, ".");
    // A value parsed on its own reports line 1 of the value; shift the column
    // so that it points into the whole PATH=VALUE argument.
    auto shift = [&](auto&& self, node& n) -> void {
        n.loc.file = where;
        n.loc.col += static_cast<int>(eq) + 1;
        if (value.empty()) n.loc = {where, 1, static_cast<int>(eq) + 2};
        for (auto& [k, c] : n.entries) self(self, c);
        for (auto& c : n.items) self(self, c);
    };
    if (value.empty()) v = node{};
    shift(shift, v);

    if (root.k != node::kind::map) root = node::map();
    // A number selects an item of an existing list: workload.threads.1.outside.
    auto index = [&](const node& n, const std::string& part) -> long {
        if (n.k != node::kind::seq || part.empty() || part.size() > 6 ||
            !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return -1;
        const long i = std::stol(part);
        if (i >= static_cast<long>(n.items.size()))
            throw config_error({where, 1, 1}, path, "the list has " + std::to_string(n.items.size()) + " items",
                               "an index from 0 to " + std::to_string(static_cast<long>(n.items.size()) - 1));
        return i;
    };
    node* cur = &root;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        if (const long at = index(*cur, parts[i]); at >= 0) {
            cur = &cur->items[static_cast<std::size_t>(at)];
            if (cur->k != node::kind::map) *cur = node::map();
            continue;
        }
        node* next = cur->find(parts[i]);
        if (!next || (next->k != node::kind::map && next->k != node::kind::seq)) {
            node m = node::map();
            m.loc = {where, 1, 1};
            next = &cur->set(parts[i], std::move(m));
        }
        cur = next;
    }
    v.key_loc = {where, 1, 1};
    if (const long at = index(*cur, parts.back()); at >= 0) {
        cur->items[static_cast<std::size_t>(at)] = std::move(v);
        return;
    }
    if (cur->k == node::kind::seq)
        throw config_error({where, 1, 1}, path, "'" + parts.back() + "' is not an index of this list", "a number");
    cur->set(parts.back(), std::move(v));
}

std::string to_yaml(const node& n) {
    YAML::Emitter out;
    emit(out, n);
    return std::string(out.c_str()) + "\n";
}

}  // namespace cohsim::cfg

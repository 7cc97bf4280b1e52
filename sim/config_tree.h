// The config document before it meets the schema: a tree of maps, sequences
// and scalar texts, each node remembering where it came from (file, line,
// column) so that every later error can point at the text that caused it.
//
// Loading resolves `include:` (a file name or a list of them, relative to the
// including file) at any map level: the included files' maps are merged in
// order, then the including map's own keys override them. Overrides given as
// `PATH=VALUE` (the `--set` option) are applied to the merged tree with the
// same value syntax as the files.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cohsim::cfg {

struct source_loc {
    std::string file;
    int line = 0;  // 1-based; 0 = no position (whole file)
    int col = 0;   // 1-based
    std::string str() const;
};

// "FILE:LINE:COL: path.to.key: what is wrong (expected ...)"
class config_error : public std::exception {
public:
    config_error(source_loc loc, std::string path, std::string problem, std::string expected = {});
    const char* what() const noexcept override { return m_text.c_str(); }
    const source_loc& loc() const { return m_loc; }
    const std::string& path() const { return m_path; }
    const std::string& problem() const { return m_problem; }
    const std::string& expected() const { return m_expected; }

private:
    source_loc m_loc;
    std::string m_path, m_problem, m_expected, m_text;
};

struct node {
    enum class kind { null, scalar, map, seq };
    // How a scalar should be written out (YAML/JSON); parsing treats all as text.
    enum class style { text, number, boolean };

    kind k = kind::null;
    style s = style::text;
    std::string text;                                   // scalar
    std::vector<std::pair<std::string, node>> entries;  // map, in document order
    std::vector<node> items;                            // seq
    source_loc loc;                                     // where the value starts
    source_loc key_loc;                                 // where its key is, inside a map

    static node scalar(std::string t, style st = style::text);
    static node map();
    static node seq();

    const node* find(const std::string& key) const;
    node* find(const std::string& key);
    node& set(const std::string& key, node value);  // insert or replace, keeps order
    const char* kind_name() const;
};

// Loads a YAML file with includes resolved. Throws config_error.
node load_file(const std::string& path);
// Where an `include:` that names no file beside the including one is looked
// for next (the application sets it: the shipped configs by name, e.g.
// `include: platforms/rk3588_4xa55_4xa76.yaml` or `include: rk3588_4xa55_4xa76`).
// The finder returns a path, or "" for none.
void set_include_finder(std::function<std::string(const std::string&)> finder);
// Loads YAML text; `name` is used in messages and `base_dir` for includes.
node load_text(const std::string& text, const std::string& name, const std::string& base_dir);

// Deep merge: maps merge key by key, anything else in `over` replaces.
void merge(node& base, const node& over);

// Applies "a.b.c=VALUE". `origin` names the override in messages in place of
// a file name, e.g. "--set #2" or "--duration".
void apply_override(node& root, const std::string& assignment, const std::string& origin);

// The node at "a.b.0.c" (maps by key, lists by index), or null.
node* find_path(node& root, const std::string& path);

// Writers for the effective config.
std::string to_yaml(const node& n);

}  // namespace cohsim::cfg

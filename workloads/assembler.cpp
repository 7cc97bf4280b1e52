#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>

#include "workloads/program.h"

namespace cohsim::asmx {
namespace {

namespace fs = std::filesystem;
using cfg::config_error;
using cfg::source_loc;

// One source statement after includes and macros, with where it came from.
struct line {
    std::string text;
    source_loc loc;  // column 1 of the statement's line
};

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string strip_comment(const std::string& s) {
    std::size_t cut = s.size();
    for (const char* c : {"//", ";", "@"}) {
        const auto p = s.find(c);
        if (p != std::string::npos) cut = std::min(cut, p);
    }
    return s.substr(0, cut);
}

bool is_ident(const std::string& s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_' || s[0] == '.')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    });
}

// ---- pass 0: includes and macros ----

struct macro {
    std::vector<std::string> params;
    std::vector<line> body;
};

class reader {
public:
    explicit reader(std::vector<std::string> search = {}) : m_search(std::move(search)) {}
    std::vector<line> lines;

    void file(const std::string& path, const source_loc& from, const std::string& from_text) {
        std::error_code ec;
        const std::string key = fs::weakly_canonical(path, ec).string();
        if (std::find(m_stack.begin(), m_stack.end(), key) != m_stack.end())
            throw config_error(from, from_text, "include cycle through '" + path + "'", "includes that form no loop");
        if (path.rfind("lib:", 0) == 0) {
            const std::string name = fs::path(path.substr(4)).lexically_normal().generic_string();
            auto it = library().find(name);
            if (it == library().end()) {
                std::string names;
                for (const auto& [n, t] : library()) names += (names.empty() ? "" : ", ") + n;
                throw config_error(from.file.empty() ? source_loc{path, 0, 0} : from, from_text,
                                   "no '" + name + "' in the built-in library", "one of " + names);
            }
            m_stack.push_back(key);
            text(it->second, "lib:" + name, "lib:" + fs::path(name).parent_path().generic_string());
            m_stack.pop_back();
            return;
        }
        std::ifstream in(path);
        if (!in) {
            const std::string why = std::strerror(errno);
            if (from.file.empty())
                throw config_error({path, 0, 0}, "", "cannot read program: " + why, "a readable assembly file");
            throw config_error(from, from_text, "cannot read '" + path + "': " + why, "a readable assembly file");
        }
        std::stringstream ss;
        ss << in.rdbuf();
        m_stack.push_back(key);
        text(ss.str(), path, fs::path(path).parent_path().string());
        m_stack.pop_back();
    }

    void text(const std::string& t, const std::string& name, const std::string& dir) {
        std::istringstream in(t);
        std::string raw;
        int n = 0;
        while (std::getline(in, raw)) {
            ++n;
            const source_loc loc{name, n, 1};
            const std::string s = trim(strip_comment(raw));
            if (s.empty()) continue;
            statement(s, loc, dir, raw);
        }
        if (m_defining) throw config_error(m_macro_loc, ".macro " + m_macro_name, "no .endm before the end of the file", ".endm");
    }

private:
    std::vector<std::string> m_search;
    void statement(const std::string& s, const source_loc& loc, const std::string& dir, const std::string& raw) {
        const std::string word = lower(s.substr(0, s.find_first_of(" \t")));
        const std::string rest = trim(s.size() > word.size() ? s.substr(word.size()) : "");
        const source_loc at{loc.file, loc.line, static_cast<int>(raw.find_first_not_of(" \t")) + 1};
        if (m_defining) {
            if (word == ".endm") {
                m_defining = false;
                return;
            }
            if (word == ".macro") throw config_error(at, s, "a macro cannot be defined inside another", ".endm first");
            m_macros[m_macro_name].body.push_back({s, at});
            return;
        }
        if (word == ".include") {
            if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"')
                throw config_error(at, s, "the file name must be in double quotes", ".include \"common.s\"");
            const std::string name = rest.substr(1, rest.size() - 2);
            const auto found = find_source(name, dir, m_search);
            if (!found) throw config_error(at, s, "cannot find '" + name + "': " + not_found_text(name, dir, m_search),
                                           "a file in one of those places, or lib:NAME for the built-in library");
            file(*found, at, s);
            return;
        }
        if (word == ".macro") {
            std::string name = trim(rest.substr(0, rest.find_first_of(" \t,")));
            if (!is_ident(name)) throw config_error(at, s, "'" + name + "' is not a macro name", ".macro name, arg, ...");
            macro m;
            std::string params = trim(rest.substr(name.size()));
            if (!params.empty() && params[0] == ',') params = trim(params.substr(1));
            std::stringstream ps(params);
            std::string p;
            while (std::getline(ps, p, ',')) {
                p = trim(p);
                if (p.empty()) continue;
                if (!is_ident(p)) throw config_error(at, s, "'" + p + "' is not a parameter name", "names like count, reg");
                m.params.push_back(p);
            }
            m_macros[lower(name)] = m;
            m_defining = true;
            m_macro_name = lower(name);
            m_macro_loc = at;
            return;
        }
        if (word == ".endm") throw config_error(at, s, ".endm without .macro", ".macro name ... .endm");
        auto it = m_macros.find(word);
        if (it != m_macros.end()) {
            expand(it->second, rest, at, s, dir);
            return;
        }
        lines.push_back({s, at});
    }

    void expand(const macro& m, const std::string& args_text, const source_loc& at, const std::string& s,
                const std::string& dir) {
        if (++m_depth > 64) throw config_error(at, s, "macros nested too deeply (a macro calling itself?)", "at most 64 levels");
        std::vector<std::string> args;
        std::string cur;
        int depth = 0;
        for (char c : args_text) {
            if (c == '[') ++depth;
            if (c == ']') --depth;
            if (c == ',' && depth == 0) {
                args.push_back(trim(cur));
                cur.clear();
            } else {
                cur += c;
            }
        }
        if (!trim(cur).empty()) args.push_back(trim(cur));
        if (args.size() != m.params.size())
            throw config_error(at, s, "takes " + std::to_string(m.params.size()) + " arguments, got " + std::to_string(args.size()),
                               std::to_string(m.params.size()) + " arguments");
        for (const line& l : m.body) {
            std::string t = l.text;
            for (std::size_t i = 0; i < m.params.size(); ++i) {
                const std::string key = "\\" + m.params[i];
                for (std::size_t p = t.find(key); p != std::string::npos; p = t.find(key, p + args[i].size()))
                    t.replace(p, key.size(), args[i]);
            }
            // Expanded lines report the macro call's position.
            statement(t, at, dir, std::string(static_cast<std::size_t>(at.col - 1), ' ') + t);
        }
        --m_depth;
    }

    std::vector<std::string> m_stack;
    std::map<std::string, macro> m_macros;
    bool m_defining = false;
    std::string m_macro_name;
    source_loc m_macro_loc;
    int m_depth = 0;
};

// ---- statements ----

struct operand {
    std::string text;
    int col;
};

struct stmt {
    std::string label, mnemonic, text;
    std::vector<operand> ops;
    source_loc loc, mnemonic_loc;
};

stmt split(const line& l) {
    stmt st;
    st.loc = l.loc;
    st.text = l.text;
    std::string s = l.text;
    int col = l.loc.col;
    // label:
    const auto colon = s.find(':');
    if (colon != std::string::npos && is_ident(trim(s.substr(0, colon))) && s.find('[') > colon) {
        st.label = trim(s.substr(0, colon));
        const std::string after = s.substr(colon + 1);
        const auto skip = after.find_first_not_of(" \t");
        col += static_cast<int>(colon + 1 + (skip == std::string::npos ? 0 : skip));
        s = trim(after);
    }
    st.text = l.text;  // the whole statement, label included, for messages
    if (s.empty()) return st;
    const auto sp = s.find_first_of(" \t");
    st.mnemonic = lower(s.substr(0, sp));
    st.mnemonic_loc = {l.loc.file, l.loc.line, col};
    if (sp == std::string::npos) return st;
    std::string rest = s.substr(sp);
    int c = col + static_cast<int>(sp);
    std::string cur;
    int cur_col = -1, depth = 0;
    for (char ch : rest) {
        if (ch == '[') ++depth;
        if (ch == ']') --depth;
        if (ch == ',' && depth == 0) {
            st.ops.push_back({trim(cur), cur_col < 0 ? c : cur_col});
            cur.clear();
            cur_col = -1;
        } else {
            if (cur_col < 0 && !std::isspace(static_cast<unsigned char>(ch))) cur_col = c;
            cur += ch;
        }
        ++c;
    }
    if (!trim(cur).empty() || !st.ops.empty()) st.ops.push_back({trim(cur), cur_col < 0 ? c : cur_col});
    return st;
}

// ---- the assembler proper ----

struct mem_form {
    op o;
    unsigned size;  // 0: from the register
    bool acquire, release;
};

const std::map<std::string, mem_form>& memory_mnemonics() {
    static const std::map<std::string, mem_form> m = [] {
        std::map<std::string, mem_form> t;
        const std::pair<const char*, unsigned> sizes[] = {{"", 0}, {"b", 1}, {"h", 2}};
        for (const auto& [sfx, sz] : sizes) {
            const std::string s = sfx;
            t["ldr" + s] = {op::ldr, sz, false, false};
            t["str" + s] = {op::str, sz, false, false};
            t["ldar" + s] = {op::ldar, sz, true, false};
            t["ldapr" + s] = {op::ldapr, sz, true, false};
            t["stlr" + s] = {op::stlr, sz, false, true};
            t["ldxr" + s] = {op::ldxr, sz, false, false};
            t["ldaxr" + s] = {op::ldxr, sz, true, false};
            t["stxr" + s] = {op::stxr, sz, false, false};
            t["stlxr" + s] = {op::stxr, sz, false, true};
            const std::pair<const char*, std::pair<bool, bool>> orders[] = {
                {"", {false, false}}, {"a", {true, false}}, {"l", {false, true}}, {"al", {true, true}}};
            // The LD<op> read-modify-writes and their ST<op> aliases (no
            // result: Rt is the zero register; plain or release only).
            const std::pair<const char*, op> rmw[] = {{"add", op::ldadd}, {"set", op::ldset},  {"clr", op::ldclr},
                                                      {"eor", op::ldeor}, {"smax", op::ldsmax}, {"smin", op::ldsmin},
                                                      {"umax", op::ldumax}, {"umin", op::ldumin}};
            for (const auto& [o, ar] : orders) {
                const std::string os = o;
                t["cas" + os + s] = {op::cas, sz, ar.first, ar.second};
                t["swp" + os + s] = {op::swp, sz, ar.first, ar.second};
                for (const auto& [name, code] : rmw) t["ld" + std::string(name) + os + s] = {code, sz, ar.first, ar.second};
            }
            for (const auto& [name, code] : rmw) {
                t["st" + std::string(name) + s] = {code, sz, false, false};
                t["st" + std::string(name) + "l" + s] = {code, sz, false, true};
            }
        }
        return t;
    }();
    return m;
}

const std::map<std::string, cond>& conditions() {
    static const std::map<std::string, cond> m = {
        {"eq", cond::eq}, {"ne", cond::ne}, {"hs", cond::hs}, {"cs", cond::hs}, {"lo", cond::lo}, {"cc", cond::lo},
        {"mi", cond::mi}, {"pl", cond::pl}, {"vs", cond::vs}, {"vc", cond::vc}, {"hi", cond::hi}, {"ls", cond::ls},
        {"ge", cond::ge}, {"lt", cond::lt}, {"gt", cond::gt}, {"le", cond::le}, {"al", cond::al}};
    return m;
}

// The opposite condition (eq <-> ne, hs <-> lo, ...): the encodings pair them.
cond inverted(cond c) {
    switch (c) {
        case cond::eq: return cond::ne;
        case cond::ne: return cond::eq;
        case cond::hs: return cond::lo;
        case cond::lo: return cond::hs;
        case cond::mi: return cond::pl;
        case cond::pl: return cond::mi;
        case cond::vs: return cond::vc;
        case cond::vc: return cond::vs;
        case cond::hi: return cond::ls;
        case cond::ls: return cond::hi;
        case cond::ge: return cond::lt;
        case cond::lt: return cond::ge;
        case cond::gt: return cond::le;
        case cond::le: return cond::gt;
        case cond::al: return cond::al;
    }
    return c;
}

class assembler {
public:
    assembler(const std::map<std::string, std::int64_t>& overrides) : m_overrides(overrides) {}

    program run(const std::vector<line>& lines, const std::string& name) {
        std::vector<stmt> stmts;
        for (const line& l : lines) stmts.push_back(split(l));
        stmts = conditional(stmts);
        pass1(stmts);
        for (const auto& [k, v] : m_overrides)
            if (!m_prog.constants.count(k))
                throw config_error({name, 0, 0}, k, "the program has no .equ " + k + " to set",
                                   "a constant the program declares; drop it from workload.params or the thread's params, e.g. "
                                   "--set workload.params={}");
        for (const auto& [k, v] : m_overrides) m_prog.constants[k] = v;
        pass2(stmts);
        if (m_prog.code.empty()) throw config_error({name, 0, 0}, "", "the program has no instructions", "at least one instruction");
        m_prog.file = name;
        return m_prog;
    }

private:
    [[noreturn]] void fail(const source_loc& at, const stmt& st, const std::string& what, const std::string& expected) {
        throw config_error(at, st.text, what, expected);
    }
    source_loc col(const stmt& st, int c) const { return {st.loc.file, st.loc.line, c}; }

    // Pass 1: labels, constants, data layout; count instructions.
    // Conditional assembly: the statements of the branches whose `.if EXPR`
    // holds (EXPR a number or an .equ name, the scenario's override applied;
    // nonzero holds), or whose `.ifdef NAME` / `.ifndef NAME` finds NAME
    // defined / not defined by an .equ before it, as GNU as does. A program keeps two builds in one file
    // this way (e.g. `.if LSE`), with no run-time cost in either.
    std::vector<stmt> conditional(const std::vector<stmt>& stmts) {
        struct level {
            bool parent, taken, in_else;
            const stmt* at;
        };
        std::vector<level> open;
        std::vector<stmt> out;
        bool on = true;
        for (const stmt& st : stmts) {
            const std::string& m = st.mnemonic;
            if (m == ".if" || m == ".ifdef" || m == ".ifndef") {
                if (m != ".if") {  // whether an .equ before this line defines NAME
                    if (st.ops.size() != 1 || !is_ident(st.ops[0].text))
                        fail(st.mnemonic_loc, st, m + " takes one name", m + " NAME");
                } else if (st.ops.size() != 1) {
                    fail(st.mnemonic_loc, st, ".if takes one value", ".if NAME or .if 1");
                }
                const bool defined = m != ".if" && m_prog.constants.count(st.ops[0].text) > 0;
                const bool holds = on && (m == ".if" ? value(st, st.ops[0], false) != 0 : m == ".ifdef" ? defined : !defined);
                open.push_back({on, holds, false, &st});
                on = holds;
                continue;
            }
            if (m == ".else" || m == ".endif") {
                if (open.empty()) fail(st.mnemonic_loc, st, m + " without .if", ".if NAME ... " + m);
                if (m == ".else") {
                    if (open.back().in_else) fail(st.mnemonic_loc, st, "a second .else", "one .else per .if");
                    open.back().in_else = true;
                    on = open.back().parent && !open.back().taken;
                } else {
                    on = open.back().parent;
                    open.pop_back();
                }
                continue;
            }
            if (!on) continue;
            // An .equ before a later .if: its value (the override if any) is known now.
            if (m == ".equ" && st.ops.size() == 2 && is_ident(st.ops[0].text)) {
                const auto o = m_overrides.find(st.ops[0].text);
                m_prog.constants[st.ops[0].text] = o != m_overrides.end() ? o->second : value(st, st.ops[1], false);
            }
            out.push_back(st);
        }
        if (!open.empty()) fail(open.back().at->mnemonic_loc, *open.back().at, ".if without .endif", ".endif after the block");
        m_prog.constants.clear();  // pass1 defines them again, in order
        return out;
    }

    void pass1(const std::vector<stmt>& stmts) {
        bool in_data = false, priv = false;
        std::size_t n = 0;
        for (const stmt& st : stmts) {
            if (!st.label.empty()) {
                if (m_prog.labels.count(st.label) || has_symbol(st.label))
                    fail(st.loc, st, "label '" + st.label + "' defined twice", "each label once");
                if (in_data) {
                    auto& area = priv ? m_prog.private_init : m_prog.shared_init;
                    m_prog.symbols.push_back({st.label, priv, area.size()});
                } else {
                    m_prog.labels[st.label] = n;
                }
            }
            const std::string& m = st.mnemonic;
            if (m.empty()) continue;
            if (m == ".data") in_data = true;
            else if (m == ".text") in_data = false;
            else if (m == ".shared") priv = false;
            else if (m == ".private") priv = true;
            else if (m == ".equ") equ(st);
            else if (m == ".align" || m == ".byte" || m == ".hword" || m == ".word" || m == ".quad" || m == ".space") {
                if (!in_data) fail(st.mnemonic_loc, st, m + " outside .data", ".data before data directives");
                data(st, priv ? m_prog.private_init : m_prog.shared_init);
            } else if (m[0] == '.') {
                fail(st.mnemonic_loc, st, "unknown directive '" + m + "'",
                     ".equ .if .ifdef .ifndef .else .endif .include .macro .data .text .shared .private .align .byte .hword .word .quad .space");
            } else {
                if (in_data) fail(st.mnemonic_loc, st, "an instruction in .data", ".text before instructions");
                ++n;
            }
        }
    }

    bool has_symbol(const std::string& n) const {
        return std::any_of(m_prog.symbols.begin(), m_prog.symbols.end(), [&](const auto& s) { return s.name == n; });
    }

    void equ(const stmt& st) {
        if (st.ops.size() != 2 || !is_ident(st.ops[0].text))
            fail(st.mnemonic_loc, st, "malformed .equ", ".equ NAME, value");
        m_prog.constants[st.ops[0].text] = value(st, st.ops[1], false);
    }

    void data(const stmt& st, std::vector<std::uint8_t>& area) {
        const std::string& m = st.mnemonic;
        if (st.ops.size() != 1) fail(st.mnemonic_loc, st, m + " takes one value", m + " value");
        const std::int64_t v = value(st, st.ops[0], false);
        if (m == ".align") {
            if (v <= 0 || (v & (v - 1)) != 0 || v > 4096)
                fail(col(st, st.ops[0].col), st, "alignment " + std::to_string(v) + " is not a power of two up to 4096",
                     ".align 64");
            while (area.size() % static_cast<std::size_t>(v)) area.push_back(0);
            return;
        }
        if (m == ".space") {
            if (v < 0 || v > (1 << 26))
                fail(col(st, st.ops[0].col), st, "size " + std::to_string(v) + " is not between 0 and 64 MiB", ".space 64");
            area.insert(area.end(), static_cast<std::size_t>(v), 0);
            return;
        }
        const unsigned bytes = m == ".byte" ? 1 : m == ".hword" ? 2 : m == ".word" ? 4 : 8;
        for (unsigned i = 0; i < bytes; ++i) area.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (8 * i)));
    }

    // A number: decimal, 0x hex, negative, or an .equ name; with '#' when `hash`.
    std::int64_t value(const stmt& st, const operand& o, bool hash) {
        std::string t = o.text;
        if (hash) {
            if (t.empty() || t[0] != '#') fail(col(st, o.col), st, "'" + t + "' is not an immediate", "#value, e.g. #1 or #0x10000");
            t = t.substr(1);
        } else if (!t.empty() && t[0] == '#') {
            t = t.substr(1);
        }
        if (m_prog.constants.count(t)) return m_prog.constants.at(t);
        bool neg = false;
        if (!t.empty() && t[0] == '-') neg = true, t = t.substr(1);
        int base = 10;
        if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) base = 16, t = t.substr(2);
        if (t.empty()) fail(col(st, o.col), st, "missing value", "a number or an .equ name");
        errno = 0;
        char* end = nullptr;
        const unsigned long long v = std::strtoull(t.c_str(), &end, base);
        if (*end != '\0' || errno == ERANGE)
            fail(col(st, o.col), st, "'" + o.text + "' is not a number or a known constant",
                 "a decimal or 0x number, or a name set by .equ before this line");
        return neg ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
    }

    struct reg_t {
        int n;
        bool wide;
    };
    std::optional<reg_t> try_reg(std::string t) const {
        t = lower(t);
        if (t == "xzr") return reg_t{zr, true};
        if (t == "wzr") return reg_t{zr, false};
        if (t == "lr") return reg_t{30, true};
        if (t.size() < 2 || (t[0] != 'x' && t[0] != 'w')) return std::nullopt;
        const std::string num = t.substr(1);
        if (num.empty() || num.size() > 2 || !std::all_of(num.begin(), num.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return std::nullopt;
        const int n = std::stoi(num);
        if (n > 30) return std::nullopt;
        return reg_t{n, t[0] == 'x'};
    }
    reg_t reg(const stmt& st, const operand& o) {
        auto r = try_reg(o.text);
        if (!r) fail(col(st, o.col), st, "'" + o.text + "' is not a register", "x0..x30, w0..w30, xzr or wzr");
        return *r;
    }

    void need(const stmt& st, std::size_t n, const std::string& form) {
        if (st.ops.size() != n)
            fail(st.mnemonic_loc, st, "takes " + std::to_string(n) + " operand" + (n == 1 ? "" : "s") + ", got " +
                                          std::to_string(st.ops.size()),
                 form);
    }

    // [xN] or [xN, #imm]
    void address(const stmt& st, const operand& o, insn& i) {
        const std::string t = o.text;
        if (t.size() < 3 || t.front() != '[' || t.back() != ']')
            fail(col(st, o.col), st, "'" + t + "' is not an address", "[xN] or [xN, #offset]");
        const std::string inner = t.substr(1, t.size() - 2);
        const auto comma = inner.find(',');
        const auto r = try_reg(trim(inner.substr(0, comma)));
        if (!r || !r->wide || r->n == zr) fail(col(st, o.col + 1), st, "the base must be an x register", "[xN]");
        i.rn = r->n;
        if (comma != std::string::npos) {
            i.has_imm = true;
            i.imm = static_cast<std::uint64_t>(value(st, {trim(inner.substr(comma + 1)), o.col + 1 + static_cast<int>(comma) + 1}, true));
        }
    }

    std::size_t label(const stmt& st, const operand& o) {
        auto it = m_prog.labels.find(o.text);
        if (it == m_prog.labels.end()) fail(col(st, o.col), st, "unknown label '" + o.text + "'", "a label defined in the program");
        return it->second;
    }

    // The last operand of a data-processing instruction: register (with an
    // optional shift) or immediate.
    void second(const stmt& st, std::size_t from, insn& i) {
        const operand& o = st.ops[from];
        if (!o.text.empty() && o.text[0] == '#') {
            i.has_imm = true;
            i.imm = static_cast<std::uint64_t>(value(st, o, true));
            if (st.ops.size() > from + 1) fail(col(st, st.ops[from + 1].col), st, "no shift on an immediate", "#imm");
            return;
        }
        const reg_t r = reg(st, o);
        if (r.wide != i.wide) fail(col(st, o.col), st, "mixes w and x registers", "registers of one width");
        i.rm = r.n;
        if (st.ops.size() == from + 2) {
            const operand& s = st.ops[from + 1];
            const std::string kind = lower(s.text.substr(0, 3));
            const auto sp = s.text.find_first_of(" \t");
            if (sp == std::string::npos || (kind != "lsl" && kind != "lsr" && kind != "ror"))
                fail(col(st, s.col), st, "'" + s.text + "' is not a shift", "lsl #n, lsr #n or ror #n");
            i.sh = kind == "lsl" ? shift::lsl : kind == "lsr" ? shift::lsr : shift::ror;
            const std::int64_t amt = value(st, {trim(s.text.substr(sp)), s.col + static_cast<int>(sp) + 1}, true);
            if (amt < 0 || amt >= (i.wide ? 64 : 32)) fail(col(st, s.col), st, "shift amount out of range", i.wide ? "0..63" : "0..31");
            i.sh_amount = static_cast<unsigned>(amt);
        } else if (st.ops.size() > from + 2) {
            fail(col(st, st.ops[from + 2].col), st, "too many operands", "at most one shift");
        }
    }

    void pass2(const std::vector<stmt>& stmts) {
        bool in_data = false;
        for (const stmt& st : stmts) {
            const std::string& m = st.mnemonic;
            if (m == ".data") in_data = true;
            if (m == ".text") in_data = false;
            if (m.empty() || m[0] == '.' || in_data) continue;
            insn i;
            i.loc = st.mnemonic_loc;
            i.text = st.text;
            decode(st, i);
            m_prog.code.push_back(std::move(i));
        }
    }

    void decode(const stmt& st, insn& i) {
        const std::string& m = st.mnemonic;
        static const std::map<std::string, op> simple = {{"nop", op::nop}, {"yield", op::yield}, {"wfe", op::wfe},
                                                         {"sev", op::sev}, {"sevl", op::sevl}, {"clrex", op::clrex}, {"halt", op::halt},
                                                         {"ret", op::ret}, {"endregion", op::endregion}};
        if (auto it = simple.find(m); it != simple.end()) {
            need(st, 0, m);
            i.o = it->second;
            return;
        }
        if (m == "dmb" || m == "dsb") {
            need(st, 1, m + " ish");
            static const char* opts[] = {"sy", "ish", "ishld", "ishst", "ld", "st", "osh", "nsh"};
            if (std::find(std::begin(opts), std::end(opts), lower(st.ops[0].text)) == std::end(opts))
                fail(col(st, st.ops[0].col), st, "'" + st.ops[0].text + "' is not a barrier option", "sy, ish, ishld, ishst, ld, st, osh or nsh");
            i.o = op::barrier;
            return;
        }
        if (m == "work") {
            if (st.ops.size() != 2) need(st, 1, "work N, work xN or work N, M");
            i.o = op::work;
            if (auto r = try_reg(st.ops[0].text)) {  // cycles from a register
                if (st.ops.size() == 2) fail(col(st, st.ops[1].col), st, "a register count takes no range", "work xN");
                i.rn = r->n;
                return;
            }
            i.has_imm = true;
            const std::int64_t v = value(st, st.ops[0], false);
            if (v < 0) fail(col(st, st.ops[0].col), st, "negative work", "a number of cycles >= 0");
            const std::string most = "at most " + std::to_string(max_work_cycles) + " cycles";
            if (static_cast<std::uint64_t>(v) > max_work_cycles)
                fail(col(st, st.ops[0].col), st, std::to_string(v) + " cycles of work is too long", most);
            i.imm = static_cast<std::uint64_t>(v);
            if (st.ops.size() == 2) {
                const std::int64_t hi = value(st, st.ops[1], false);
                if (hi < v) fail(col(st, st.ops[1].col), st, "the range ends below its start", "work N, M with M >= N");
                if (static_cast<std::uint64_t>(hi) > max_work_cycles)
                    fail(col(st, st.ops[1].col), st, std::to_string(hi) + " cycles of work is too long", most);
                i.imm_hi = static_cast<std::uint64_t>(hi);
            }
            return;
        }
        if (m == "mark") {
            need(st, 1, "mark lock_begin|lock_acquired|lock_release");
            const std::string k = lower(st.ops[0].text);
            i.o = op::mark;
            if (k == "lock_begin") i.mark = mark_kind::lock_begin;
            else if (k == "lock_acquired") i.mark = mark_kind::lock_acquired;
            else if (k == "lock_release") i.mark = mark_kind::lock_release;
            else fail(col(st, st.ops[0].col), st, "unknown mark '" + st.ops[0].text + "'", "lock_begin, lock_acquired or lock_release");
            return;
        }
        if (m == "region") {
            need(st, 1, "region NAME");
            if (!is_ident(st.ops[0].text)) fail(col(st, st.ops[0].col), st, "'" + st.ops[0].text + "' is not a name", "region NAME");
            i.o = op::region;
            i.name = st.ops[0].text;
            return;
        }
        if (m == "b" || m == "bl") {
            need(st, 1, m + " label");
            i.o = m == "b" ? op::b : op::bl;
            i.target = label(st, st.ops[0]);
            return;
        }
        if (m.rfind("b.", 0) == 0) {
            auto it = conditions().find(m.substr(2));
            if (it == conditions().end()) fail(st.mnemonic_loc, st, "unknown condition '" + m.substr(2) + "'", "b.eq, b.ne, b.hs, b.lo, b.ge, b.lt, ...");
            need(st, 1, m + " label");
            i.o = op::bcond;
            i.c = it->second;
            i.target = label(st, st.ops[0]);
            return;
        }
        if (m == "cbz" || m == "cbnz") {
            need(st, 2, m + " reg, label");
            const reg_t r = reg(st, st.ops[0]);
            i.o = m == "cbz" ? op::cbz : op::cbnz;
            i.rd = r.n, i.wide = r.wide;
            i.target = label(st, st.ops[1]);
            return;
        }
        if (m == "tbz" || m == "tbnz") {
            need(st, 3, m + " reg, #bit, label");
            const reg_t r = reg(st, st.ops[0]);
            i.o = m == "tbz" ? op::tbz : op::tbnz;
            i.rd = r.n, i.wide = r.wide;
            const std::int64_t bit = value(st, st.ops[1], true);
            if (bit < 0 || bit >= (r.wide ? 64 : 32)) fail(col(st, st.ops[1].col), st, "bit number out of range", r.wide ? "#0..#63" : "#0..#31");
            i.imm = static_cast<std::uint64_t>(bit);
            i.target = label(st, st.ops[2]);
            return;
        }
        if (m == "mvn" || m == "neg") {
            if (st.ops.size() < 2) need(st, 2, m + " rd, rm or " + m + " rd, rm, lsl #n");
            const reg_t d = reg(st, st.ops[0]);
            i.rd = d.n, i.wide = d.wide;
            second(st, 1, i);
            if (m == "mvn") i.o = op::mvn;
            else i.o = op::sub, i.rn = zr;  // NEG is SUB from the zero register
            return;
        }
        if (m == "isb") {
            if (!st.ops.empty() && lower(st.ops[0].text) != "sy")
                fail(col(st, st.ops[0].col), st, "'" + st.ops[0].text + "' is not an ISB option", "isb or isb sy");
            i.o = op::isb;
            return;
        }
        if (m == "mrs") {
            need(st, 2, "mrs xN, cntvct_el0");
            const reg_t d = reg(st, st.ops[0]);
            if (!d.wide) fail(col(st, st.ops[0].col), st, "a system register needs an x register", "mrs xN, cntvct_el0");
            static const std::map<std::string, sysreg> regs = {
                {"cntvct_el0", sysreg::cntvct}, {"cntpct_el0", sysreg::cntpct}, {"cntfrq_el0", sysreg::cntfrq}};
            const auto it = regs.find(lower(st.ops[1].text));
            if (it == regs.end())
                fail(col(st, st.ops[1].col), st, "'" + st.ops[1].text + "' is not a system register cohsim models",
                     "cntvct_el0, cntpct_el0 or cntfrq_el0 (the generic timer)");
            i.o = op::mrs, i.rd = d.n, i.sr = it->second;
            return;
        }
        // The conditional selects: CSEL and its INC/INV/NEG forms, and the
        // aliases that test one condition (CSET, CSETM, CINC, CNEG: the
        // inverted condition of a CSINC/CSINV/CSNEG).
        static const std::map<std::string, csel_kind> csels = {
            {"csel", csel_kind::sel}, {"csinc", csel_kind::inc}, {"csinv", csel_kind::inv}, {"csneg", csel_kind::neg}};
        static const std::map<std::string, std::pair<csel_kind, int>> aliases = {  // kind, operands before the condition
            {"cset", {csel_kind::inc, 1}}, {"csetm", {csel_kind::inv, 1}}, {"cinc", {csel_kind::inc, 2}}, {"cneg", {csel_kind::neg, 2}}};
        const auto full = csels.find(m);
        const auto alias = aliases.find(m);
        if (full != csels.end() || alias != aliases.end()) {
            const int regs = full != csels.end() ? 3 : alias->second.second;
            need(st, static_cast<std::size_t>(regs) + 1, full != csels.end() ? m + " rd, rn, rm, cond" : regs == 1 ? m + " rd, cond" : m + " rd, rn, cond");
            const reg_t d = reg(st, st.ops[0]);
            i.o = op::csel, i.rd = d.n, i.wide = d.wide;
            const std::string cs = lower(st.ops[static_cast<std::size_t>(regs)].text);
            const auto c = conditions().find(cs);
            if (c == conditions().end() || c->second == cond::al)
                fail(col(st, st.ops[static_cast<std::size_t>(regs)].col), st, "'" + cs + "' is not a condition", "eq, ne, hs, lo, mi, pl, vs, vc, hi, ls, ge, lt, gt, le");
            if (full != csels.end()) {
                const reg_t n = reg(st, st.ops[1]), r = reg(st, st.ops[2]);
                if (n.wide != d.wide || r.wide != d.wide) fail(col(st, st.ops[1].col), st, "mixes w and x registers", "registers of one width");
                i.rn = n.n, i.rm = r.n, i.ck = full->second, i.c = c->second;
            } else {
                const int src = regs == 1 ? zr : reg(st, st.ops[1]).n;
                i.rn = src, i.rm = src, i.ck = alias->second.first, i.c = inverted(c->second);
            }
            return;
        }
        if (m == "mov") {
            need(st, 2, "mov rd, rn or mov rd, #imm");
            const reg_t d = reg(st, st.ops[0]);
            i.o = op::mov;
            i.rd = d.n, i.wide = d.wide;
            second(st, 1, i);
            return;
        }
        if (m == "cmp") {
            if (st.ops.size() < 2) need(st, 2, "cmp rn, rm or cmp rn, #imm");
            const reg_t n = reg(st, st.ops[0]);
            i.o = op::cmp;
            i.rn = n.n, i.wide = n.wide;
            second(st, 1, i);
            return;
        }
        if (m == "adr") {
            need(st, 2, "adr xd, symbol");
            const reg_t d = reg(st, st.ops[0]);
            if (!d.wide) fail(col(st, st.ops[0].col), st, "an address needs an x register", "adr xN, symbol");
            i.o = op::adr;
            i.rd = d.n;
            const auto& sym = st.ops[1].text;
            auto it = std::find_if(m_prog.symbols.begin(), m_prog.symbols.end(), [&](const auto& s) { return s.name == sym; });
            if (it == m_prog.symbols.end()) fail(col(st, st.ops[1].col), st, "unknown data symbol '" + sym + "'", "a label in .data");
            i.name = sym;
            return;
        }
        static const std::map<std::string, op> alu = {{"add", op::add}, {"sub", op::sub}, {"and", op::and_},
                                                      {"orr", op::orr}, {"eor", op::eor}, {"lsl", op::lsl},
                                                      {"lsr", op::lsr}, {"ror", op::ror}};
        if (auto it = alu.find(m); it != alu.end()) {
            if (st.ops.size() < 3) need(st, 3, m + " rd, rn, rm or " + m + " rd, rn, #imm");
            const reg_t d = reg(st, st.ops[0]), n = reg(st, st.ops[1]);
            if (d.wide != n.wide) fail(col(st, st.ops[1].col), st, "mixes w and x registers", "registers of one width");
            i.o = it->second;
            i.rd = d.n, i.rn = n.n, i.wide = d.wide;
            second(st, 2, i);
            return;
        }
        if (m == "prfm") {
            need(st, 2, "prfm pstl1strm, [xN]");
            const std::string kind = lower(st.ops[0].text);
            if (kind != "pstl1strm" && kind != "pstl1keep" && kind != "pldl1keep" && kind != "pldl1strm")
                fail(col(st, st.ops[0].col), st, "'" + st.ops[0].text + "' is not a prefetch kind", "pstl1strm, pstl1keep, pldl1keep or pldl1strm");
            i.o = op::prfm;
            i.rd = kind[1] == 's' ? 1 : 0;  // 1: for store (Unique)
            address(st, st.ops[1], i);
            return;
        }
        if (m == "dc") {
            need(st, 2, "dc zva, xN");
            if (lower(st.ops[0].text) != "zva")
                fail(col(st, st.ops[0].col), st, "'" + st.ops[0].text + "' is not a cache operation cohsim models",
                     "zva (zero the line holding xN; the cleans and invalidates are not modelled)");
            const reg_t r = reg(st, st.ops[1]);
            if (!r.wide) fail(col(st, st.ops[1].col), st, "DC ZVA takes an x register", "dc zva, xN");
            i.o = op::dczva;
            i.rn = r.n;
            return;
        }
        auto mf = memory_mnemonics().find(m);
        if (mf == memory_mnemonics().end())
            fail(st.mnemonic_loc, st, "unknown instruction '" + m + "'", "one of cohsim's instructions (docs/guide/locks.md): ldr/str (b, h), ldar/ldapr/stlr, ldxr/ldaxr/stxr/stlxr, "
                 "cas, swp, ldadd/ldset/ldclr/ldeor/ldsmax/ldsmin/ldumax/ldumin (a, l, al; b, h) and their st forms, prfm, dc zva, dmb/dsb/isb, "
                 "clrex, wfe/sev/sevl/yield/nop, add/sub/and/orr/eor/lsl/lsr/ror/mov/mvn/neg/cmp/adr, "
                 "csel/csinc/csinv/csneg/cset/csetm/cinc/cneg, mrs (cntvct_el0, cntpct_el0, cntfrq_el0), "
                 "b/b.cond/cbz/cbnz/tbz/tbnz/bl/ret, work/mark/region/endregion/halt");
        memory(st, i, m, mf->second);
    }

    void memory(const stmt& st, insn& i, const std::string& m, const mem_form& f) {
        i.o = f.o;
        i.acquire = f.acquire;
        i.release = f.release;
        auto sized = [&](const reg_t& r) {
            i.size = f.size ? f.size : (r.wide ? 8 : 4);
            i.wide = r.wide;
        };
        switch (f.o) {
            case op::ldr: case op::str: case op::ldar: case op::ldapr: case op::stlr: case op::ldxr: {
                need(st, 2, m + " rt, [xN]");
                const reg_t t = reg(st, st.ops[0]);
                i.rd = t.n;
                sized(t);
                address(st, st.ops[1], i);
                if (i.has_imm && f.o != op::ldr && f.o != op::str)
                    fail(col(st, st.ops[1].col), st, m + " takes no offset", "[xN]");
                return;
            }
            case op::stxr: {
                need(st, 3, m + " ws, rt, [xN]");
                const reg_t s = reg(st, st.ops[0]), t = reg(st, st.ops[1]);
                if (s.wide) fail(col(st, st.ops[0].col), st, "the status register must be a w register", m + " w1, w0, [x2]");
                if (s.n == t.n && s.n != zr) fail(col(st, st.ops[0].col), st, "status and data registers must differ", "two different registers");
                i.rs = s.n, i.rd = t.n;
                sized(t);
                address(st, st.ops[2], i);
                if (i.has_imm) fail(col(st, st.ops[2].col), st, m + " takes no offset", "[xN]");
                return;
            }
            default: {  // cas, swp, the LD<op>s (their ST<op> aliases: no result register)
                const bool st_form = m.rfind("st", 0) == 0;
                if (st_form) {
                    need(st, 2, m + " rs, [xN]");
                    const reg_t s = reg(st, st.ops[0]);
                    i.rs = s.n, i.rd = zr;
                    sized(s);
                    address(st, st.ops[1], i);
                } else {
                    need(st, 3, m + " rs, rt, [xN]");
                    const reg_t s = reg(st, st.ops[0]), t = reg(st, st.ops[1]);
                    if (s.wide != t.wide) fail(col(st, st.ops[1].col), st, "mixes w and x registers", "registers of one width");
                    i.rs = s.n, i.rd = t.n;
                    sized(s);
                    address(st, st.ops[2], i);
                }
                if (i.has_imm) fail(st.mnemonic_loc, st, m + " takes no offset", "[xN]");
                return;
            }
        }
    }

    std::map<std::string, std::int64_t> m_overrides;
    program m_prog;
};

}  // namespace

namespace {

std::string library_name(const fs::path& p) { return p.lexically_normal().generic_string(); }

}  // namespace

std::optional<std::string> find_source(const std::string& name, const std::string& dir,
                                       const std::vector<std::string>& search) {
    if (name.rfind("lib:", 0) == 0) return name;
    const fs::path p(name);
    if (p.is_absolute()) return name;
    std::error_code ec;
    if (dir.rfind("lib:", 0) == 0) {  // a library file's own includes
        const std::string n = library_name(fs::path(dir.substr(4)) / p);
        if (library().count(n)) return "lib:" + n;
    } else if (fs::is_regular_file(fs::path(dir) / p, ec)) {
        return (fs::path(dir) / p).generic_string();
    }
    if (library().count(library_name(p))) return "lib:" + library_name(p);
    for (const auto& d : search)
        if (fs::is_regular_file(fs::path(d) / p, ec)) return (fs::path(d) / p).generic_string();
    return std::nullopt;
}

std::string not_found_text(const std::string& name, const std::string& dir, const std::vector<std::string>& search) {
    std::string where = "looked in " + (dir.empty() ? std::string(".") : dir) + ", the built-in library";
    for (const auto& d : search) where += ", " + d;
    if (search.empty()) where += " (and no --include-path)";
    const std::string base = fs::path(name).filename().string();
    for (const auto& [n, text] : library())
        if (fs::path(n).filename() == base) return where + "; did you mean \"" + n + "\" (in the built-in library)?";
    return where;
}

program assemble_file(const std::string& file, const std::map<std::string, std::int64_t>& overrides,
                      const std::vector<std::string>& search) {
    reader r(search);
    r.file(file, {}, "");
    return assembler(overrides).run(r.lines, file);
}

program assemble_text(const std::string& text, const std::string& name, const std::map<std::string, std::int64_t>& overrides) {
    reader r;
    r.text(text, name, ".");
    return assembler(overrides).run(r.lines, name);
}

}  // namespace cohsim::asmx

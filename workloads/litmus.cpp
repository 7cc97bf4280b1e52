#include "workloads/litmus.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <sstream>

#include "sim/config_tree.h"

namespace cohsim::litmus {

namespace {

constexpr int max_test_register = 19;  // x20-x25 and x30 are the harness's

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool is_ident(const std::string& s) {
    static const std::regex id("[A-Za-z_][A-Za-z0-9_.]*");
    return std::regex_match(s, id);
}

class parser {
public:
    parser(const std::string& text, const std::string& file) : m_file(file) {
        // Comments out, line numbers kept; an `expect:` in one is the stated verdict.
        std::string clean;
        for (std::size_t i = 0; i < text.size();) {
            if (text.compare(i, 2, "//") == 0) {  // a C-style comment, to the end of its line
                while (i < text.size() && text[i] != '\n') clean += ' ', ++i;
            } else if (text.compare(i, 2, "(*") == 0) {
                const auto end = text.find("*)", i + 2);
                if (end == std::string::npos) fail(line_at(text, i), "a comment '(*' is never closed", "'*)'");
                const std::string body = text.substr(i + 2, end - i - 2);
                static const std::regex ex("expect:\\s*(\\w+)");
                std::smatch m;
                if (std::regex_search(body, m, ex)) {
                    m_t.expect = m[1];
                    if (m_t.expect != "Never" && m_t.expect != "Sometimes" && m_t.expect != "Always" &&
                        m_t.expect != "Allowed")
                        fail(line_at(text, i), "expect: " + m_t.expect + " is no verdict",
                             "Never, Sometimes, Always, or Allowed (the architecture permits it; any observation agrees)");
                }
                for (std::size_t k = i; k < end + 2; ++k) clean += text[k] == '\n' ? '\n' : ' ';
                i = end + 2;
            } else {
                clean += text[i++];
            }
        }
        std::istringstream in(clean);
        for (std::string l; std::getline(in, l);) m_lines.push_back(l);
        m_t.file = file;
    }

    test run() {
        std::size_t i = next_nonempty(0);
        if (i >= m_lines.size()) fail(1, "the file is empty", "a litmus test: 'AArch64 NAME', the initial state, the code, a condition");
        {
            std::istringstream h(m_lines[i]);
            std::string arch;
            h >> arch >> m_t.name;
            if (arch != "AArch64")
                fail(static_cast<int>(i) + 1, "'" + arch + "' tests are not supported", "an AArch64 test ('AArch64 NAME' on the first line)");
            if (m_t.name.empty()) fail(static_cast<int>(i) + 1, "the test has no name", "'AArch64 NAME'");
        }
        // Everything up to the initial state: a description, herd's Hash=/Cycle= lines.
        std::string init;
        int init_line = 0;
        for (++i; i < m_lines.size(); ++i) {
            const std::string l = trim(m_lines[i]);
            if (!l.empty() && l.front() == '"' && m_t.doc.empty()) m_t.doc = l.substr(1, l.find('"', 1) == std::string::npos ? std::string::npos : l.find('"', 1) - 1);
            const auto brace = m_lines[i].find('{');
            if (brace == std::string::npos) continue;
            init_line = static_cast<int>(i) + 1;
            std::string rest = m_lines[i].substr(brace + 1);
            for (;;) {
                const auto close = rest.find('}');
                if (close != std::string::npos) {
                    init += rest.substr(0, close);
                    m_lines[i] = rest.substr(close + 1);
                    break;
                }
                init += rest + "\n";
                if (++i >= m_lines.size()) fail(init_line, "the initial state '{' is never closed", "'}'");
                rest = m_lines[i];
            }
            break;
        }
        if (!init_line) fail(static_cast<int>(m_lines.size()), "no initial state", "'{ 0:X1=x; ... }' after the test's name");
        // The program: a header row "P0 | P1 ;", then rows of cells.
        i = next_nonempty(trim(m_lines[i]).empty() ? i + 1 : i);
        if (i >= m_lines.size()) fail(static_cast<int>(m_lines.size()), "no program", "a row 'P0 | P1 ;' then the code");
        const auto header = cells(i);
        for (std::size_t t = 0; t < header.size(); ++t)
            if (trim(header[t]) != "P" + std::to_string(t))
                fail(static_cast<int>(i) + 1, "column " + std::to_string(t) + " is headed '" + trim(header[t]) + "'",
                     "P" + std::to_string(t) + " (the threads in order: P0 | P1 | ... ;)");
        m_t.code.resize(header.size());
        m_t.registers.resize(header.size());
        m_t.reg_init.resize(header.size());
        for (++i; i < m_lines.size(); ++i) {
            const std::string l = trim(m_lines[i]);
            if (l.empty()) continue;
            if (l.find(';') == std::string::npos || l.rfind("exists", 0) == 0 || l.rfind("~", 0) == 0 ||
                l.rfind("forall", 0) == 0 || l.rfind("locations", 0) == 0 || l.rfind("filter", 0) == 0)
                break;
            const auto row = cells(i);
            if (row.size() != header.size())
                fail(static_cast<int>(i) + 1, "a row of " + std::to_string(row.size()) + " cells",
                     std::to_string(header.size()) + " cells, one per thread, separated by '|' and ended by ';'");
            for (std::size_t t = 0; t < row.size(); ++t)
                if (!trim(row[t]).empty()) add_code(t, trim(row[t]), static_cast<int>(i) + 1);
        }
        parse_init(init, init_line);
        // locations [...] and the condition: the rest of the file.
        std::string rest;
        const int cond_line = static_cast<int>(i) + 1;
        for (; i < m_lines.size(); ++i) rest += m_lines[i] + " ";
        rest = trim(rest);
        if (rest.rfind("locations", 0) == 0) {
            const auto open = rest.find('['), close = rest.find(']');
            if (open == std::string::npos || close == std::string::npos)
                fail(cond_line, "'locations' without its list", "locations [x; 0:X0;]");
            std::stringstream list(rest.substr(open + 1, close - open - 1));
            for (std::string item; std::getline(list, item, ';');)
                if (!trim(item).empty()) add_observed(read_observable(trim(item), cond_line));
            rest = trim(rest.substr(close + 1));
        }
        if (rest.rfind("filter", 0) == 0) {
            // filter COND: the runs it does not hold for are left out.
            std::size_t q = std::string::npos;
            for (const char* kw : {"~exists", "~ exists", "exists", "forall"}) q = std::min(q, rest.find(kw, 6));
            m_t.filter_text = trim(rest.substr(6, q == std::string::npos ? std::string::npos : q - 6));
            if (m_t.filter_text.empty()) fail(cond_line, "'filter' without its condition", "filter (0:X0=1) before the final condition");
            m_t.filter = parse_whole(m_t.filter_text, cond_line);
            rest = q == std::string::npos ? "" : trim(rest.substr(q));
        }
        if (rest.rfind("~exists", 0) == 0 || rest.rfind("~ exists", 0) == 0) {
            m_t.q = quantifier::not_exists;
            rest = rest.substr(rest.find("exists") + 6);
        } else if (rest.rfind("exists", 0) == 0) {
            m_t.q = quantifier::exists;
            rest = rest.substr(6);
        } else if (rest.rfind("forall", 0) == 0) {
            m_t.q = quantifier::forall;
            rest = rest.substr(6);
        } else {
            fail(cond_line, rest.empty() ? "no final condition" : "'" + rest.substr(0, 20) + "' is no condition",
                 "exists (...), ~exists (...) or forall (...)");
        }
        m_t.condition_text = trim(rest);
        m_t.condition = parse_whole(m_t.condition_text, cond_line);
        std::sort(m_t.observed.begin(), m_t.observed.end());
        return std::move(m_t);
    }

private:
    [[noreturn]] void fail(int line, const std::string& what, const std::string& expected) const {
        throw cfg::config_error(cfg::source_loc{m_file, line, 1}, "", what, expected);
    }
    static int line_at(const std::string& text, std::size_t pos) {
        return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    }
    std::size_t next_nonempty(std::size_t i) const {
        while (i < m_lines.size() && trim(m_lines[i]).empty()) ++i;
        return i;
    }
    std::vector<std::string> cells(std::size_t i) const {
        const std::string l = m_lines[i];
        const auto semi = l.rfind(';');
        if (semi == std::string::npos) fail(static_cast<int>(i) + 1, "a row without its ';'", "cells separated by '|', ended by ';'");
        std::vector<std::string> out;
        std::stringstream row(l.substr(0, semi));
        for (std::string c; std::getline(row, c, '|');) out.push_back(c);
        if (!l.substr(0, semi).empty() && l[semi - 1] == '|') out.push_back("");
        return out;
    }

    std::uint64_t number(const std::string& s, int line) const {
        try {
            std::size_t used = 0;
            const std::uint64_t v = std::stoull(s, &used, 0);
            if (used == s.size() && !s.empty() && s[0] != '-') return v;
        } catch (const std::exception&) {
        }
        fail(line, "'" + s + "' is not a value", "a number, decimal or 0x hex, at least 0");
    }

    void add_location(const std::string& name, int line) {
        if (!is_ident(name)) fail(line, "'" + name + "' is no location name", "a name such as x or lock");
        if (std::find(m_t.locations.begin(), m_t.locations.end(), name) == m_t.locations.end()) m_t.locations.push_back(name);
    }

    // "0:X1" (a register) or "x" / "[x]" (a location).
    observable read_observable(std::string s, int line) {
        observable o;
        s = trim(s);
        static const std::regex reg("(\\d+)\\s*:\\s*[XxWw](\\d+)");
        std::smatch m;
        if (std::regex_match(s, m, reg)) {
            o.thread = std::stoi(m[1]);
            o.reg = std::stoi(m[2]);
            if (o.thread >= m_t.threads())
                fail(line, "thread " + std::to_string(o.thread) + " in '" + s + "'",
                     "a thread from 0 to " + std::to_string(m_t.threads() - 1));
            if (o.reg > max_test_register) fail(line, "register X" + std::to_string(o.reg), "X0 to X19 (the harness uses X20 and up)");
            return o;
        }
        if (s.size() > 2 && s.front() == '[' && s.back() == ']') s = trim(s.substr(1, s.size() - 2));
        add_location(s, line);
        o.location = s;
        return o;
    }
    void add_observed(const observable& o) {
        if (std::find(m_t.observed.begin(), m_t.observed.end(), o) == m_t.observed.end()) m_t.observed.push_back(o);
    }

    // The initial state, over one line or many: `0:X1=x;` (a register holds
    // a location's address or a number), `x=1;`, and C declarations as herd7
    // writes them, `int x=1;` or `uint64_t y;` (a location, 0 unless given).
    void parse_init(const std::string& init, int line) {
        std::stringstream in(init);
        int start = line;  // the line each item's text starts on
        for (std::string raw; std::getline(in, raw, ';'); start += static_cast<int>(std::count(raw.begin(), raw.end(), '\n'))) {
            const std::string item = trim(raw);
            if (item.empty()) continue;
            const int item_line = start + static_cast<int>(std::count(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(raw.find(item)), '\n'));
            const auto eq = item.find('=');
            if (eq == std::string::npos) {
                // A declaration with no value: `TYPE NAME`.
                static const std::regex decl("(?:(?:unsigned|signed|const|volatile)\\s+)*[A-Za-z_][A-Za-z0-9_]*\\s+([A-Za-z_][A-Za-z0-9_.]*)");
                std::smatch m;
                if (!std::regex_match(item, m, decl))
                    fail(item_line, "'" + item + "' in the initial state",
                         "0:X1=x (a register), x=1 (a location) or a declaration such as 'uint64_t x;'");
                add_location(m[1], item_line);
                m_t.location_init[m[1]] = 0;
                continue;
            }
            const int at = item_line;
            std::string lhs = trim(item.substr(0, eq));
            const std::string rhs = trim(item.substr(eq + 1));
            if (const auto sp = lhs.find_last_of(" \t\n"); sp != std::string::npos) lhs = trim(lhs.substr(sp + 1));  // a C type before it
            const observable o = read_observable(lhs, at);
            if (o.thread >= 0) {
                if (!rhs.empty() && (std::isdigit(static_cast<unsigned char>(rhs[0])) != 0)) {
                    number(rhs, at);
                } else {
                    add_location(rhs, at);
                }
                m_t.reg_init[static_cast<std::size_t>(o.thread)][o.reg] = rhs;
            } else {
                m_t.location_init[o.location] = number(rhs, at);
            }
        }
    }

    // A line of thread t's code, and the registers it names (x0-x19 only).
    void add_code(std::size_t t, const std::string& code, int line) {
        static const std::regex reg("\\b[XxWw](\\d+)\\b");
        for (auto it = std::sregex_iterator(code.begin(), code.end(), reg); it != std::sregex_iterator(); ++it) {
            const int r = std::stoi((*it)[1]);
            if (r > max_test_register)
                fail(line, "P" + std::to_string(t) + " uses " + (*it)[0].str(), "registers X0 to X19 (the harness uses X20 and up)");
            m_t.registers[t].insert(r);
        }
        m_t.code[t].push_back(code);
    }

    // A whole condition (the final one, or a filter), read from `text`.
    std::unique_ptr<expr> parse_whole(const std::string& text, int line) {
        m_cond = text;
        m_cond_line = line;
        m_pos = 0;
        auto e = parse_or();
        skip_space();
        if (m_pos != m_cond.size()) fail(line, "'" + m_cond.substr(m_pos) + "' after the condition", "the end of the file");
        return e;
    }

    // ---- the condition: or := and ('\/' and)*; and := unary ('/\' unary)*
    void skip_space() {
        while (m_pos < m_cond.size() && std::isspace(static_cast<unsigned char>(m_cond[m_pos]))) ++m_pos;
    }
    bool take(const std::string& tok) {
        skip_space();
        if (m_cond.compare(m_pos, tok.size(), tok) != 0) return false;
        m_pos += tok.size();
        return true;
    }
    std::unique_ptr<expr> parse_or() { return parse_binary(true); }
    // A chain of \/ (or_) or of /\ (tighter); left-associative.
    std::unique_ptr<expr> parse_binary(bool or_level) {
        auto operand = [&] { return or_level ? parse_binary(false) : parse_unary(); };
        auto left = operand();
        while (take(or_level ? "\\/" : "/\\")) {
            auto e = std::make_unique<expr>();
            e->kind = or_level ? expr::or_ : expr::and_;
            e->args.push_back(std::move(left));
            e->args.push_back(operand());
            left = std::move(e);
        }
        return left;
    }
    std::unique_ptr<expr> parse_unary() {
        auto e = std::make_unique<expr>();
        if (take("~")) {
            e->kind = expr::not_;
            e->args.push_back(parse_unary());
            return e;
        }
        if (take("(")) {
            auto inner = parse_or();
            if (!take(")")) fail(m_cond_line, "a '(' in the condition is never closed", "')'");
            return inner;
        }
        if (take("true")) return e;
        if (take("false")) {
            e->kind = expr::false_;
            return e;
        }
        skip_space();
        const auto eq = m_cond.find('=', m_pos);
        if (eq == std::string::npos) fail(m_cond_line, "'" + m_cond.substr(m_pos) + "' in the condition", "T:Xn=V or LOC=V");
        const std::string lhs = m_cond.substr(m_pos, eq - m_pos);
        std::size_t end = eq + 1;
        while (end < m_cond.size() && (std::isalnum(static_cast<unsigned char>(m_cond[end])) != 0 || m_cond[end] == ' ' || m_cond[end] == '-')) ++end;
        const std::string rhs = trim(m_cond.substr(eq + 1, end - eq - 1));
        m_pos = end;
        e->kind = expr::atom;
        e->what = read_observable(lhs, m_cond_line);
        if (!rhs.empty() && (std::isalpha(static_cast<unsigned char>(rhs[0])) != 0 || rhs[0] == '_')) {
            // A location's address (held by a register, or stored in a location).
            const auto at = std::find(m_t.locations.begin(), m_t.locations.end(), rhs);
            if (at == m_t.locations.end()) {
                std::string names;
                for (const auto& l : m_t.locations) names += (names.empty() ? "" : ", ") + l;
                fail(m_cond_line, "'" + trim(lhs) + "=" + rhs + "' in the condition: " + rhs + " is none of the test's locations",
                     "a number, or the name of one of them (" + names + ")");
            }
            e->value = address_token(static_cast<std::size_t>(at - m_t.locations.begin()));
        } else {
            e->value = number(rhs, m_cond_line);
        }
        add_observed(e->what);
        return e;
    }

    std::string m_file;
    std::vector<std::string> m_lines;
    test m_t;
    std::string m_cond;
    std::size_t m_pos = 0;
    int m_cond_line = 0;
};

std::size_t index_of(const test& t, const observable& o) {
    return static_cast<std::size_t>(std::find(t.observed.begin(), t.observed.end(), o) - t.observed.begin());
}

}  // namespace

std::string observable::text() const {
    return thread >= 0 ? std::to_string(thread) + ":X" + std::to_string(reg) : location;
}

test parse(const std::string& text, const std::string& file) { return parser(text, file).run(); }

bool holds(const expr& e, const test& t, const outcome& o) {
    switch (e.kind) {
        case expr::atom: return o.at(index_of(t, e.what)) == e.value;
        case expr::and_: return holds(*e.args[0], t, o) && holds(*e.args[1], t, o);
        case expr::or_: return holds(*e.args[0], t, o) || holds(*e.args[1], t, o);
        case expr::not_: return !holds(*e.args[0], t, o);
        case expr::true_: return true;
        case expr::false_: return false;
    }
    return false;
}

std::string state_text(const test& t, const outcome& o) {
    std::string s;
    for (std::size_t i = 0; i < t.observed.size(); ++i) {
        const std::uint64_t v = o.at(i);
        const bool address = v >= address_token_base && v - address_token_base < t.locations.size();
        s += (i ? " " : "") + t.observed[i].text() + "=" +
             (address ? t.locations[static_cast<std::size_t>(v - address_token_base)] : std::to_string(v)) + ";";
    }
    return s;
}

std::string harness_program(const test& t, const harness_options& o) {
    const int n = t.threads();
    const std::size_t rec = t.observed.size() * 8;
    std::ostringstream p;
    p << "// The harness of litmus test " << t.name << " (" << t.file << "), generated by cohsim litmus:\n"
      << "// " << o.iterations << " iterations; each thread runs its column after two barriers and a\n"
      << "// random wait of up to " << o.jitter << " cycles; the records sit at litmus_results.\n"
      << "// Its counters are bumped with LDADDAL where the core has LSE, else with\n"
      << "// an LDAXR/STLXR loop (LSE: set per core).\n"
      << ".equ TID, 0\n.equ LSE, 1\n.equ LITMUS_ITERATIONS, " << o.iterations << "\n.equ LITMUS_OBSERVED, " << t.observed.size()
      << "\n.data\n.shared\n";
    for (const std::string& l : t.locations) {
        const auto init = t.location_init.find(l);
        p << ".align 64\nloc_" << l << ": .quad " << (init == t.location_init.end() ? 0 : init->second) << "\n";
    }
    p << ".align 64\nlitmus_bar_count: .quad 0\n.align 64\nlitmus_bar_sense: .quad 0\n.align 64\nlitmus_done: .quad 0\n"
      << ".align 64\nlitmus_results: .space " << std::max<std::size_t>(8, rec * o.iterations) << "\n.text\n"
      << "    mov x21, #TID\n";
    for (int th = 0; th < n; ++th) p << "    cmp x21, #" << th << "\n    b.eq litmus_t" << th << "\n";
    p << "    halt\n";
    // x23 = [x21], [x21] += x22, acquire and release: LDADDAL, or its LL/SC
    // loop on a core without LSE (x26, x27 scratch; `at` names the labels).
    auto fetch_add = [](const std::string& at) {
        return "    mov x26, #LSE\n    cbz x26, " + at + "_llsc\n    ldaddal x22, x23, [x21]\n    b " + at + "_added\n" + at +
               "_llsc:\n    ldaxr x23, [x21]\n    add x26, x23, x22\n    stlxr w27, x26, [x21]\n    cbnz w27, " + at +
               "_llsc\n" + at + "_added:\n";
    };
    // the barrier: sense-reversing, on an atomic counter; the sense in x20
    p << "litmus_barrier:\n    eor x20, x20, #1\n    adr x21, litmus_bar_count\n    mov x22, #1\n"
      << fetch_add("litmus_bar") << "    cmp x23, #" << n - 1 << "\n    b.ne litmus_bar_wait\n"
      << "    str xzr, [x21]\n    adr x21, litmus_bar_sense\n    stlr x20, [x21]\n    ret\n"
      << "litmus_bar_wait:\n    adr x21, litmus_bar_sense\nlitmus_bar_spin:\n    ldar x22, [x21]\n"
      << "    cmp x22, x20\n    b.ne litmus_bar_spin\n    ret\n";
    static const std::regex label_def("^([A-Za-z_][A-Za-z0-9_]*):");
    for (int th = 0; th < n; ++th) {
        const auto& code = t.code[static_cast<std::size_t>(th)];
        const std::string pre = "litmus_t" + std::to_string(th);
        // the thread's labels get its prefix (threads may use the same names)
        std::set<std::string> labels;
        std::set<int> regs = t.registers[static_cast<std::size_t>(th)];
        for (const std::string& l : code) {
            std::smatch m;
            if (std::regex_search(l, m, label_def)) labels.insert(m[1]);
        }
        for (const auto& [r, v] : t.reg_init[static_cast<std::size_t>(th)]) regs.insert(r);
        for (const auto& ob : t.observed)
            if (ob.thread == th) regs.insert(ob.reg);
        p << pre << ":\n    mov x20, #0\n    mov x25, #0\n    adr x24, litmus_results\n" << pre << "_loop:\n    bl litmus_barrier\n";
        if (static_cast<std::size_t>(th) < o.prewarm.size())
            for (const auto& [loc, how] : o.prewarm[static_cast<std::size_t>(th)]) {
                if (how == 0) continue;
                p << "    adr x21, loc_" << loc << "\n" << (how == 1 ? "    ldr x22, [x21]\n" : "    prfm pstl1keep, [x21]\n");
            }
        p << "    bl litmus_barrier\n";
        if (o.jitter) p << "    work 0, " << o.jitter << "\n";
        for (int r : regs) {
            const auto init = t.reg_init[static_cast<std::size_t>(th)].find(r);
            if (init == t.reg_init[static_cast<std::size_t>(th)].end()) p << "    mov x" << r << ", #0\n";
            else if (std::isdigit(static_cast<unsigned char>(init->second[0])) != 0) p << "    mov x" << r << ", #" << init->second << "\n";
            else p << "    adr x" << r << ", loc_" << init->second << "\n";
        }
        for (std::string l : code) {
            for (const std::string& lab : labels) l = std::regex_replace(l, std::regex("\\b" + lab + "\\b"), pre + "_" + lab);
            p << "    " << l << "\n";
        }
        for (std::size_t k = 0; k < t.observed.size(); ++k)
            if (t.observed[k].thread == th) p << "    str x" << t.observed[k].reg << ", [x24, #" << 8 * k << "]\n";
        p << "    bl litmus_barrier\n";
        if (th == 0)
            for (const std::string& l : t.locations) {
                const auto init = t.location_init.find(l);
                p << "    adr x21, loc_" << l << "\n    ldr x22, [x21]\n";
                for (std::size_t k = 0; k < t.observed.size(); ++k)
                    if (t.observed[k].thread < 0 && t.observed[k].location == l) p << "    str x22, [x24, #" << 8 * k << "]\n";
                p << "    mov x22, #" << (init == t.location_init.end() ? 0 : init->second) << "\n    str x22, [x21]\n";
            }
        p << "    mov x23, #" << rec << "\n    add x24, x24, x23\n    add x25, x25, #1\n    mov x23, #LITMUS_ITERATIONS"
          << "\n    cmp x25, x23\n    b.lo " << pre << "_loop\n"
          << "    adr x21, litmus_done\n    mov x22, #1\n" << fetch_add(pre + "_done") << "    halt\n";
    }
    return p.str();
}

}  // namespace cohsim::litmus

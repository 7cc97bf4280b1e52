#include "workloads/trace.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace cohsim {

using cfg::config_error;

std::map<std::string, std::vector<trace_op>> read_trace(const std::string& file) {
    std::ifstream in(file);
    if (!in) throw config_error({file, 0, 0}, "", std::string("cannot read trace: ") + std::strerror(errno), "a readable trace file");
    return parse_trace(in, file);
}

std::map<std::string, std::vector<trace_op>> parse_trace(std::istream& in, const std::string& file) {
    static const std::map<std::string, trace_op::kind_t> ops = {
        {"ld", trace_op::ld},       {"st", trace_op::st},   {"ldx", trace_op::ldx},   {"stx", trace_op::stx},
        {"ldadd", trace_op::ldadd}, {"swp", trace_op::swp}, {"ldset", trace_op::ldset}, {"cas", trace_op::cas},
        {"prfm", trace_op::prfm},   {"zva", trace_op::zva},   {"wfe", trace_op::wfe}, {"sev", trace_op::sev},   {"sevl", trace_op::sevl},
        {"dmb", trace_op::dmb},     {"mark", trace_op::mark}};
    std::map<std::string, std::vector<trace_op>> out;
    std::string raw;
    int n = 0;
    while (std::getline(in, raw)) {
        ++n;
        const std::string text = raw.substr(0, raw.find('#'));
        std::vector<std::pair<std::string, int>> f;  // field, column
        for (std::size_t i = 0; i < text.size();) {
            while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
            if (i >= text.size()) break;
            const std::size_t b = i;
            while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
            f.emplace_back(text.substr(b, i - b), static_cast<int>(b) + 1);
        }
        if (f.empty()) continue;
        const std::string stmt = [&] {
            std::string s;
            for (const auto& [w, c] : f) s += (s.empty() ? "" : " ") + w;
            return s;
        }();
        auto fail = [&](std::size_t field, const std::string& what, const std::string& expected) {
            const int col = field < f.size() ? f[field].second : static_cast<int>(text.size()) + 1;
            throw config_error({file, n, col}, stmt, what, expected);
        };
        auto number = [&](std::size_t field, const char* what) {
            if (field >= f.size()) fail(field, std::string("missing ") + what, std::string("a ") + what);
            errno = 0;
            char* end = nullptr;
            const unsigned long long v = std::strtoull(f[field].first.c_str(), &end, 0);
            if (*end != '\0' || errno == ERANGE || f[field].first[0] == '-')
                fail(field, "'" + f[field].first + "' is not a " + what, "a decimal or 0x number");
            return static_cast<std::uint64_t>(v);
        };
        if (f.size() < 3) fail(f.size(), "too few fields", "CORE DELAY OP [ADDRESS SIZE [VALUE [VALUE2]]]");
        trace_op op;
        op.delay = number(1, "delay in cycles");
        auto it = ops.find(f[2].first);
        if (it == ops.end())
            fail(2, "unknown operation '" + f[2].first + "'", "ld, st, ldx, stx, ldadd, swp, ldset, cas, prfm, zva, wfe, sev, sevl, dmb or mark");
        op.kind = it->second;
        std::size_t want = 3;
        switch (op.kind) {
            case trace_op::wfe: case trace_op::sev: case trace_op::sevl: case trace_op::dmb: break;
            case trace_op::mark: {
                if (f.size() < 4) fail(3, "missing mark", "lock_begin, lock_acquired or lock_release");
                const std::string& k = f[3].first;
                if (k == "lock_begin") op.which = asmx::mark_kind::lock_begin;
                else if (k == "lock_acquired") op.which = asmx::mark_kind::lock_acquired;
                else if (k == "lock_release") op.which = asmx::mark_kind::lock_release;
                else fail(3, "unknown mark '" + k + "'", "lock_begin, lock_acquired or lock_release");
                want = 4;
                break;
            }
            default: {
                op.addr = number(3, "address");
                op.size = static_cast<unsigned>(number(4, "size"));
                if (op.kind == trace_op::zva) {
                    if (op.size != 64) fail(4, "bad size", "64: zva zeroes a whole line");
                } else if (op.size != 1 && op.size != 2 && op.size != 4 && op.size != 8) {
                    fail(4, "bad size", "1, 2, 4 or 8");
                }
                if (op.addr % op.size) fail(3, "address not aligned to the size", "an address that is a multiple of SIZE");
                want = 5;
                const bool one = op.kind == trace_op::st || op.kind == trace_op::stx || op.kind == trace_op::ldadd ||
                                 op.kind == trace_op::swp || op.kind == trace_op::ldset;
                if (one) op.v1 = number(5, "value"), want = 6;
                if (op.kind == trace_op::cas) op.v1 = number(5, "expected value"), op.v2 = number(6, "new value"), want = 7;
            }
        }
        if (f.size() > want) fail(want, "unexpected '" + f[want].first + "'", "nothing more on this line");
        out[f[0].first].push_back(op);
    }
    return out;
}

void replay(core& c, const std::vector<trace_op>& ops, lock_metrics* metrics, mutex_checker* mutex) {
    for (const trace_op& op : ops) {
        if (op.delay) c.work(cycles{op.delay});
        switch (op.kind) {
            case trace_op::ld: c.load(op.addr, op.size); break;
            case trace_op::st: c.store(op.addr, op.v1, op.size); break;
            case trace_op::ldx: c.load_exclusive(op.addr, op.size); break;
            case trace_op::stx: c.store_exclusive(op.addr, op.v1, op.size); break;
            case trace_op::ldadd: c.atomic(atomic_op::add, op.addr, op.v1, op.size); break;
            case trace_op::swp: c.atomic(atomic_op::swp, op.addr, op.v1, op.size); break;
            case trace_op::ldset: c.atomic(atomic_op::set, op.addr, op.v1, op.size); break;
            case trace_op::cas: c.atomic(atomic_op::cas, op.addr, op.v2, op.size, op.v1); break;
            case trace_op::prfm: c.prefetch_store(op.addr); break;
            case trace_op::zva: c.zero_line(op.addr); break;
            case trace_op::wfe: c.wfe(); break;
            case trace_op::sev: c.sev(); break;
            case trace_op::sevl: c.sevl(); break;
            case trace_op::dmb: c.barrier(); break;
            case trace_op::mark: lock_mark(op.which, c.agent(), c.id(), c.local_time(), metrics, mutex); break;
        }
    }
}

}  // namespace cohsim

#include "models/mem/fabric.h"

#include <sstream>
#include <stdexcept>

#include "models/mem/l1_cache.h"
#include "sim/kernel.h"

namespace cohsim {

using namespace protocol;

void fabric::explain(std::uint64_t line, const std::string& text) const {
    if (explaining(line)) obs.explain->note(kernel::now(), text);
}

void fabric::trace_states(std::uint64_t line) const {
    if (!obs.trace->traces_line(line)) return;
    for (const l1_cache* c : states) obs.trace->line_state(line, c->agent, c->core, name(c->state_of(line)), kernel::now());
}

void fabric::check_writers(std::uint64_t line) const {
    int writers = 0, readers = 0;
    for (const l1_cache* c : states) {
        const cstate st = c->state_of(line);
        writers += can_write(st);
        readers += can_read(st);
    }
    if (writers > 1 || (writers == 1 && readers > 1))
        protocol_error("line " + hex(line) + " has " + std::to_string(writers) + " writers and " + std::to_string(readers) +
                       " readers");
}

void fabric::protocol_error(const std::string& what) const {
    std::ostringstream os;
    os << "coherence protocol error at " << kernel::now().ns() << " ns: " << what;
    throw std::logic_error(os.str());
}

const char* op_name(const mem_request& r) {
    switch (r.kind) {
        case mem_request::load: return "LDR";
        case mem_request::load_exclusive: return "LDXR";
        case mem_request::store: return "STR";
        case mem_request::store_exclusive: return "STXR";
        case mem_request::prefetch_unique: return "PRFM PST";
        case mem_request::zero_line: return "DC ZVA";
        case mem_request::atomic:
            switch (r.op) {
                case atomic_op::cas: return "CAS";
                case atomic_op::add: return "LDADD";
                case atomic_op::swp: return "SWP";
                case atomic_op::set: return "LDSET";
                case atomic_op::clr: return "LDCLR";
                case atomic_op::eor: return "LDEOR";
                case atomic_op::smax: return "LDSMAX";
                case atomic_op::smin: return "LDSMIN";
                case atomic_op::umax: return "LDUMAX";
                case atomic_op::umin: return "LDUMIN";
            }
    }
    return "?";
}

}  // namespace cohsim

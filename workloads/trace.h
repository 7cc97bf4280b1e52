// Trace replay: memory operations recorded per core, replayed through the
// same core and memory models.
//
// Format (text, one operation per line; `#` starts a comment):
//   CORE DELAY OP [ADDRESS SIZE [VALUE [VALUE2]]]
//     CORE     the core that issues it, CLUSTER.INDEX (e.g. little.2)
//     DELAY    core cycles of compute before it (since that core's previous op)
//     OP       ld | st | ldx | stx | ldadd | swp | ldset | cas | prfm |
//              zva | wfe | sev | sevl | dmb | mark
//     ADDRESS  0x... or decimal; SIZE 1, 2, 4 or 8 (bytes); zva (DC ZVA,
//              the line zeroed) takes a line's address and SIZE 64
//     VALUE    st/stx: the data; ldadd/swp/ldset: the operand;
//              cas: the expected value, VALUE2 the new value
//   mark takes one word instead: lock_begin | lock_acquired | lock_release
// Each core replays its own lines in file order; cores run concurrently.
// Values are replayed as recorded: a trace has no data dependences, so a
// replayed STXR that fails is not retried (record the retries instead).
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "models/core.h"
#include "sim/config_tree.h"
#include "workloads/interpreter.h"
#include "workloads/program.h"

namespace cohsim {

struct trace_op {
    enum kind_t { ld, st, ldx, stx, ldadd, swp, ldset, cas, prfm, zva, wfe, sev, sevl, dmb, mark } kind = ld;
    std::uint64_t delay = 0, addr = 0, v1 = 0, v2 = 0;
    unsigned size = 8;
    asmx::mark_kind which = asmx::mark_kind::lock_begin;  // for mark
};

// Per core id, its operations. Throws cfg::config_error naming FILE:LINE:COL.
std::map<std::string, std::vector<trace_op>> read_trace(const std::string& file);
// The same from a stream; `file` names it in messages.
std::map<std::string, std::vector<trace_op>> parse_trace(std::istream& in, const std::string& file);

// Replays `ops` on `c` (call from the core's program).
void replay(core& c, const std::vector<trace_op>& ops, lock_metrics* metrics, mutex_checker* mutex);

}  // namespace cohsim

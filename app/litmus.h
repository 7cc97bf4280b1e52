// `cohsim litmus FILE.litmus`: runs a herd7-format AArch64 litmus test many
// times on a platform under seeded timing variation and reports the final
// states seen, as litmus7 does (workloads/litmus.h: the format and the
// harness). Batches run in child processes (SystemC elaborates once per
// process), each with its own placement of threads on cores, pre-warmed
// copies and seed; a batch's config runs again with `cohsim run`.
#pragma once

#include <string>
#include <vector>

namespace cohsim {
int cmd_litmus(const std::vector<std::string>& args);
}

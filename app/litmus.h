// `cohsim litmus FILE.litmus`: runs a herd7-format AArch64 litmus test many
// times on a platform under seeded timing variation and reports the final
// states seen, as litmus7 does (workloads/litmus.h: the format and the
// harness). Batches run in child processes (SystemC elaborates once per
// process), each with its own placement of threads on cores, pre-warmed
// copies and seed; a batch's config runs again with `cohsim run`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cohsim {

// The runs' shape, the same for every test and platform.
struct litmus_options {
    std::uint64_t batches = 10, iterations = 100, seed = 1, jitter = 200;
    unsigned jobs = 1;
    std::vector<std::string> fixed;  // --cores, or empty
    std::string out_dir;             // keep the batches here (else a temporary folder)
    bool progress = false;
};

// One test (a file, or a shipped test's name) on one platform (a config, or
// "" for the built-in default's), the threads on `cores_text`'s cores or
// placed by the seed, each batch at most `time_text`: prints the histogram
// and the verdict as litmus7 does, and the JSON into `json_file` if given.
// 1 when `check` and the runs contradict the test's (* expect: ... *) verdict.
int litmus_one(const std::string& test, const std::string& platform, const std::vector<std::string>& sets,
               const std::string& time_text, const std::string& cores_text, litmus_options o, const std::string& json_file,
               bool check);

// `--platforms`: every test of `files` (none: every shipped test) on each
// platform of `platforms_text` (comma-separated, or all): the table of what
// each platform shows. 1 when a platform contradicts a test's verdict.
int litmus_survey(const std::vector<std::string>& files, const std::string& platforms_text, const std::vector<std::string>& sets,
                  const std::string& time_text, const litmus_options& o, const std::string& json_file);

// The child process of a batch: runs the batch prepared in `dir`.
int litmus_batch(const std::string& dir);

}  // namespace cohsim

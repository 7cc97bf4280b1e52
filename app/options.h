// The command line of every `cohsim` command: options parsed by
// Boost.Program_options, positional arguments apart; a bad command line is a
// usage_error (exit status 2 with a hint to --help).
#pragma once

#include <boost/program_options.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cohsim {

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct parsed_args {
    boost::program_options::variables_map vm;
    std::vector<std::string> positional;
};

// Parses `args` against `options`; the arguments that are no option are
// collected in `positional`. Throws usage_error.
parsed_args parse_args(const std::vector<std::string>& args, const boost::program_options::options_description& options);

// The --set values as overrides for load_platform, each named by its place
// ("--set #2") for messages.
std::vector<std::pair<std::string, std::string>> numbered(const std::vector<std::string>& sets);

// A whole number given to `option`, from `lo` to `hi`; anything else (a sign,
// a fraction, text, out of range) is a usage_error saying what is allowed.
std::uint64_t parse_count(const std::string& text, const std::string& option, std::uint64_t lo, std::uint64_t hi);

// --out DIR, the folder a command writes its results into (`what` says
// what goes there); `dflt` when the option is not given (nullptr: none).
void add_out_option(boost::program_options::options_description& d, std::string& dir, const char* dflt, const char* what);

// --jobs J (-j J): how many runs at once (`what`: of what), parsed later by
// parse_jobs.
void add_jobs_option(boost::program_options::options_description& d, std::string& jobs, const char* what);

// --help (-h): the command prints its help (printed_help) and does nothing else.
void add_help_option(boost::program_options::options_description& d);

// A duration given to `option` (e.g. "2s"), checked before any run: a
// usage_error saying what is wrong otherwise.
void check_duration_option(const std::string& text, const std::string& option);

// --jobs J: how many runs at once, 1 to 256.
unsigned parse_jobs(const std::string& text);

// With --help: prints `head`, the options and `tail` and returns true (the
// command is done).
bool printed_help(const boost::program_options::variables_map& vm, const boost::program_options::options_description& d,
                  const char* head, const char* tail);

// The folder an `option` (e.g. "--out") names for results, made ready before
// any work: created if new, and checked to be a folder this process can
// write into. A file of that name, a folder that cannot be made or written
// is a usage_error saying what would be right.
void prepare_output_dir(const std::string& dir, const std::string& option);

}  // namespace cohsim

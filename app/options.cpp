#include "app/options.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "sim/units.h"

namespace cohsim {

namespace po = boost::program_options;

parsed_args parse_args(const std::vector<std::string>& args, const po::options_description& options) {
    parsed_args p;
    po::options_description hidden;
    hidden.add_options()("positional", po::value(&p.positional)->composing());
    po::options_description all;
    all.add(options).add(hidden);
    po::positional_options_description pos;
    pos.add("positional", -1);
    try {
        po::store(po::command_line_parser(args).options(all).positional(pos).run(), p.vm);
        po::notify(p.vm);
    } catch (const po::error& e) {
        throw usage_error(e.what());
    }
    return p;
}

std::uint64_t parse_count(const std::string& text, const std::string& option, std::uint64_t lo, std::uint64_t hi) {
    std::size_t used = 0;
    unsigned long long n = 0;
    const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    try {
        if (digits) n = std::stoull(text, &used, 10);
    } catch (const std::exception&) {
        used = 0;
    }
    if (!digits || used != text.size() || n < lo || n > hi)
        throw usage_error(option + " " + text + ": expected a whole number from " + std::to_string(lo) + " to " +
                          std::to_string(hi));
    return n;
}

void add_out_option(po::options_description& d, std::string& dir, const char* dflt, const char* what) {
    auto* v = po::value(&dir)->value_name("DIR");
    if (dflt) v->default_value(dflt);
    d.add_options()("out", v, what);
}

void add_jobs_option(po::options_description& d, std::string& jobs, const char* what) {
    d.add_options()("jobs,j", po::value(&jobs)->value_name("J"), what);
}

void add_help_option(po::options_description& d) { d.add_options()("help,h", "show this help"); }

void check_duration_option(const std::string& text, const std::string& option) {
    try {
        parse_duration(text);
    } catch (const std::exception& e) {
        throw usage_error(option + " " + text + ": " + e.what() + " (e.g. " + option + " 2s)");
    }
}

unsigned parse_jobs(const std::string& text) { return static_cast<unsigned>(parse_count(text, "--jobs", 1, 256)); }

bool printed_help(const po::variables_map& vm, const po::options_description& d, const char* head, const char* tail) {
    if (!vm.count("help")) return false;
    std::cout << head << d << tail;
    return true;
}

void prepare_output_dir(const std::string& dir, const std::string& option) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw usage_error(option + " " + dir + ": is a file, not a folder (expected a folder for the results, new or existing)");
    fs::create_directories(dir, ec);
    if (ec)
        throw usage_error(option + " " + dir + ": cannot make the folder: " + ec.message() +
                          " (expected a folder that can be made here)");
    const fs::path probe = fs::path(dir) / (".cohsim-write-test." + std::to_string(::getpid()));
    {
        std::ofstream f(probe);
        if (!f)
            throw usage_error(option + " " + dir + ": cannot write into the folder: " + std::strerror(errno) +
                              " (expected a folder this user can write; results are written there at the end)");
    }
    fs::remove(probe, ec);
}

std::vector<std::pair<std::string, std::string>> numbered(const std::vector<std::string>& sets) {
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 0; i < sets.size(); ++i) out.emplace_back("--set #" + std::to_string(i + 1), sets[i]);
    return out;
}

}  // namespace cohsim

#include "app/commands/common.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "app/data.h"

namespace po = boost::program_options;

namespace cohsim {

void add_common(po::options_description& d, std::vector<std::string>& sets, std::vector<std::string>& include_paths) {
    d.add_options()  //
        ("include-path", po::value(&include_paths)->composing()->value_name("DIR"), include_path_help)  //
        ("set", po::value(&sets)->composing()->value_name("PATH=VALUE"),
         "override one config value, same syntax as in the file; repeatable, applied in order.\n"
         "  --set clusters.little.freq=1248MHz --set run.seed=7");
    add_help_option(d);
}

std::string config_arg(const parsed_args& p, const char* cmd) {
    if (p.positional.size() > 1)
        throw usage_error(std::string("'") + cmd + "' takes at most one CONFIG file, got " +
                          std::to_string(p.positional.size()) + " ('" + p.positional[1] + "' is extra)");
    return p.positional.empty() ? "" : find_config(p.positional.front());
}

// Replaces this process with the Python script NAME of the data directory
// (scripts/NAME) and `args`; returns only by throwing.
[[noreturn]] int exec_script(const std::string& name, const std::vector<std::string>& args) {
    const std::string script = data_file("scripts/" + name);
    if (!std::filesystem::exists(script)) throw std::runtime_error("the script " + script + " is missing");
    const std::string python = python_interpreter();
    std::vector<std::string> argv = {python, script};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    std::cout.flush();
    execvp(python.c_str(), cargv.data());
    throw std::runtime_error("cannot run " + python + ": " + std::strerror(errno));
}

}  // namespace cohsim

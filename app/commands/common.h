// What the commands share (app/commands/: a file per command, each its
// options, help and checks over an engine in app/): the exit statuses, the
// options of every command that takes a config, the CONFIG argument, the
// Python scripts some commands hand over to, and every command's entry point
// (the dispatch table is in app/cli.cpp).
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "app/options.h"

namespace cohsim {

constexpr int exit_ok = 0, exit_failure = 1, exit_bad_input = 2, exit_interrupted = 130;

// --include-path DIR, --set PATH=VALUE (both repeatable) and --help.
void add_common(boost::program_options::options_description& d, std::vector<std::string>& sets,
                std::vector<std::string>& include_paths);
// The command's one CONFIG argument, found (a path, or a shipped config's
// name); empty for the built-in default. More than one is a usage error.
std::string config_arg(const parsed_args& p, const char* cmd);
// Replaces this process with the Python script NAME of the data directory
// (scripts/NAME) and `args`; returns only by throwing.
[[noreturn]] int exec_script(const std::string& name, const std::vector<std::string>& args);

// Every command's entry point, one file each in app/commands/ (the command
// table in app/cli.cpp lists them).
int cmd_run(const std::vector<std::string>& args);
int cmd_config(const std::vector<std::string>& args);
int cmd_params(const std::vector<std::string>& args);
int cmd_sweep(const std::vector<std::string>& args);
int cmd_predict(const std::vector<std::string>& args);
int cmd_plot(const std::vector<std::string>& args);
int cmd_report(const std::vector<std::string>& args);
int cmd_compare(const std::vector<std::string>& args);
int cmd_protocol(const std::vector<std::string>& args);
int cmd_litmus(const std::vector<std::string>& args);
int cmd_validate(const std::vector<std::string>& args);
int cmd_calibrate(const std::vector<std::string>& args);
int cmd_c2c(const std::vector<std::string>& args);
int cmd_latmem(const std::vector<std::string>& args);
int cmd_scale(const std::vector<std::string>& args);

}  // namespace cohsim

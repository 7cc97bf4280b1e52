// What `cohsim c2c` and `cohsim latmem` share: their options around the
// command's own and their first steps, to the platform's sweep.
#pragma once

#include <boost/program_options.hpp>

#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "app/data.h"
#include "app/microbench.h"
#include "app/options.h"
#include "app/spawn.h"
#include "app/sweep.h"

namespace cohsim {

// What c2c and latmem share: their options around the command's own (the
// jobs, output and report ones before, the platform's overrides and help
// after) and their first steps, to the platform's sweep.
struct measurement_options {
    std::vector<std::string> sets, include_paths;
    std::string out_dir, report, jobs_text = std::to_string(host_cores());
    void add_outputs(boost::program_options::options_description& d, const char* jobs_what, const char* out_default,
                     const char* out_what, const char* report_what) {
        namespace po = boost::program_options;
        add_jobs_option(d, jobs_text, jobs_what);
        add_out_option(d, out_dir, out_default, out_what);
        d.add_options()  //
            ("report", po::value(&report)->value_name("DIR"), report_what);
    }
    void add_platform(boost::program_options::options_description& d, const char* set_what) {
        namespace po = boost::program_options;
        d.add_options()  //
            ("include-path", po::value(&include_paths)->composing()->value_name("DIR"), include_path_help)  //
            ("set", po::value(&sets)->composing()->value_name("PATH=VALUE"), set_what);
        add_help_option(d);
    }
    // --help and --report print and end the command (true); else the
    // platform's sweep (at the reference board's clocks with --check), ready
    // for the command's own points.
    bool printed(const parsed_args& p, const boost::program_options::options_description& d, const char* help,
                 const char* examples, const std::function<std::string(const std::string&)>& report_text) const {
        if (printed_help(p.vm, d, help, examples)) return true;
        if (!report.empty()) {
            std::cout << report_text(report);
            return true;
        }
        return false;
    }
    sweep_def platform(const parsed_args& p, const char* cmd) const {
        add_include_paths(include_paths);
        return microbench_sweep(p.positional, cmd, sets, p.vm.count("check") > 0);
    }
    unsigned jobs() const { return parse_jobs(jobs_text); }
};

}  // namespace cohsim

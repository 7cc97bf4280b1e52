// `cohsim config`: see its help text below.
#include "app/commands/common.h"

#include <boost/program_options.hpp>

#include <iostream>

#include "app/data.h"
#include "app/platform.h"
#include "sim/config_tree.h"

namespace po = boost::program_options;

namespace cohsim {

// ---- config ---------------------------------------------------------------

int cmd_config(const std::vector<std::string>& args) {
    std::vector<std::string> sets, include_paths;
    po::options_description d("options");
    add_common(d, sets, include_paths);
    const parsed_args p = parse_args(args, d);
    if (p.vm.count("help")) {
        std::cout << "usage: cohsim config [CONFIG] [--set PATH=VALUE]...\n\n"
                     "Prints the effective config as YAML: CONFIG (or the built-in default) with its\n"
                     "includes merged, the overrides applied and every default filled in. The same\n"
                     "text is written as config.yaml beside every run's results, and running it again\n"
                     "gives the same simulation.\n\n"
                  << d
                  << "\nexamples:\n  cohsim config configs/default.yaml\n"
                     "  cohsim config --set clusters.little.freq=1248MHz > equal-freq.yaml\n";
        return exit_ok;
    }
    add_include_paths(include_paths);
    const std::string file = config_arg(p, "config");
    const platform_config cfg = load_platform(file, numbered(sets));
    std::cout << cfg::to_yaml(effective_config(cfg));
    return exit_ok;
}

}  // namespace cohsim

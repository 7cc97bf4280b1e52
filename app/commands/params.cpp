// `cohsim params`: see its help text below.
#include "app/commands/common.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "app/data.h"
#include "app/platform.h"
#include "app/text_table.h"
#include "sim/schema.h"

namespace po = boost::program_options;

namespace cohsim {

// ---- params ---------------------------------------------------------------

namespace {

std::string md_escape(std::string s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += "\\";
        out += c;
    }
    return out;
}

}  // namespace

int cmd_params(const std::vector<std::string>& args) {
    std::vector<std::string> sets;
    po::options_description d("options");
    d.add_options()("markdown", "print a Markdown table (the docs' parameter reference is generated from it)")  //
        ("ranges", "list the uncertain values (NOMINAL ~ LO..HI) of CONFIG (the built-in default without one) instead")  //
        ("set", po::value(&sets)->composing()->value_name("PATH=VALUE"), "with --ranges: override a config value");
    add_help_option(d);
    const parsed_args p = parse_args(args, d);
    if (p.vm.count("help")) {
        std::cout << "usage: cohsim params [--markdown]\n"
                     "       cohsim params --ranges [CONFIG] [--set PATH=VALUE]...\n\n"
                     "Lists every config parameter: its path (<cluster> stands for any cluster name),\n"
                     "type, accepted units, default ('(required)' if it has none), allowed values and\n"
                     "description. The list is generated from the same declarations that parse configs.\n"
                     "Any number or quantity may be given with its uncertainty, NOMINAL ~ LO..HI\n"
                     "(e.g. request_latency: 26cycles ~ 20cycles..34cycles): a run uses NOMINAL,\n"
                     "`cohsim predict` draws from the range. --ranges lists a config's ranges.\n\n"
                  << d << "\nexamples:\n  cohsim params | grep clusters\n  cohsim params --ranges configs/platforms/asr_4xa53_4xa73.yaml\n";
        return exit_ok;
    }
    if (p.vm.count("ranges")) {
        const platform_config cfg = load_platform(config_arg(p, "params --ranges"), numbered(sets));
        text_table t;
        const bool any_prior = std::any_of(cfg.uncertain.begin(), cfg.uncertain.end(), [](const auto& u) { return !u.prior.empty(); });
        std::vector<std::string> head = {"parameter", "nominal", "range", "width"};
        if (any_prior) head.push_back("before calibration");
        t.header(head);
        for (const auto& u : cfg.uncertain) {
            char w[32];
            std::snprintf(w, sizeof w, "%+.0f%% / %+.0f%%", u.nominal ? 100.0 * (double(u.lo) - double(u.nominal)) / double(u.nominal) : 0.0,
                          u.nominal ? 100.0 * (double(u.hi) - double(u.nominal)) / double(u.nominal) : 0.0);
            std::vector<std::string> row = {u.path, u.format(u.nominal), u.format(u.lo) + ".." + u.format(u.hi), w};
            if (any_prior) row.push_back(u.prior.empty() ? "-" : u.prior);
            t.row(row);
        }
        if (cfg.uncertain.empty()) std::cout << "no uncertain values (NOMINAL ~ LO..HI) in this config\n";
        else std::cout << t.str();
        return exit_ok;
    }
    if (!sets.empty()) throw usage_error("--set needs --ranges (the parameter list does not depend on a config)");
    if (!p.positional.empty()) throw usage_error("'params' takes no arguments, got '" + p.positional.front() + "' (a config's ranges: --ranges CONFIG)");
    const auto params = cfg::list_params<platform_config>();
    if (p.vm.count("markdown")) {
        std::cout << "| path | type | units | default | allowed | description |\n|---|---|---|---|---|---|\n";
        for (const auto& i : params)
            std::cout << "| `" << i.path << "` | " << i.type << " | " << i.unit << " | " << md_escape(i.default_text)
                      << " | " << md_escape(i.constraint) << " | " << md_escape(i.description) << " |\n";
        return exit_ok;
    }
    for (const auto& i : params) {
        std::cout << i.path << "  (" << i.type;
        if (!i.unit.empty()) std::cout << "; " << i.unit;
        std::cout << ")  default: " << i.default_text << "\n";
        if (!i.constraint.empty()) std::cout << "    allowed: " << i.constraint << "\n";
        std::cout << "    " << i.description << "\n";
    }
    return exit_ok;
}

// The commands, once: the dispatch, `cohsim --help`'s list and the error for
// an unknown command are made from this table.

}  // namespace cohsim

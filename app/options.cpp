#include "app/options.h"

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

}  // namespace cohsim

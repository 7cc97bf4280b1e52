// Fuzzes the config loader: YAML text, then after a line "#%set" one
// override (PATH=VALUE, as --set takes it) per line, through the same
// schema, includes, ranges and calibration blocks as `cohsim run`.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "app/platform.h"
#include "fuzz_main.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    const auto cut = input.find("\n#%set\n");
    const std::string yaml = input.substr(0, cut);
    std::vector<std::pair<std::string, std::string>> overrides;
    if (cut != std::string::npos) {
        std::istringstream rest(input.substr(cut + 7));
        int n = 0;
        for (std::string line; std::getline(rest, line);) overrides.emplace_back("--set #" + std::to_string(++n), line);
    }
    cohsim::fuzz::only_config_errors([&] {
        const cohsim::platform_config c = cohsim::load_platform_tree(cohsim::cfg::load_text(yaml, "fuzz.yaml", "."), overrides);
        (void)cohsim::effective_config(c);
    });
    return 0;
}

#include "app/data.h"

#include <cstdlib>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "app/options.h"
#include "sim/config_tree.h"

namespace cohsim {

namespace fs = std::filesystem;

namespace {

bool holds_data(const fs::path& dir) {
    std::error_code ec;
    return fs::is_directory(dir / "configs", ec);
}

fs::path executable_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

}  // namespace

fs::path data_dir() {
    if (const char* env = std::getenv("COHSIM_DATA_DIR"); env && *env) {
        if (!holds_data(env))
            throw std::runtime_error(std::string("COHSIM_DATA_DIR=") + env +
                                     ": not a cohsim data directory (expected a folder holding configs/, "
                                     "e.g. PREFIX/share/cohsim)");
        return fs::path(env);
    }
    const fs::path bin = executable_dir();
    const std::vector<fs::path> candidates{bin.parent_path() / "share" / "cohsim", bin / "share" / "cohsim"};
    for (const auto& c : candidates)
        if (holds_data(c)) return c.lexically_normal();
    std::string looked;
    for (const auto& c : candidates) looked += (looked.empty() ? "" : ", ") + c.lexically_normal().string();
    throw std::runtime_error("cannot find cohsim's data directory (looked in " + looked +
                             "); install cohsim with `cmake --install`, or set COHSIM_DATA_DIR to a folder "
                             "holding configs/");
}

std::string data_file(const std::string& relative) { return (data_dir() / relative).string(); }

std::string shipped_config(const std::string& name) {
    fs::path data;
    try {
        data = data_dir();
    } catch (const std::runtime_error&) {
        return {};
    }
    std::error_code ec;
    const fs::path p(name);
    if (name.empty() || p.is_absolute()) return {};
    // A shipped platform by its bare name too (dynamiq_4xa55_4xa75).
    const bool bare = name.find('/') == std::string::npos && name.find('.') == std::string::npos;
    for (const fs::path& c : {data / "configs" / p, data / p, data / "configs" / "platforms" / (name + ".yaml")})
        if ((bare || c != data / "configs" / "platforms" / (name + ".yaml")) && fs::is_regular_file(c, ec))
            return c.lexically_normal().string();
    return {};
}

std::string find_config(const std::string& arg) {
    if (arg.empty() || arg == "-") return arg;
    std::error_code ec;
    const fs::path p(arg);
    if (fs::exists(p, ec) || p.is_absolute()) return arg;
    fs::path data;
    try {
        data = data_dir();
    } catch (const std::runtime_error&) {
        return arg;
    }
    if (const std::string c = shipped_config(arg); !c.empty()) return c;
    throw cfg::config_error({arg, 0, 0}, "",
                            "no such config file, neither from here nor among the shipped configs in " +
                                (data / "configs").string(),
                            "a YAML file, or a shipped one by its name under configs/, e.g. "
                            "platforms/asr_4xa53_4xa73.yaml or teaching/false_sharing.yaml, or a shipped "
                            "platform's bare name, e.g. asr_4xa53_4xa73");
}

const char* const include_path_help =
    "a folder where programs and .include files are also found, after the including file's folder, the built-in "
    "library and workload.include_path; repeatable";

void add_include_paths(const std::vector<std::string>& dirs) {
    if (dirs.empty()) return;
    std::string list;
    for (const auto& d : dirs) {
        std::error_code ec;
        if (!fs::is_directory(d, ec))
            throw usage_error("--include-path " + d + ": not a folder (expected a folder of assembly files)");
        list += (list.empty() ? "" : ":") + fs::absolute(d).lexically_normal().string();
    }
    if (const char* env = std::getenv("COHSIM_INCLUDE_PATH"); env && *env) list += std::string(":") + env;
    setenv("COHSIM_INCLUDE_PATH", list.c_str(), 1);
}

std::string python_interpreter() {
    if (const char* env = std::getenv("COHSIM_PYTHON"); env && *env) return env;
    // The first that has matplotlib: python3 from PATH (a virtualenv's, say),
    // then Debian's, where python3-matplotlib installs it.
    for (const char* python : {"python3", "/usr/bin/python3"}) {
        const std::string probe = std::string(python) + " -c 'import matplotlib' >/dev/null 2>&1";
        if (std::system(probe.c_str()) == 0) return python;
    }
    throw std::runtime_error("no python3 with matplotlib found (install Debian's python3-matplotlib: scripts/setup.sh, "
                             "or set COHSIM_PYTHON to an interpreter that has it)");
}

}  // namespace cohsim

// Where cohsim finds the files it ships besides its binary: the platform,
// calibration and teaching configs, the workload library's sources and the
// plot script. Nothing here is a path compiled in from the source tree; the
// data directory is found at run time, first match wins:
//   1. $COHSIM_DATA_DIR (an override; it must hold configs/);
//   2. PREFIX/share/cohsim, PREFIX being the folder above the binary's bin/
//      (the installed layout: `cmake --install`, the .deb);
//   3. share/cohsim beside the binary (the build tree, where CMake links it
//      to the sources).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cohsim {

// The data directory; throws std::runtime_error naming every place looked
// at when there is none.
std::filesystem::path data_dir();

// A file of the data directory, e.g. data_file("scripts/plot.py").
std::string data_file(const std::string& relative);

// A CONFIG argument as commands take it: "" (the built-in default) and "-"
// (standard input) unchanged; a path that exists from here as given; else,
// when relative, the data directory's configs/ARG or ARG (so an installed
// cohsim runs `platforms/asr_4xa53_4xa73.yaml` or
// `configs/teaching/false_sharing.yaml` from any directory). A relative name
// found nowhere is a cfg::config_error saying where it was looked for. A bare
// name (no '/', no '.') is also looked for as configs/platforms/NAME.yaml.
std::string find_config(const std::string& arg);
// A shipped config by such a name (configs/NAME, NAME under the data
// directory, or a platform's bare name), or "" when there is none. Config
// files' `include:` falls back on it (cfg::set_include_finder).
std::string shipped_config(const std::string& name);

// --include-path DIR...: checks each is a folder (a usage error otherwise)
// and puts them, absolute, in front of $COHSIM_INCLUDE_PATH, where the
// workload's program search finds them (workloads/scenario.h) and where the
// runs a sweep or prediction starts inherit them.
void add_include_paths(const std::vector<std::string>& dirs);
// The option's help text, the same for every command that takes it.
extern const char* const include_path_help;

// The Python that runs the plot and report scripts: $COHSIM_PYTHON, else the
// first of `python3` from PATH and /usr/bin/python3 that imports matplotlib
// (Debian's python3-matplotlib). Throws std::runtime_error when none does.
std::string python_interpreter();

}  // namespace cohsim

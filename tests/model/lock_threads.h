// Helpers of the lock tests: which cores run, and the threads override.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace cohsim::testing {

// little.0 .. little.(little-1), then big.0 .. big.(big-1).
inline std::vector<std::string> cores_of(unsigned little, unsigned big) {
    std::vector<std::string> ids;
    for (unsigned i = 0; i < little; ++i) ids.push_back("little." + std::to_string(i));
    for (unsigned i = 0; i < big; ++i) ids.push_back("big." + std::to_string(i));
    return ids;
}

// The override "workload.threads=[...]": one thread per core, `iters`
// iterations each, with `more(i)` added to thread i (e.g. its params).
inline std::string threads_on(const std::vector<std::string>& ids, unsigned iters,
                              const std::function<std::string(unsigned)>& more = {}) {
    std::string s = "workload.threads=[";
    for (unsigned i = 0; i < ids.size(); ++i)
        s += std::string(i ? ", " : "") + "{core: " + ids[i] + ", iterations: " + std::to_string(iters) +
             (more ? more(i) : "") + "}";
    return s + "]";
}

}  // namespace cohsim::testing

#include "app/explain.h"

#include <cstdio>

namespace cohsim {

void explainer::note(duration t, const std::string& text) {
    char ts[32];
    std::snprintf(ts, sizeof ts, "%10.1f ns  ", static_cast<double>(t.fs) * 1e-6);
    m_lines.push_back(ts + text);
}

std::string explainer::text() const {
    std::string s;
    for (const auto& l : m_lines) s += l + "\n";
    return s;
}

}  // namespace cohsim

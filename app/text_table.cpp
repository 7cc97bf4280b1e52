#include "app/text_table.h"

#include <algorithm>

namespace cohsim {

std::string text_table::str() const {
    std::vector<std::size_t> width;
    for (const auto& r : m_rows) {
        if (width.size() < r.size()) width.resize(r.size(), 0);
        for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
    }
    std::string out;
    for (std::size_t ri = 0; ri < m_rows.size(); ++ri) {
        const auto& r = m_rows[ri];
        std::string line;
        for (std::size_t i = 0; i < r.size(); ++i) {
            const std::string pad(width[i] - r[i].size(), ' ');
            if (i) line += "  ";
            line += i < m_left ? r[i] + pad : pad + r[i];
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
        if (ri == 0 && m_has_header) {
            std::size_t total = 0;
            for (std::size_t i = 0; i < width.size(); ++i) total += width[i] + (i ? 2 : 0);
            out += std::string(total, '-') + "\n";
        }
    }
    return out;
}

}  // namespace cohsim

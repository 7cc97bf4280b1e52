// A plain-text table with aligned columns: first column left-aligned, the
// rest right-aligned (they are numbers).
#pragma once

#include <string>
#include <vector>

namespace cohsim {

class text_table {
public:
    void header(std::vector<std::string> h) { m_rows.insert(m_rows.begin(), std::move(h)), m_has_header = true; }
    void row(std::vector<std::string> r) { m_rows.push_back(std::move(r)); }
    std::string str() const;

private:
    std::vector<std::vector<std::string>> m_rows;
    bool m_has_header = false;
};

}  // namespace cohsim

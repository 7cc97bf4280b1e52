// A plain-text table with aligned columns: the first `left` columns
// left-aligned (names), the rest right-aligned (numbers).
#pragma once

#include <string>
#include <vector>

namespace cohsim {

class text_table {
public:
    explicit text_table(std::size_t left = 1) : m_left(left) {}
    void header(std::vector<std::string> h) { m_rows.insert(m_rows.begin(), std::move(h)), m_has_header = true; }
    void row(std::vector<std::string> r) { m_rows.push_back(std::move(r)); }
    std::string str() const;

private:
    std::vector<std::vector<std::string>> m_rows;
    bool m_has_header = false;
    std::size_t m_left;
};

// A checked row's result cell: PASS or FAIL; for a row marked known_miss,
// KNOWN MISS while it fails and "PASS (known_miss no longer)" once it passes
// (the mark can go). `validate`'s cases and `c2c`/`latmem`'s references.
inline std::string check_verdict(bool pass, bool known_miss) {
    if (pass) return known_miss ? "PASS (known_miss no longer)" : "PASS";
    return known_miss ? "KNOWN MISS" : "FAIL";
}

}  // namespace cohsim

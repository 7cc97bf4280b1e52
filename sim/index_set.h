// A set of small indices (cores, caches) as a bit vector, visited in
// ascending order: for the hot path's "which of the many could be
// concerned?", so that a question put to each of them goes only to those.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cohsim {

class index_set {
public:
    void insert(unsigned i) {
        if (i / 64 >= m_words.size()) m_words.resize(i / 64 + 1);
        std::uint64_t& w = m_words[i / 64];
        const std::uint64_t bit = std::uint64_t{1} << (i % 64);
        m_size += (w & bit) == 0;
        w |= bit;
    }
    void erase(unsigned i) {
        if (i / 64 >= m_words.size()) return;
        std::uint64_t& w = m_words[i / 64];
        const std::uint64_t bit = std::uint64_t{1} << (i % 64);
        m_size -= (w & bit) != 0;
        w &= ~bit;
    }
    bool contains(unsigned i) const { return i / 64 < m_words.size() && (m_words[i / 64] >> (i % 64) & 1) != 0; }
    unsigned size() const { return m_size; }

    // Whether f(i) is true for a member i, asked in ascending order up to the
    // first that is. f may erase members: the visit goes over the members as
    // they were when their word (64 of them) was read.
    template <class F>
    bool any(const F& f) const {
        for (std::size_t w = 0; w < m_words.size(); ++w)
            for (std::uint64_t b = m_words[w]; b != 0; b &= b - 1)
                if (f(static_cast<unsigned>(w * 64 + static_cast<unsigned>(__builtin_ctzll(b))))) return true;
        return false;
    }

private:
    std::vector<std::uint64_t> m_words;
    unsigned m_size = 0;
};

}  // namespace cohsim

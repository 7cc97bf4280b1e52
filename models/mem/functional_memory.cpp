#include "models/mem/functional_memory.h"

namespace cohsim {

std::uint64_t functional_memory::read(std::uint64_t addr, unsigned size) const {
    auto it = m_words.find(addr & ~7ULL);
    const std::uint64_t w = it == m_words.end() ? 0 : it->second;
    const unsigned shift = (addr & 7) * 8;
    return size == 8 ? w : (w >> shift) & ((1ULL << (size * 8)) - 1);
}

void functional_memory::write(std::uint64_t addr, unsigned size, std::uint64_t value) {
    std::uint64_t& w = m_words[addr & ~7ULL];
    if (size == 8) {
        w = value;
        return;
    }
    const unsigned shift = (addr & 7) * 8;
    const std::uint64_t mask = ((1ULL << (size * 8)) - 1) << shift;
    w = (w & ~mask) | ((value << shift) & mask);
}

}  // namespace cohsim

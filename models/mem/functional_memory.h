// The functional memory: the one place data values live. Read and written at
// the instant an access performs in its L1 (or, for a far atomic, at the
// home); the coherence protocol decides when that may happen, this only
// holds the bytes.
//
// Modelled: byte-addressed little-endian storage in 8-byte words, accesses of
// 1, 2, 4 or 8 naturally aligned bytes; never-written bytes read as zero.
// Not modelled: timing (the caches and DRAM model that), ECC, caches' own copies.
#pragma once

#include <cstdint>
#include <unordered_map>

namespace cohsim {

class functional_memory {
public:
    // `size` is 1, 2, 4 or 8 and `addr` a multiple of it (the caller checks).
    std::uint64_t read(std::uint64_t addr, unsigned size) const;
    void write(std::uint64_t addr, unsigned size, std::uint64_t value);

private:
    std::unordered_map<std::uint64_t, std::uint64_t> m_words;  // by 8-byte-aligned address
};

}  // namespace cohsim

#include "models/cache_array.h"

namespace cohsim {

std::string cache_geometry::problem() const {
    auto pow2 = [](std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
    if (!pow2(line_bytes)) return "line size must be a power of two";
    if (ways == 0) return "a cache needs at least one way";
    if (size_bytes % (std::uint64_t{ways} * line_bytes) != 0) return "size must be a multiple of ways x line size";
    if (!pow2(sets())) return "size / (ways x line size) must be a power of two number of sets";
    return {};
}

}  // namespace cohsim

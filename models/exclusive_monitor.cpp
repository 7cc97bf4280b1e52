#include "models/exclusive_monitor.h"

#include <stdexcept>

namespace cohsim {

exclusive_monitor::exclusive_monitor(std::uint64_t granule_bytes) : m_granule(granule_bytes) {
    if (granule_bytes < 8 || (granule_bytes & (granule_bytes - 1)) != 0)
        throw std::invalid_argument("exclusive reservation granule must be a power of two of at least 8 bytes");
}

void exclusive_monitor::load_exclusive(std::uint64_t addr) {
    m_reserved = granule_of(addr);
    arm(true);
}

bool exclusive_monitor::store_exclusive(std::uint64_t addr) {
    const bool ok = holds(addr);
    arm(false);
    return ok;
}

bool exclusive_monitor::line_lost(std::uint64_t line_addr, std::uint64_t line_bytes) {
    if (!overlaps(line_addr, line_bytes)) return false;
    arm(false);
    return true;
}

}  // namespace cohsim

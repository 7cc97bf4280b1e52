// A core's exclusive monitor (LDXR/STXR), as plain C++.
//
// Rules (one helper each, one test each in tests/unit/exclusive_monitor_test.cpp):
//   - LDXR/LDAXR arms the monitor on the reservation granule holding the
//     address (granule = aligned block of `granule` bytes, 64 by default);
//     a new LDXR replaces the old reservation.
//   - A write to the reserved granule by another observer (plain store,
//     store-release, successful store-exclusive, atomic), or the loss of the
//     line to another core's write request, clears it.
//   - The core's own plain store does not clear it.
//   - Eviction of the line clears it when the platform says so.
//   - STXR succeeds only if the monitor is armed on the granule of its
//     address; after any STXR, successful or not, the monitor is open.
//   - CLREX opens it.
// The monitor itself does not know about time; the core records when it was
// armed (for the snoop hold window) and raises the WFE event when `clear`
// reports that a reservation was lost.
#pragma once

#include <cstdint>

namespace cohsim {

class exclusive_monitor {
public:
    explicit exclusive_monitor(std::uint64_t granule_bytes = 64);

    std::uint64_t granule_bytes() const { return m_granule; }
    std::uint64_t granule_of(std::uint64_t addr) const { return addr & ~(m_granule - 1); }

    bool armed() const { return m_armed; }
    bool holds(std::uint64_t addr) const { return m_armed && granule_of(addr) == m_reserved; }
    // Armed on a granule that overlaps [line_addr, line_addr + line_bytes).
    bool overlaps(std::uint64_t line_addr, std::uint64_t line_bytes) const {
        return m_armed && m_reserved < line_addr + line_bytes && line_addr < m_reserved + m_granule;
    }

    void load_exclusive(std::uint64_t addr);
    // Returns whether the store-exclusive may write; the monitor opens either way.
    bool store_exclusive(std::uint64_t addr);
    void clrex() { arm(false); }

    // Another observer wrote (or took for writing) [addr, addr + bytes):
    // a granule, or for DC ZVA a whole line. Returns true if that cleared
    // this monitor's reservation.
    bool other_write(std::uint64_t addr, std::uint64_t bytes = 1) {  // inline: asked of every other core on every write
        if (!overlaps(addr, bytes)) return false;
        arm(false);
        return true;
    }
    // The line holding `addr` left this core's cache (eviction or snoop).
    // Returns true if that cleared the reservation.
    bool line_lost(std::uint64_t line_addr, std::uint64_t line_bytes);

    // Counts this monitor in `*armed` while it is armed (one count shared by
    // a system's monitors, so that a write asks the others only when one of
    // them is armed). Call while the monitor is open.
    void tally_into(unsigned* armed) { m_tally = armed; }

private:
    void arm(bool on) {
        if (m_tally && on != m_armed) *m_tally += on ? 1u : ~0u;
        m_armed = on;
    }

    std::uint64_t m_granule;
    std::uint64_t m_reserved = 0;
    bool m_armed = false;
    unsigned* m_tally = nullptr;
};

}  // namespace cohsim

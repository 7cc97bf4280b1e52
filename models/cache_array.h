// A set-associative tag array with LRU replacement, as plain C++: which lines
// a cache holds, and which one it gives up for a new line. Coherence state
// lives in the payload `T`; data values live in the simulator's functional
// memory, not here.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/schema.h"

namespace cohsim {

struct cache_geometry {
    std::uint64_t size_bytes = 32 * 1024;
    std::uint32_t ways = 4;
    std::uint32_t line_bytes = 64;
    std::uint64_t sets() const { return size_bytes / (std::uint64_t{ways} * line_bytes); }
    // Empty if valid, else what is wrong.
    std::string problem() const;
};

// A config rule for a cache's `size` and `ways` keys: the geometry must be
// valid (64-byte lines), else a config error at `size` that names the nearest
// valid sizes for those ways.
template <class P>
void cache_geometry_rule(cfg::struct_schema<P>& s) {
    s.rule([](const P& p, const cfg::node* n, const std::string& path) {
        const cache_geometry g{p.size.bytes, p.ways, 64};
        const std::string what = g.problem();
        if (what.empty()) return;
        const std::uint64_t unit = std::uint64_t{p.ways} * 64;
        std::uint64_t lo = unit;
        while (lo * 2 <= p.size.bytes) lo *= 2;
        const cfg::node* k = n ? n->find("size") : nullptr;
        throw cfg::config_error(k ? k->loc : n ? n->loc : cfg::source_loc{}, cfg::join_path(path, "size"),
                                "'" + to_string(p.size) + "' with " + std::to_string(p.ways) + " ways of 64B lines: " + what,
                                "ways x 64B x a power of two sets, e.g. " + to_string(byte_size{lo}) + " or " +
                                    to_string(byte_size{lo * 2}) + " with " + std::to_string(p.ways) + " ways");
    });
}

template <class T>
class cache_array {
public:
    struct entry {
        std::uint64_t line = 0;  // line address (byte address of the line's first byte)
        bool valid = false;
        std::uint64_t last_use = 0;
        T payload{};
    };

    explicit cache_array(cache_geometry g) : m_geo(g) {
        if (const auto p = g.problem(); !p.empty()) throw std::invalid_argument(p);
        m_entries.resize(g.sets() * g.ways);
        m_set_mask = g.sets() - 1;
        m_line_shift = static_cast<unsigned>(__builtin_ctzll(g.line_bytes));
    }

    std::uint64_t line_of(std::uint64_t addr) const { return addr & ~std::uint64_t(m_geo.line_bytes - 1); }
    std::uint64_t set_of(std::uint64_t addr) const { return (addr >> m_line_shift) & m_set_mask; }

    entry* find(std::uint64_t addr) {
        const std::uint64_t line = line_of(addr);
        for (entry& e : set(addr))
            if (e.valid && e.line == line) return &e;
        return nullptr;
    }
    const entry* find(std::uint64_t addr) const { return const_cast<cache_array*>(this)->find(addr); }
    void touch(entry& e) { e.last_use = ++m_clock; }

    // A free way in addr's set, or else the least recently used way for which
    // `evictable` is true (nullptr if none is).
    template <class Evictable>
    entry* victim(std::uint64_t addr, const Evictable& evictable) {
        entry* best = nullptr;
        for (entry& e : set(addr)) {
            if (!e.valid) return &e;
            if (evictable(e) && (!best || e.last_use < best->last_use)) best = &e;
        }
        return best;
    }

    // Puts addr's line into a free entry (from victim()).
    entry& install(entry& e, std::uint64_t addr) {
        e.line = line_of(addr);
        e.valid = true;
        e.payload = T{};
        touch(e);
        return e;
    }
    void invalidate(entry& e) { e.valid = false; }

private:
    struct set_range {
        entry* b;
        entry* e;
        entry* begin() const { return b; }
        entry* end() const { return e; }
    };
    set_range set(std::uint64_t addr) {
        entry* first = m_entries.data() + set_of(addr) * m_geo.ways;
        return {first, first + m_geo.ways};
    }

    cache_geometry m_geo;
    std::uint64_t m_set_mask = 0;  // sets - 1 (a power of two, problem() checks)
    unsigned m_line_shift = 6;     // log2(line_bytes)
    std::vector<entry> m_entries;
    std::uint64_t m_clock = 0;
};

}  // namespace cohsim

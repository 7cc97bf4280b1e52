#include "models/mem/l1_cache.h"
#include "models/cache_array.h"

namespace cohsim {

void l1_params::describe(cfg::struct_schema<l1_params>& s) {
    s.param("size", &l1_params::size, "L1 data cache size (unset: the core type's, from its preset)")
        .def(l1_params{}.size).range(byte_size{1024}, byte_size{16u << 20});
    s.param("ways", &l1_params::ways, "L1 associativity (unset: the core type's)")
        .def(l1_params{}.ways).range(1u, 64u);
    s.param("hit_latency", &l1_params::hit_latency, "load-to-use latency of an L1 hit, core cycles (unset: the core type's)")
        .def(l1_params{}.hit_latency)
        .range(cycles{1}, cycles{100});
    s.param("prefetch_store", &l1_params::prefetch_store,
            "PRFM PST* (prefetch for store) fetches a line the L1 lacks in a unique state (true) or is dropped as a "
            "hint (false); either way it costs the L1 lookup")
        .def(l1_params{}.prefetch_store);
    s.param("standby_snoop_latency", &l1_params::standby_snoop_latency,
            "cycles a snoop waits while the L1 of a core asleep in WFE has its clocks enabled (0 = none)")
        .def(l1_params{}.standby_snoop_latency)
        .range(cycles{0}, cycles{100000});
    cache_geometry_rule(s);
}

void exclusive_params::describe(cfg::struct_schema<exclusive_params>& s) {
    s.param("granule", &exclusive_params::granule, "exclusive reservation granule")
        .def(exclusive_params{}.granule)
        .rule([](const byte_size& b) { return b.bytes >= 8 && b.bytes <= 2048 && (b.bytes & (b.bytes - 1)) == 0; },
              "a power of two from 8B to 2KiB");
    s.param("load_unique", &exclusive_params::load_unique,
            "an exclusive load that misses asks for the line Unique (true) or Shared (false)")
        .def(exclusive_params{}.load_unique);
    s.param("hold_window", &exclusive_params::hold_window,
            "core cycles after an exclusive load during which snoops to that line wait (0 = none)")
        .def(exclusive_params{}.hold_window)
        .range(cycles{0}, cycles{100000});
    s.param("evict_clears", &exclusive_params::evict_clears, "evicting the reserved line clears the reservation")
        .def(exclusive_params{}.evict_clears);
}

}  // namespace cohsim

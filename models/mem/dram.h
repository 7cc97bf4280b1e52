// DRAM: one memory controller per socket, seen from that socket's
// interconnect.
//
// Modelled: a line read starts at the interconnect's next clock edge, or
// when the controller is free if it is still busy with an earlier read; it
// keeps the controller busy for the line's bytes at `bytes_per_second`, and
// its data is back at the interconnect's first edge at or after the start
// plus `latency`.
// Refresh (a noise source, run.noise): with refresh_interval > 0 the
// controller refreshes all banks every refresh_interval (tREFI) for
// refresh_time (tRFC), starting at a phase drawn from the seed per socket; a
// read that would start during a refresh starts when it ends.
// Not modelled: banks, rows, per-bank refresh, the write path (writebacks land in the
// shared caches, which are timing filters; memory is never the bottleneck of
// a write here), per-channel queues.
// Timing assumptions: `latency` is the whole access as the interconnect sees
// it (controller, DRAM and the way back), from the platform's measurements.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/clock_domain.h"
#include "sim/noise.h"
#include "sim/schema.h"
#include "sim/stats.h"
#include "sim/units.h"

namespace cohsim {

struct memory_params {
    duration latency{100'000'000};          // 100ns
    std::uint64_t bytes_per_second = 12'800'000'000ULL;
    duration refresh_interval{0};  // tREFI; 0 = no refresh modelled
    duration refresh_time{0};      // tRFC
    static void describe(cfg::struct_schema<memory_params>& s);
};

class dram {
public:
    // `ic` is the interconnect's clock; the counter joins `stats`.
    dram(const memory_params& p, const clock_domain& ic, unsigned sockets, stat_group& stats, const noise& n = {});

    // Reads one line of `line_bytes` at socket `socket`'s controller, asked at
    // `now`: when its data is back at the interconnect.
    duration read_line(unsigned socket, duration now, std::uint64_t line_bytes);

private:
    memory_params m_p;
    const clock_domain& m_ic;
    std::vector<duration> m_free;  // per socket: the controller is busy until then
    std::vector<std::uint64_t> m_refresh_phase;  // per socket, fs; empty: no refresh
    counter m_reads;
    counter m_refresh_waits;
};

}  // namespace cohsim

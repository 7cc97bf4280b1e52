// Who won the lock: each contending core's share, Jain's fairness index and a
// verdict in words.
//
// Verdicts, with n cores contending (fair share 1/n) over a run of length T:
//   STARVED        share < 1% of the fair share, or a single wait >= 25% of T
//   DISADVANTAGED  share < 50% of the fair share, or a single wait >= 1% of T
//   fair           otherwise
// The reason names the core's acquisitions against the most successful core's
// and its longest wait, e.g.
//   little.2 STARVED: 182 acquisitions vs 38.4M for big.3 (share 4.7e-06); longest wait 15.3 s
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cohsim {

enum class verdict { fair, disadvantaged, starved };
const char* name(verdict v);

struct contender {
    std::string id;
    std::uint64_t acquisitions = 0;
    double longest_wait_ns = 0;
};

struct contender_result {
    std::string id;
    std::uint64_t acquisitions = 0;
    double share = 0;  // of all acquisitions
    double longest_wait_ns = 0;
    verdict v = verdict::fair;
    std::string reason;
};

struct contention {
    double jain = 1;  // (sum x)^2 / (n sum x^2); 1 = perfectly even, 1/n = one core takes all
    std::vector<contender_result> cores;
};

contention judge(const std::vector<contender>& cores, double run_ns);

// "38.4M", "182", "1.23k": counts as people read them.
std::string count_text(std::uint64_t n);

}  // namespace cohsim

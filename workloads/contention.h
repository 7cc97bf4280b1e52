// Who won the lock: each contending core's share, Jain's fairness index and a
// verdict in words.
//
// With n cores contending over a run of length T and A acquisitions in all,
// a core's fair share is 1/n and a *turn* is T*n/A: how long a core would wait
// between its acquisitions if every core had its fair share. Verdicts:
//   too few samples  fewer than 100 acquisitions per core on average (A/n < 100):
//                    no label, whatever the run looked like; run longer
//   STARVED          share < 1% of the fair share
//   DISADVANTAGED    share < 50% of the fair share, or a single wait >= 100 turns
//                    or >= 25% of T (a core that got its share overall but was
//                    shut out for a long stretch is not starved)
//   DOMINANT         share above (n+1)/(2n): the other cores together got less
//                    than half of what was fair for them (never "fair")
//   fair             otherwise
// The thresholds are chosen so the labels hold across run lengths: at 100
// acquisitions per core, a share of 50% of fair is 5 Poisson standard
// deviations below chance; a lock that picks its winner at random keeps every
// wait under ~20 turns over 10^7 acquisitions (the longest of K geometric
// waits grows like ln K); a wait in turns does not grow with T as a wait
// against T does. They agree with Jain's index J: one core at a share of a/n
// caps J at n(n-1) / (a^2 (n-1) + (n-a)^2) (the others even), so a core
// STARVED means J <= ~(n-1)/n and one DISADVANTAGED by its share
// J < 1 - 1/(4n-3) (0.8 for two cores); tests/unit/contention_test.cpp checks
// the bound on random shares.
// The reason names the core's acquisitions against the most successful core's
// and its longest wait, e.g.
//   little.2 STARVED: 182 acquisitions vs 38.4M for big.3 (share 4.7e-06); longest wait 1.95 s
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cohsim {

enum class verdict { fair, disadvantaged, starved, dominant, too_few };
// Every verdict, in the enum's order (for tables with a column per verdict).
inline constexpr verdict all_verdicts[] = {verdict::fair, verdict::disadvantaged, verdict::starved, verdict::dominant,
                                           verdict::too_few};
const char* name(verdict v);

// The least average acquisitions per contending core for a verdict.
constexpr double min_acquisitions_per_core = 100;

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
    double longest_wait_turns = 0;  // longest wait / turn (0 when nothing was acquired)
    verdict v = verdict::fair;
    std::string reason;
};

struct contention {
    double jain = 1;  // (sum x)^2 / (n sum x^2); 1 = perfectly even, 1/n = one core takes all
    double turn_ns = 0;  // T*n/A: a core's mean wait between acquisitions at its fair share
    bool enough = true;  // enough acquisitions for verdicts
    std::vector<contender_result> cores;
};

contention judge(const std::vector<contender>& cores, double run_ns);

// "38.4M", "182", "1.23k": counts as people read them.
std::string count_text(std::uint64_t n);

}  // namespace cohsim

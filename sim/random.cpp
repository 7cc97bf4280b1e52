#include "sim/random.h"

#include <algorithm>

namespace cohsim {

double normal_quantile(double p) {
    // Acklam's rational approximation: a/b in the central region, c/d in
    // the tails, which meet at p = 0.02425 and 1 - 0.02425.
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                   1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                   6.680131188771972e+01,  -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                   -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                   3.754408661907416e+00};
    constexpr double low = 0.02425;
    auto tail = [&](double q) {
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    };
    if (p < low) return tail(std::sqrt(-2 * std::log(p)));
    if (p > 1 - low) return -tail(std::sqrt(-2 * std::log(1 - p)));
    const double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

std::uint64_t lognormal_at(std::uint64_t median, double sigma, double u) {
    if (sigma == 0 || median == 0) return median;
    const double z = std::clamp(normal_quantile(u), -4.0, 4.0);
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(median) * std::exp(sigma * z)));
}

}  // namespace cohsim

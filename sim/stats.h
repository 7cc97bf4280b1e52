// Statistics declared once, in the owner's constructor, and read by visitors
// that know nothing of the owner: the JSON writer, the text table and later the
// CSV writer all walk the same groups.
#pragma once

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace cohsim {

class stat_group;

struct summary {
    std::uint64_t count = 0;
    double min = 0, max = 0, mean = 0, sd = 0;
    // Percentiles from a log-bucketed histogram (8 buckets per doubling: each
    // value is within 9% of the true percentile); NaN-free, 0 when empty.
    double p25 = 0, p50 = 0, p75 = 0, p90 = 0, p99 = 0;
    // The non-empty histogram buckets, in order: [lo, hi) and the count (a
    // bucket of zeros has lo = hi = 0).
    struct bucket {
        double lo, hi;
        std::uint64_t count;
    };
    std::vector<bucket> histogram;
};

struct stat_visitor {
    virtual ~stat_visitor() = default;
    virtual void counter(const std::string& name, const std::string& desc, std::uint64_t value) = 0;
    virtual void distribution(const std::string& name, const std::string& desc, const summary& s) {
        (void)name, (void)desc, (void)s;
    }
};

class stat {
public:
    stat(stat_group& group, std::string name, std::string desc);
    virtual ~stat() = default;
    stat(const stat&) = delete;
    stat& operator=(const stat&) = delete;
    const std::string& name() const { return m_name; }
    const std::string& desc() const { return m_desc; }
    virtual void accept(stat_visitor& v) const = 0;

private:
    std::string m_name, m_desc;
};

class counter : public stat {
public:
    using stat::stat;
    counter& operator++() {
        ++m_value;
        return *this;
    }
    counter& operator+=(std::uint64_t n) {
        m_value += n;
        return *this;
    }
    std::uint64_t value() const { return m_value; }
    void accept(stat_visitor& v) const override { v.counter(name(), desc(), m_value); }

private:
    std::uint64_t m_value = 0;
};

// Samples of a quantity (e.g. a wait in ns): count, min, max, mean, sd,
// and percentiles from a log-bucketed histogram.
class distribution : public stat {
public:
    using stat::stat;
    static constexpr int buckets_per_doubling = 8;
    void sample(double v) {
        if (m_count == 0 || v < m_min) m_min = v;
        if (m_count == 0 || v > m_max) m_max = v;
        ++m_count;
        ++m_buckets[bucket_of(v)];
        // Welford's update: stable for long runs.
        const double d = v - m_mean;
        m_mean += d / static_cast<double>(m_count);
        m_m2 += d * (v - m_mean);
    }
    summary get() const;
    void accept(stat_visitor& v) const override { v.distribution(name(), desc(), get()); }

    // The value below which a fraction q of the samples lie (bucket centre,
    // clamped to [min, max]).
    double percentile(double q) const;
    static int bucket_of(double v) {
        return v <= 0 ? std::numeric_limits<int>::min() : static_cast<int>(std::floor(std::log2(v) * buckets_per_doubling));
    }

private:
    std::uint64_t m_count = 0;
    double m_min = 0, m_max = 0, m_mean = 0, m_m2 = 0;
    std::map<int, std::uint64_t> m_buckets;
};

// A named set of stats (one per component instance, e.g. "little.2").
class stat_group {
public:
    explicit stat_group(std::string name) : m_name(std::move(name)) {}
    stat_group(const stat_group&) = delete;
    stat_group& operator=(const stat_group&) = delete;
    const std::string& name() const { return m_name; }
    void add(const stat* s) { m_stats.push_back(s); }
    void accept(stat_visitor& v) const {
        for (const stat* s : m_stats) s->accept(v);
    }

private:
    std::string m_name;
    std::vector<const stat*> m_stats;
};

// The value of the counter `name` in `g`; all ones when it has none.
inline std::uint64_t counter_of(const stat_group& g, const std::string& name) {
    struct finder : stat_visitor {
        const std::string* want;
        std::uint64_t value = ~std::uint64_t{0};
        void counter(const std::string& n, const std::string&, std::uint64_t v) override {
            if (n == *want) value = v;
        }
    } f;
    f.want = &name;
    g.accept(f);
    return f.value;
}

inline double distribution::percentile(double q) const {
    if (m_count == 0) return 0;
    const double want = q * static_cast<double>(m_count);
    std::uint64_t seen = 0;
    for (const auto& [b, n] : m_buckets) {
        seen += n;
        if (static_cast<double>(seen) >= want) {
            if (b == std::numeric_limits<int>::min()) return std::max(m_min, 0.0);
            const double centre = std::exp2((b + 0.5) / buckets_per_doubling);
            return std::min(std::max(centre, m_min), m_max);
        }
    }
    return m_max;
}

inline summary distribution::get() const {
    summary s;
    s.count = m_count;
    s.min = m_min;
    s.max = m_max;
    s.mean = m_mean;
    s.sd = m_count > 1 ? std::sqrt(m_m2 / static_cast<double>(m_count - 1)) : 0.0;
    s.p25 = percentile(0.25), s.p50 = percentile(0.50), s.p75 = percentile(0.75);
    s.p90 = percentile(0.90), s.p99 = percentile(0.99);
    for (const auto& [b, n] : m_buckets) {
        if (b == std::numeric_limits<int>::min())
            s.histogram.push_back({0, 0, n});
        else
            s.histogram.push_back({std::exp2(static_cast<double>(b) / buckets_per_doubling),
                                   std::exp2(static_cast<double>(b + 1) / buckets_per_doubling), n});
    }
    return s;
}

inline stat::stat(stat_group& group, std::string name, std::string desc)
    : m_name(std::move(name)), m_desc(std::move(desc)) {
    group.add(this);
}

}  // namespace cohsim

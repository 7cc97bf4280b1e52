#include "sim/index_set.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

using namespace cohsim;

// Random inserts and erases across several words, against std::set: the
// same members, count and ascending visit.
TEST(IndexSet, AgreesWithAnOrderedSet) {
    index_set s;
    std::set<unsigned> oracle;
    std::mt19937 rng(7);
    for (int step = 0; step < 5000; ++step) {
        const unsigned i = rng() % 200;
        if (rng() % 3 == 0)
            s.erase(i), oracle.erase(i);
        else
            s.insert(i), oracle.insert(i);
        ASSERT_EQ(s.size(), oracle.size());
        ASSERT_EQ(s.contains(i), oracle.count(i) == 1);
    }
    std::vector<unsigned> seen;
    EXPECT_FALSE(s.any([&](unsigned i) { return seen.push_back(i), false; }));
    EXPECT_EQ(seen, std::vector<unsigned>(oracle.begin(), oracle.end()));
}

TEST(IndexSet, AnyStopsAtTheFirstYesAndToleratesErasing) {
    index_set s;
    for (unsigned i : {3u, 64u, 65u, 130u}) s.insert(i);
    std::vector<unsigned> seen;
    EXPECT_TRUE(s.any([&](unsigned i) { return seen.push_back(i), i == 65; }));
    EXPECT_EQ(seen, (std::vector<unsigned>{3, 64, 65}));
    // Erasing every member while visiting: each is still visited once.
    seen.clear();
    s.any([&](unsigned i) { return s.erase(i), seen.push_back(i), false; });
    EXPECT_EQ(seen, (std::vector<unsigned>{3, 64, 65, 130}));
    EXPECT_EQ(s.size(), 0u);
    s.erase(1000);  // beyond its words: nothing to do
    EXPECT_FALSE(s.contains(1000));
}

#include <gtest/gtest.h>

#include "sim/text_table.h"

TEST(TextTable, AlignsColumns) {
    cohsim::text_table t;
    t.header({"core", "count"});
    t.row({"little.2", "182"});
    t.row({"big.3", "38371616"});
    EXPECT_EQ(t.str(),
              "core         count\n"
              "------------------\n"
              "little.2       182\n"
              "big.3     38371616\n");
}

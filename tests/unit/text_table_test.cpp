#include <gtest/gtest.h>

#include "app/text_table.h"

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

TEST(TextTable, LeadingTextColumnsAlignLeft) {
    cohsim::text_table t(2);
    t.header({"case", "check", "value"});
    t.row({"a", "long check name", "1"});
    t.row({"bb", "short", "22"});
    EXPECT_EQ(t.str(),
              "case  check            value\n"
              "----------------------------\n"
              "a     long check name      1\n"
              "bb    short               22\n");
}

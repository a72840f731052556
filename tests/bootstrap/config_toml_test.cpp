// The TOML that `serve --config` takes (bootstrap/config_toml.hpp): strings, numbers, booleans and
// arrays come out as the flags read them, and a line that is not TOML is named by its number.

#include "bootstrap/config_toml.hpp"

#include <gtest/gtest.h>

namespace petstore::bootstrap {
namespace {

std::vector<std::string> values_of(std::string_view text) {
  const auto entries = parse_toml(text);
  EXPECT_TRUE(entries) << (entries ? "" : entries.error().message);
  if (!entries || entries->size() != 1) {
    return {"<" + std::to_string(entries ? entries->size() : 0) + " entries>"};
  }
  return entries->front().values;
}

std::string error_of(std::string_view text) {
  const auto entries = parse_toml(text);
  return entries ? "<accepted>" : entries.error().message;
}

using Values = std::vector<std::string>;

TEST(ConfigTomlTest, StringsAreUnquotedAndUnescaped) {
  EXPECT_EQ(values_of("k = \"a # b, c\""), Values{"a # b, c"}) << "# and , inside a string";
  EXPECT_EQ(values_of("k = 'C:\\dir'"), Values{"C:\\dir"}) << "a literal string has no escapes";
  EXPECT_EQ(values_of("k = \"tab\\there \\\"q\\\" \\u00e9\""), Values{"tab\there \"q\" \xC3\xA9"});
  EXPECT_EQ(values_of("\"k\" = \"\""), Values{""});
}

TEST(ConfigTomlTest, NumbersComeAsPlainDecimalText) {
  EXPECT_EQ(values_of("k = 1_000"), Values{"1000"});
  EXPECT_EQ(values_of("k = 0x1F"), Values{"31"});
  EXPECT_EQ(values_of("k = 0o17"), Values{"15"});
  EXPECT_EQ(values_of("k = 0b101"), Values{"5"});
  EXPECT_EQ(values_of("k = -2.5e-3"), Values{"-2.5e-3"});
  EXPECT_EQ(values_of("k = +7"), Values{"7"});
  EXPECT_EQ(values_of("k = 0e5"), Values{"0e5"});
  // Left to the flags' own checks, which refuse them by name.
  EXPECT_EQ(values_of("k = nan"), Values{"nan"});
  EXPECT_EQ(values_of("k = -inf"), Values{"-inf"});
  EXPECT_EQ(values_of("k = +inf"), Values{"inf"});
}

TEST(ConfigTomlTest, BooleansArraysTablesAndComments) {
  EXPECT_EQ(values_of("k = true # on"), Values{"true"});
  EXPECT_EQ(values_of("k = [\"10.0.0.0/8\", # one\n  '::1/128',\n]\n"),
            (Values{"10.0.0.0/8", "::1/128"}));
  EXPECT_EQ(values_of("k = []"), Values{});
  const auto entries = parse_toml("# top\r\n\r\na = 1\r\n[server . x]\n  b = \"2\"\n");
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 2U);
  EXPECT_EQ((*entries)[0].key, "a");
  EXPECT_EQ((*entries)[1].key, "server.x.b");
  EXPECT_EQ((*entries)[1].line, 5);
}

TEST(ConfigTomlTest, WhatIsNotTomlIsNamedWithItsLine) {
  EXPECT_EQ(error_of("listen ="), "line 1: 'listen' has no value");
  EXPECT_EQ(error_of("# c\n\nlisten = # none\n"), "line 3: 'listen' has no value");
  EXPECT_EQ(error_of("a = 1\nlisten\n"), "line 2: expected '=' after the key 'listen'");
  EXPECT_EQ(error_of("= 5"), "line 1: a key is missing before '='");
  EXPECT_EQ(error_of("a = 1\na = 2"), "line 2: 'a' is set twice (first on line 1)");
  EXPECT_EQ(error_of("a = \"open\nb = 1"), "line 1: the string is not closed by \" on its line");
  EXPECT_EQ(error_of("a = [1,\n2\n"), "line 3: the array is not closed by ']'");
  EXPECT_EQ(error_of("a = [1 2]"), "line 1: expected ',' or ']' in the array");
  EXPECT_EQ(error_of("a = \"x\" y"), "line 1: unexpected 'y' after the value");
  EXPECT_EQ(error_of("[table\na = 1"), "line 1: the table header [table is not closed by ']'");
  EXPECT_EQ(error_of("a = \"\\q\""), "line 1: an unknown escape in a string: \\q");
  EXPECT_EQ(error_of("a = \"\"\"x\"\"\""), "line 1: a multi-line string is not taken");
  EXPECT_EQ(error_of("a = {b = 1}"), "line 1: an inline table is not taken");
  for (const char* bare : {"a = 127.0.0.1:0", "a = 64KiB", "a = 1979-05-27", "a = 012", "a = 1__0",
                           "a = 1.", "a = True", "a = 0x"}) {
    SCOPED_TRACE(bare);
    EXPECT_NE(error_of(bare).find("line 1: "), std::string::npos) << error_of(bare);
    EXPECT_NE(error_of(bare).find("is not a TOML value"), std::string::npos) << error_of(bare);
  }
}

}  // namespace
}  // namespace petstore::bootstrap

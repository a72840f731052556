// The TOML that `serve --config` takes (bootstrap/config_toml.hpp): TOML 1.0 as toml++ reads it,
// flattened into entries in file order whose values are the text the flags read, and every
// refusal one line that names its line and column.

#include "bootstrap/config_toml.hpp"

#include <cctype>

#include <gtest/gtest.h>

namespace petstore::bootstrap {
namespace {

using Values = std::vector<std::string>;

Values values_of(std::string_view text) {
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

// expect_refused: one line, "line <line>, column <C>: ..." that says `words`. The column is
// toml++'s when it refuses; our own refusals are checked to the column below.
void expect_refused(std::string_view text, int line, std::string_view words) {
  SCOPED_TRACE(text);
  const std::string error = error_of(text);
  const std::string place = "line " + std::to_string(line) + ", column ";
  ASSERT_TRUE(error.starts_with(place)) << error;
  const std::size_t colon = error.find(": ", place.size());
  ASSERT_NE(colon, std::string::npos) << error;
  EXPECT_GT(colon, place.size()) << error;
  for (std::size_t i = place.size(); i < colon; ++i) {
    EXPECT_NE(std::isdigit(static_cast<unsigned char>(error[i])), 0) << error;
  }
  EXPECT_NE(error.find(words), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(ConfigTomlTest, StringsAreUnquotedAndUnescaped) {
  EXPECT_EQ(values_of("k = \"a # b, c\""), Values{"a # b, c"}) << "# and , inside a string";
  EXPECT_EQ(values_of("k = 'C:\\dir'"), Values{"C:\\dir"}) << "a literal string has no escapes";
  EXPECT_EQ(values_of("k = \"tab\\there \\\"q\\\" \\u00e9\""), Values{"tab\there \"q\" \xC3\xA9"});
  EXPECT_EQ(values_of("\"k\" = \"\""), Values{""});
  EXPECT_EQ(values_of("k = \"\"\"\none\ntwo\"\"\""), Values{"one\ntwo"}) << "multi-line";
}

TEST(ConfigTomlTest, IntegersComeAsPlainDecimalText) {
  EXPECT_EQ(values_of("k = 1_000"), Values{"1000"});
  EXPECT_EQ(values_of("k = 0x1F"), Values{"31"});
  EXPECT_EQ(values_of("k = 0o17"), Values{"15"});
  EXPECT_EQ(values_of("k = 0b101"), Values{"5"});
  EXPECT_EQ(values_of("k = +7"), Values{"7"});
  EXPECT_EQ(values_of("k = -0"), Values{"0"});
  EXPECT_EQ(values_of("k = -9_223_372_036_854_775_808"), Values{"-9223372036854775808"});
}

TEST(ConfigTomlTest, FloatsComeAsTheShortestTextThatReadsBackTheSame) {
  EXPECT_EQ(values_of("k = -2.5e-3"), Values{"-0.0025"});
  // Still a float, so that a flag taking a whole number refuses `threads = 2.0`.
  EXPECT_EQ(values_of("k = 0e5"), Values{"0.0"});
  EXPECT_EQ(values_of("k = 2.0"), Values{"2.0"});
  EXPECT_EQ(values_of("k = 0.1"), Values{"0.1"});
  EXPECT_EQ(values_of("k = 3_000.0"), Values{"3000.0"});
  EXPECT_EQ(values_of("k = 6.02e23"), Values{"6.02e+23"});
  // Left to the flags' own checks, which refuse them by name.
  EXPECT_EQ(values_of("k = nan"), Values{"nan"});
  EXPECT_EQ(values_of("k = -nan"), Values{"nan"});
  EXPECT_EQ(values_of("k = +inf"), Values{"inf"});
  EXPECT_EQ(values_of("k = -inf"), Values{"-inf"});
}

TEST(ConfigTomlTest, BooleansAndArrays) {
  EXPECT_EQ(values_of("k = true # on"), Values{"true"});
  EXPECT_EQ(values_of("k = false"), Values{"false"});
  EXPECT_EQ(values_of("k = [\"10.0.0.0/8\", # one\n  '::1/128',\n]\n"),
            (Values{"10.0.0.0/8", "::1/128"}));
  EXPECT_EQ(values_of("k = [1, 'a', true, 1.5]"), (Values{"1", "a", "true", "1.5"}));
  EXPECT_EQ(values_of("k = []"), Values{});
}

// toml++ keeps keys in name order; the entries come in the order they are written.
TEST(ConfigTomlTest, TablesMakeDottedKeysInFileOrder) {
  const auto entries = parse_toml(
      "# top\r\n\r\nzeta = 1\r\n[server . x]\n  b = \"2\"\n[alpha]\nc = {d = 3, a = 4}\n"
      "server2.y = 5\n");
  ASSERT_TRUE(entries) << entries.error().message;
  std::vector<std::string> keys;
  for (const TomlEntry& entry : *entries) {
    keys.push_back(entry.key + "@" + std::to_string(entry.line) + ":" +
                   std::to_string(entry.column));
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"zeta@3:1", "server.x.b@5:3", "alpha.c.d@7:6",
                                            "alpha.c.a@7:13", "alpha.server2.y@8:9"}));
}

TEST(ConfigTomlTest, WhatIsNotTomlIsRefusedWithItsLineAndColumn) {
  expect_refused("listen =\n", 1, "expected value");
  expect_refused("listen =", 1, "end-of-file");
  expect_refused("# c\n\nlisten = # none\n", 3, "expected value");
  expect_refused("a = 1\nlisten\n", 2, "expected '='");
  expect_refused("= 5", 1, "expected keys");
  expect_refused("a = \"open\nb = 1", 1, "control characters");
  expect_refused("a = [1,\n2,\n3 4]", 3, "expected comma or closing ']'");
  expect_refused("a = \"x\" y", 1, "saw 'y'");
  expect_refused("[table\na = 1", 1, "expected ']'");
  expect_refused("a = \"\\q\"", 1, "unknown escape sequence '\\q'");
  expect_refused("a = 9223372036854775808", 1, "not representable in 64 bits");
  for (const char* bare : {"a = 127.0.0.1:0", "a = 64KiB", "a = 012", "a = 1__0", "a = 1.",
                           "a = True", "a = 0x", "a = {b = 1"}) {
    expect_refused(bare, 1, "Error while parsing");
  }
}

TEST(ConfigTomlTest, AKeyOrATableDefinedTwiceIsRefused) {
  expect_refused("a = 1\na = 2", 2, "cannot redefine existing integer 'a'");
  expect_refused("a = {x = 1, x = 2}", 1, "cannot redefine existing integer 'x'");
  expect_refused("[s]\nx = 1\n\n[s]\ny = 2", 4, "cannot redefine existing table 's'");
  expect_refused("s.a = 1\n[s]\nb = 2", 2, "cannot redefine existing table 's'");
  expect_refused("listen = 'x'\n[listen]", 2, "cannot redefine existing string 'listen'");
}

// "\u0000" is valid TOML, but a NUL would cut the value short once it is an environment variable.
TEST(ConfigTomlTest, AStringWithANulCharacterIsRefused) {
  EXPECT_EQ(error_of("a = 1\nlisten = \"127.0.0.1\\u0000:0\""),
            "line 2, column 10: a string holds a NUL character (\\u0000), which no flag takes");
  EXPECT_EQ(error_of("k = [\"ok\",\n  \"\\u0000\"]"),
            "line 2, column 3: a string holds a NUL character (\\u0000), which no flag takes");
  expect_refused(std::string_view("k = \"a\0b\"", 9), 1, "control characters");
}

TEST(ConfigTomlTest, InvalidUtf8IsRefused) {
  expect_refused("k = \"\xFF\"", 1, "invalid utf-8");
  expect_refused("k = \"\xC0\xAF\"", 1, "invalid utf-8");      // an overlong '/'
  expect_refused("k = \"\xED\xA0\x80\"", 1, "invalid utf-8");  // a UTF-16 surrogate
  expect_refused("a = 1\n# \xC3\x28\n", 2, "invalid utf-8");   // in a comment too
}

TEST(ConfigTomlTest, ValuesNoFlagTakesAreRefusedWhereTheyStand) {
  EXPECT_EQ(error_of("k = [1,\n  [2, 3]]"),
            "line 2, column 3: an array inside an array is not taken: no flag takes one");
  EXPECT_EQ(error_of("a = 1\nk = 1979-05-27"),
            "line 2, column 5: a date or time is not taken: quote it to make it a string");
  EXPECT_EQ(error_of("k = 07:32:00"),
            "line 1, column 5: a date or time is not taken: quote it to make it a string");
  EXPECT_EQ(error_of("k = ['x', 1979-05-27T07:32:00Z]"),
            "line 1, column 11: a date or time is not taken: quote it to make it a string");
  EXPECT_EQ(error_of("a = 1\n[[k]]\nx = 1"),
            "line 2, column 1: an array of tables is not taken: no flag takes one");
  EXPECT_EQ(error_of("k = [{x = 1}]"),
            "line 1, column 6: an array of tables is not taken: no flag takes one");
  // The first in the file, though toml++ would visit `a` first.
  EXPECT_EQ(error_of("b = 1979-05-27\na = [[1]]"),
            "line 1, column 5: a date or time is not taken: quote it to make it a string");
}

}  // namespace
}  // namespace petstore::bootstrap

// The text helpers of domain/unicode that every reader of outside text shares: UTF-8 validity,
// hex digits, and finding a \uXXXX high surrogate escape that no low one follows.

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "domain/unicode.hpp"

namespace petstore::tests {
namespace {

using domain::unicode::hex_digit;
using domain::unicode::lone_high_surrogate_escape_end;
using domain::unicode::valid_utf8_prefix;
constexpr auto none = std::string_view::npos;

bool is_valid_utf8(std::string_view text) { return valid_utf8_prefix(text) == text.size(); }

TEST(UnicodeText, Utf8ValidityIsDecodeNextOverTheWholeText) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("Ünïcödé 😀"));
  EXPECT_FALSE(is_valid_utf8("ok\xC0\xAF"));    // an overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));  // an encoded surrogate
  EXPECT_FALSE(is_valid_utf8("cut \xE2\x82"));
}

TEST(UnicodeText, ValidUtf8PrefixEndsAtTheFirstBadSequence) {
  EXPECT_EQ(valid_utf8_prefix(""), 0U);
  EXPECT_EQ(valid_utf8_prefix("Ünï 😀"), std::string_view("Ünï 😀").size());
  EXPECT_EQ(valid_utf8_prefix("ok\xC0\xAF"), 2U);
  EXPECT_EQ(valid_utf8_prefix("é\xED\xA0\x80"), 2U);
  EXPECT_EQ(valid_utf8_prefix("cut \xE2\x82"), 4U);
}

TEST(UnicodeText, HexDigitsInEitherCase) {
  const std::string digits = "0123456789abcdefABCDEF";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    EXPECT_EQ(hex_digit(digits[i]), static_cast<int>(i < 16 ? i : i - 6)) << digits[i];
  }
  for (const char c : std::string_view("gG/:@`x \0", 9)) {
    EXPECT_EQ(hex_digit(c), -1) << static_cast<int>(c);
  }
}

TEST(UnicodeText, FindsTheFirstHighSurrogateEscapeWithoutALowOne) {
  EXPECT_EQ(lone_high_surrogate_escape_end(R"("\ud800")"), 7U);
  EXPECT_EQ(lone_high_surrogate_escape_end(R"("\uD83D\u0041")"), 7U);  // followed, not by a low one
  EXPECT_EQ(lone_high_surrogate_escape_end(R"("\ud83d\ude00 \uDBFF")"), 20U);
  EXPECT_EQ(lone_high_surrogate_escape_end(R"("\ud83d\ude00")"), none);  // a whole pair
  EXPECT_EQ(lone_high_surrogate_escape_end(R"("\udc00")"), none);        // lone low: another error
  EXPECT_EQ(lone_high_surrogate_escape_end(R"("\\ud800")"), none);       // an escaped backslash
  EXPECT_EQ(lone_high_surrogate_escape_end(R"("\n\"\ud800")"), 11U);
  EXPECT_EQ(lone_high_surrogate_escape_end(R"("\ud8")"), none);  // not an escape at all
}

}  // namespace
}  // namespace petstore::tests

// domain/unicode: the UTF-8 decoder and the two character classes the name rule uses. The
// classes and the decoder's treatment of every value are checked exhaustively; properties cover
// decoding of whole texts.

#include "domain/unicode.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "text_generators.hpp"

namespace petstore::tests {
namespace {

using domain::unicode::decode_next;
using domain::unicode::is_ascii_control;
using domain::unicode::is_white_space;

constexpr char32_t last_code_point = 0x10FFFF;

// decode_all: the code points of `text`, or nullopt when any part of it is ill-formed.
std::optional<std::vector<char32_t>> decode_all(std::string_view text) {
  std::vector<char32_t> code_points;
  while (!text.empty()) {
    const auto code_point = decode_next(text);
    if (!code_point) {
      return std::nullopt;
    }
    code_points.push_back(*code_point);
  }
  return code_points;
}

// decodes: whether `bytes` followed by "x" decode to `expected` and leave exactly "x".
bool decodes(const std::string& bytes, char32_t expected) {
  const std::string text = bytes + "x";
  std::string_view rest = text;
  return decode_next(rest) == expected && rest == "x";
}

bool rejects(const std::string& bytes) {
  std::string_view rest = bytes;
  return !decode_next(rest).has_value();
}

TEST(Unicode, DecodesEveryScalarValueFromItsShortestForm) {
  int failures = 0;
  for (char32_t c = 0; c <= last_code_point; ++c) {
    if ((c < 0xD800 || c > 0xDFFF) && !decodes(utf8(c), c)) {
      ADD_FAILURE() << "U+" << std::hex << std::uint32_t{c};
      if (++failures == 5) {
        break;
      }
    }
  }
}

TEST(Unicode, DecodesOneExampleOfEachLength) {
  EXPECT_TRUE(decodes("A", U'A'));
  EXPECT_TRUE(decodes("\xC3\xA9", U'\u00E9'));
  EXPECT_TRUE(decodes("\xE2\x82\xAC", U'\u20AC'));
  EXPECT_TRUE(decodes("\xF0\x9F\x90\x95", U'\U0001F415'));
  EXPECT_TRUE(decodes("\xF4\x8F\xBF\xBF", last_code_point));
  EXPECT_TRUE(decodes(std::string(1, '\0'), U'\0'));
}

TEST(Unicode, RejectsEverySurrogate) {
  for (char32_t c = 0xD800; c <= 0xDFFF; ++c) {
    ASSERT_TRUE(rejects(utf8_in(3, c))) << "U+" << std::hex << std::uint32_t{c};
  }
}

TEST(Unicode, RejectsEveryOverlongForm) {
  for (const auto& [length, smallest] :
       {std::pair<std::size_t, char32_t>{2, 0x80}, {3, 0x800}, {4, 0x10000}}) {
    for (char32_t c = 0; c < smallest; ++c) {
      ASSERT_TRUE(rejects(utf8_in(length, c)))
          << length << " bytes, U+" << std::hex << std::uint32_t{c};
    }
  }
}

TEST(Unicode, RejectsEveryValuePastTheLastCodePoint) {
  for (char32_t c = last_code_point + 1; c <= 0x1FFFFF; ++c) {
    ASSERT_TRUE(rejects(utf8_in(4, c))) << std::hex << std::uint32_t{c};
  }
}

TEST(Unicode, RejectsBytesThatCannotStartASequence) {
  for (unsigned byte = 0x80; byte <= 0xFF; ++byte) {
    const bool can_lead = byte >= 0xC2 && byte <= 0xF4;
    if (!can_lead) {
      EXPECT_TRUE(rejects(std::string(1, static_cast<char>(byte)) + "\x80\x80\x80"))
          << std::hex << byte;
    }
  }
}

TEST(Unicode, RejectsTruncatedSequences) {
  for (const std::string bytes : {"\xC3", "\xE2\x82", "\xE2", "\xF0\x9F\x90", "\xF0\x9F", "\xF0"}) {
    EXPECT_TRUE(rejects(bytes));
    EXPECT_TRUE(rejects(bytes + "A"));
    EXPECT_TRUE(rejects(bytes + "\xC3\xA9"));  // a lead byte where a continuation belongs
  }
}

TEST(Unicode, WhiteSpaceIsExactlyTheTwentyFiveListedCodePoints) {
  int count = 0;
  for (char32_t c = 0; c <= last_code_point; ++c) {
    ASSERT_EQ(is_white_space(c), is_listed_white_space(c)) << "U+" << std::hex << std::uint32_t{c};
    count += is_white_space(c) ? 1 : 0;
  }
  EXPECT_EQ(count, 25);
}

TEST(Unicode, ControlsAreU0000ToU001FAndU007FOnly) {
  for (char32_t c = 0; c <= last_code_point; ++c) {
    ASSERT_EQ(is_ascii_control(c), c <= 0x1F || c == 0x7F) << "U+" << std::hex << std::uint32_t{c};
  }
}

RC_GTEST_PROP(Unicode, DecodesWellFormedTextCodePointByCodePoint, ()) {
  const auto code_points = *rc::gen::container<std::vector<char32_t>>(
      rc::gen::oneOf(allowed_code_point(), control_code_point()));
  const auto decoded = decode_all(utf8(code_points));
  RC_ASSERT(decoded.has_value());
  RC_ASSERT(*decoded == code_points);
}

RC_GTEST_PROP(Unicode, RejectsIllFormedBytesAnywhereInText, ()) {
  const auto before = *rc::gen::container<std::vector<char32_t>>(allowed_code_point());
  const auto after = *rc::gen::container<std::vector<char32_t>>(allowed_code_point());
  const auto bad = *ill_formed_utf8();
  RC_ASSERT(!decode_all(utf8(before) + bad + utf8(after)).has_value());
}

}  // namespace
}  // namespace petstore::tests

// parse_whole: every number the service reads from text (headers, query parameters, flags,
// database fields) is read whole, or refused.

#include "domain/whole_number.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace petstore::tests {
namespace {

using domain::parse_whole;

RC_GTEST_PROP(WholeNumber, ReadsBackWhatToStringWrote, (std::int64_t value)) {
  RC_ASSERT(parse_whole<std::int64_t>(std::to_string(value)) == value);
}

RC_GTEST_PROP(WholeNumber, RefusesAnythingAfterTheDigits, (std::uint32_t value, char extra)) {
  RC_PRE(extra < '0' || extra > '9');
  RC_ASSERT(!parse_whole<std::uint32_t>(std::to_string(value) + extra).has_value());
}

TEST(WholeNumber, RefusesSignsSpacesAndEmptyText) {
  for (const char* text : {"", "+1", " 1", "1 ", "-", "0x1", "1.5"}) {
    EXPECT_FALSE(parse_whole<std::int64_t>(text).has_value()) << '"' << text << '"';
  }
  EXPECT_FALSE(parse_whole<std::uint64_t>("-1").has_value());
}

TEST(WholeNumber, RefusesWhatDoesNotFitItsType) {
  EXPECT_EQ(parse_whole<std::uint16_t>("65535"), 65535);
  EXPECT_FALSE(parse_whole<std::uint16_t>("65536").has_value());
  EXPECT_FALSE(parse_whole<std::int64_t>("9223372036854775808").has_value());
  EXPECT_EQ(parse_whole<std::int64_t>("-9223372036854775808"),
            std::numeric_limits<std::int64_t>::min());
}

TEST(WholeNumber, ReadsAnotherBaseWhenAsked) {
  EXPECT_EQ(parse_whole<std::uint32_t>("FFFFFFFF", 16), 0xFFFFFFFFU);
  EXPECT_EQ(parse_whole<std::uint32_t>("1a", 16), 0x1AU);
  EXPECT_FALSE(parse_whole<std::uint32_t>("1g", 16).has_value());
  EXPECT_FALSE(parse_whole<std::uint32_t>("1a").has_value());
}

}  // namespace
}  // namespace petstore::tests

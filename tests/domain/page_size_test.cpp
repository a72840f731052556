// PageSize: 1 to 100, 20 by default; anything else is an error naming the parameter.

#include "domain/page_size.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace petstore::tests {
namespace {

using domain::PageSize;

TEST(PageSize, DefaultsToTwenty) { EXPECT_EQ(PageSize().value(), 20); }

TEST(PageSize, AcceptsOneToOneHundred) {
  for (std::int64_t count = 1; count <= 100; ++count) {
    EXPECT_EQ(PageSize::from(count).value().value(), count);
  }
}

TEST(PageSize, RejectsEverythingElse) {
  for (const std::int64_t count :
       {std::numeric_limits<std::int64_t>::min(), std::int64_t{-1}, std::int64_t{0},
        std::int64_t{101}, std::int64_t{1000}, std::numeric_limits<std::int64_t>::max()}) {
    const auto size = PageSize::from(count);
    ASSERT_FALSE(size.has_value()) << count;
    EXPECT_EQ(size.error().code, domain::ErrorCode::invalid_argument);
    EXPECT_EQ(size.error().field, "limit");
  }
}

TEST(PageSize, NamesTheFieldItWasGiven) {
  const auto size = PageSize::from(0, "per_page");
  ASSERT_FALSE(size.has_value());
  EXPECT_EQ(size.error().field, "per_page");
  EXPECT_NE(size.error().message.find("per_page"), std::string::npos);
}

RC_GTEST_PROP(PageSizeProperties, AcceptsExactlyOneToOneHundred, ()) {
  const auto count =
      *rc::gen::oneOf(rc::gen::arbitrary<std::int64_t>(), rc::gen::inRange<std::int64_t>(-5, 110));
  const auto size = PageSize::from(count);
  RC_ASSERT(size.has_value() == (count >= 1 && count <= 100));
  if (size) {
    RC_ASSERT(size->value() == count);
  }
}

}  // namespace
}  // namespace petstore::tests

// PetStatus: exactly three wire names, matched exactly.

#include "domain/pet_status.hpp"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace petstore::tests {
namespace {

using domain::parse_pet_status;
using domain::PetStatus;

TEST(PetStatus, ParsesTheThreeWireNames) {
  EXPECT_EQ(parse_pet_status("available").value(), PetStatus::available);
  EXPECT_EQ(parse_pet_status("pending").value(), PetStatus::pending);
  EXPECT_EQ(parse_pet_status("sold").value(), PetStatus::sold);
}

TEST(PetStatus, WireNamesRoundTrip) {
  std::set<std::string_view> names;
  for (const auto status : domain::all_pet_statuses) {
    EXPECT_EQ(parse_pet_status(to_string(status)).value(), status);
    names.insert(to_string(status));
  }
  EXPECT_EQ(names.size(), 3U);
}

TEST(PetStatus, DefaultsToAvailable) {
  EXPECT_EQ(domain::default_pet_status, PetStatus::available);
}

TEST(PetStatus, RejectsAnythingButAnExactName) {
  for (const std::string& text : std::vector<std::string>{
           "", "Available", "AVAILABLE", " available", "available ", "availabl", "availables",
           "sold\n", "null", "0", "1", "pending,sold", "s\u00F6ld", std::string("sold\0", 5)}) {
    const auto status = parse_pet_status(text);
    ASSERT_FALSE(status.has_value()) << "\"" << text << "\" was accepted";
    EXPECT_EQ(status.error().code, domain::ErrorCode::invalid_argument);
    EXPECT_EQ(status.error().field, "status");
  }
}

TEST(PetStatus, NamesTheFieldItWasGiven) {
  const auto status = parse_pet_status("lost", "filter");
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().field, "filter");
}

RC_GTEST_PROP(PetStatusProperties, AcceptsOnlyTheThreeNames, (const std::string& text)) {
  const bool named = text == "available" || text == "pending" || text == "sold";
  const auto status = parse_pet_status(text);
  RC_ASSERT(status.has_value() == named);
  if (named) {
    RC_ASSERT(to_string(*status) == text);
  } else {
    RC_ASSERT(status.error().field == std::string("status"));
  }
}

}  // namespace
}  // namespace petstore::tests

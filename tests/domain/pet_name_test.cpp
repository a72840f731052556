#include "domain/pet_name.hpp"

#include <gtest/gtest.h>

namespace petstore::domain {
namespace {

TEST(PetName, AcceptsPlainName) { EXPECT_TRUE(PetName::parse("Rex").has_value()); }

}  // namespace
}  // namespace petstore::domain

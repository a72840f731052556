// NewPetHandler events that Boost.JSON 1.81 never sends for NewPet bodies, driven by hand: a
// categoryId reported through on_uint64 must still count as an int64 when it fits in one.

#include "adapters/http/new_pet_handler.hpp"

#include <cstdint>

#include <gtest/gtest.h>

namespace petstore::adapters::http {
namespace {

NewPetFields fields_with_uint64(std::uint64_t category_id) {
  NewPetHandler handler;
  boost::json::error_code ec;
  EXPECT_TRUE(handler.on_document_begin(ec));
  EXPECT_TRUE(handler.on_object_begin(ec));
  EXPECT_TRUE(handler.on_key("name", 4, ec));
  EXPECT_TRUE(handler.on_string("Rex", 3, ec));
  EXPECT_TRUE(handler.on_key("categoryId", 10, ec));
  EXPECT_TRUE(handler.on_uint64(category_id, "", ec));
  EXPECT_TRUE(handler.on_object_end(2, ec));
  EXPECT_TRUE(handler.on_document_end(ec));
  EXPECT_FALSE(ec);
  EXPECT_EQ(handler.stop_reason(), HandlerStop::none);
  return handler.fields();
}

TEST(NewPetHandler, TakesAnUnsignedCategoryIdThatFitsInt64) {
  const NewPetFields fields = fields_with_uint64(INT64_MAX);
  EXPECT_EQ(fields.name, NewPetFields::Kind::string);
  EXPECT_EQ(fields.name_text, "Rex");
  EXPECT_EQ(fields.category_id, NewPetFields::Kind::integer);
  EXPECT_EQ(fields.category_id_value, INT64_MAX);
}

TEST(NewPetHandler, RefusesAnUnsignedCategoryIdPastInt64) {
  const NewPetFields fields = fields_with_uint64(std::uint64_t{INT64_MAX} + 1);
  EXPECT_EQ(fields.category_id, NewPetFields::Kind::other);
}

}  // namespace
}  // namespace petstore::adapters::http

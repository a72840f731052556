// PetMembersDecoder events that Boost.JSON 1.81 never sends for pet objects, driven by hand: an
// id or categoryId reported through on_uint64 must still count as an int64 when it fits in one.

#include "adapters/pet_json/pet_members_decoder.hpp"

#include <cstdint>

#include <gtest/gtest.h>

namespace petstore::adapters::pet_json {
namespace {

using Kind = PetMembers::Kind;

PetMembers members_with_uint64(std::uint64_t number) {
  PetMembersDecoder decoder;
  boost::json::error_code ec;
  EXPECT_TRUE(decoder.on_document_begin(ec));
  EXPECT_TRUE(decoder.on_object_begin(ec));
  EXPECT_TRUE(decoder.on_key("id", 2, ec));
  EXPECT_TRUE(decoder.on_uint64(number, "", ec));
  EXPECT_TRUE(decoder.on_key("name", 4, ec));
  EXPECT_TRUE(decoder.on_string("Rex", 3, ec));
  EXPECT_TRUE(decoder.on_key("categoryId", 10, ec));
  EXPECT_TRUE(decoder.on_uint64(number, "", ec));
  EXPECT_TRUE(decoder.on_object_end(3, ec));
  EXPECT_TRUE(decoder.on_document_end(ec));
  EXPECT_FALSE(ec);
  EXPECT_EQ(decoder.stop_reason(), DecoderStop::none);
  return decoder.members();
}

TEST(PetMembersDecoder, TakesAnUnsignedIntegerThatFitsInt64) {
  const PetMembers members = members_with_uint64(INT64_MAX);
  EXPECT_EQ(members.name, Kind::string);
  EXPECT_EQ(members.name_text, "Rex");
  EXPECT_EQ(members.id, Kind::integer);
  EXPECT_EQ(members.id_value, INT64_MAX);
  EXPECT_EQ(members.category_id, Kind::integer);
  EXPECT_EQ(members.category_id_value, INT64_MAX);
}

TEST(PetMembersDecoder, RefusesAnUnsignedIntegerPastInt64) {
  const PetMembers members = members_with_uint64(std::uint64_t{INT64_MAX} + 1);
  EXPECT_EQ(members.id, Kind::other);
  EXPECT_EQ(members.category_id, Kind::other);
}

TEST(PetMembersDecoder, ResetForgetsTheLastObject) {
  PetMembersDecoder decoder;
  boost::json::error_code ec;
  EXPECT_TRUE(decoder.on_object_begin(ec));
  EXPECT_TRUE(decoder.on_key("name", 4, ec));
  EXPECT_FALSE(decoder.on_key("name", 4, ec));
  EXPECT_EQ(decoder.stop_reason(), DecoderStop::repeated_member);
  decoder.reset();
  EXPECT_EQ(decoder.stop_reason(), DecoderStop::none);
  EXPECT_TRUE(decoder.on_object_begin(ec));
  EXPECT_TRUE(decoder.on_key("name", 4, ec));
}

}  // namespace
}  // namespace petstore::adapters::pet_json

// PetObjectReader: the JSON-syntax messages of both pets' texts and where each says the text
// broke. The members it reads are tested through the adapters' rules (tests/adapters/http,
// tests/data_tools).

#include "adapters/pet_json/pet_object_reader.hpp"

#include <string>

#include <gtest/gtest.h>

namespace petstore::adapters::pet_json {
namespace {

std::string message_of(JsonText kind, std::string_view text) {
  PetObjectReader reader(kind);
  auto read = reader.read(text);
  return read ? "(read)" : read.error().message;
}

std::string body_message(std::string_view text) { return message_of(JsonText::body, text); }
std::string line_message(std::string_view text) { return message_of(JsonText::line, text); }

TEST(PetObjectReader, SaysOnWhichLineAndColumnABodyBreaks) {
  EXPECT_EQ(body_message("{\n  \"name\": \"Rex\",\n    ,\"categoryId\": 7\n}"),
            "the body is not valid JSON (line 3, column 5)");
  EXPECT_EQ(body_message("{\r\n\"name\":\"Rex\",\r\n\"categoryId\":tru}"),
            "the body is not valid JSON (line 3, column 17)");
}

TEST(PetObjectReader, SaysAtWhichColumnALineBreaks) {
  EXPECT_EQ(line_message(R"({"id":5,,"name":"Rex"})"), "the line is not valid JSON (column 9)");
  EXPECT_EQ(line_message(" {\"id\":5} x\r"),
            "the line has more content after the JSON object (column 11)");
}

TEST(PetObjectReader, CountsColumnsInCodePoints) {
  EXPECT_EQ(body_message("{\"name\":\"\xc3\xa9\xf0\x9f\x98\x80\",x}"),
            "the body is not valid JSON (line 1, column 14)");
}

TEST(PetObjectReader, LocatesEveryKindOfBreak) {
  EXPECT_EQ(body_message(R"({"name":"Rex")"),
            "the body is not valid JSON: it ends before the JSON object does (line 1, column 14)");
  EXPECT_EQ(body_message("{\"name\":\"Rex\",\n"),
            "the body is not valid JSON: it ends before the JSON object does (line 2, column 1)");
  EXPECT_EQ(body_message("{\"name\":\"Rex\",\n \"name\":\"Max\"}"),
            "member \"name\" appears twice in one object (line 2, column 7)");
  EXPECT_EQ(body_message(R"({"x":[{"a":1,"<b>":2,"<b>":3}]})"),
            "a member name appears twice in one object (line 1, column 26)");
  EXPECT_EQ(body_message("{\"name\":\"R\xffx\"}"),
            "the body is not valid UTF-8 (line 1, column 11)");
  EXPECT_EQ(body_message("{} \xff"), "the body is not valid UTF-8 (line 1, column 4)");
  EXPECT_EQ(body_message(R"({"name":"\ud800"})"),
            "the body has a \\u escape that is not a whole Unicode character (line 1, column 16)");
  EXPECT_EQ(body_message(R"({"name":"a\udc00"})"),
            "the body has a \\u escape that is not a whole Unicode character (line 1, column 16)");
  EXPECT_EQ(body_message(R"({"a":)" + std::string(40, '[')),
            "the body nests arrays and objects more than 32 levels deep (line 1, column 37)");
  EXPECT_EQ(body_message("{}\n\n  {}"),
            "the body has more content after the JSON object (line 3, column 3)");
  EXPECT_NE(body_message(R"({"categoryId":1e99999999999})")
                .find("the body has a number whose exponent is out of range (line 1, column "),
            std::string::npos);
}

// Where the parser stopped is found by feeding the text again in pieces; a break on either side
// of a piece's edge is found exactly.
TEST(PetObjectReader, LocatesABreakAnywhereInALongText) {
  for (const std::size_t length : {0, 1, 247, 248, 249, 503, 504, 505, 4000}) {
    const std::string text = R"({"a":")" + std::string(length, 'x') + R"(",])";
    EXPECT_EQ(line_message(text),
              "the line is not valid JSON (column " + std::to_string(length + 9) + ")");
  }
}

TEST(PetObjectReader, SaysNoPlaceForAnEmptyTextOrOneThatIsNoObject) {
  EXPECT_EQ(body_message(" \r\n"), "the body is empty; it must be a JSON object");
  EXPECT_EQ(line_message(""), "the line is empty; each line must be one JSON object");
  EXPECT_EQ(body_message("\n[1]"), "the body must be a JSON object");
  EXPECT_EQ(line_message("7"), "the line must be a JSON object");
}

TEST(PetObjectReader, ReadsOneTextAfterAnother) {
  PetObjectReader reader(JsonText::line);
  EXPECT_FALSE(reader.read(R"({"name":"Rex","name":"Max"})"));
  const auto members = reader.read(R"({"id":5,"name":"Max","x":{"name":1}})");
  ASSERT_TRUE(members) << members.error().message;
  EXPECT_EQ(members->id_value, 5);
  EXPECT_EQ(members->name_text, "Max");
  EXPECT_EQ(members->first_unknown_member, "x");
}

TEST(IsQuotableMemberName, TakesShortPlainNamesOnly) {
  EXPECT_TRUE(is_quotable_member_name("color_2.b-c"));
  EXPECT_TRUE(is_quotable_member_name(std::string(64, 'a')));
  EXPECT_FALSE(is_quotable_member_name(std::string(65, 'a')));
  EXPECT_FALSE(is_quotable_member_name(""));
  EXPECT_FALSE(is_quotable_member_name("<b>"));
  EXPECT_FALSE(is_quotable_member_name("a b"));
}

}  // namespace
}  // namespace petstore::adapters::pet_json

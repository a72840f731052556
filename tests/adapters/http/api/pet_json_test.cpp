// decode_new_pet, one example per rule of contract sections 2-5: each refused body must earn the
// right problem and a message naming the offending member; each accepted one the exact NewPet.

#include "adapters/http/api/pet_json.hpp"

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "adapters/pet_json/pet_object_reader.hpp"

namespace petstore::adapters::http {
namespace {

using namespace std::string_literals;

struct Refusal {
  std::string label;  // names the gtest case
  std::string body;
  BodyProblem problem;
  std::string fragment;  // must appear in the message
};

std::ostream& operator<<(std::ostream& out, const Refusal& refusal) { return out << refusal.label; }

class RefusedBody : public testing::TestWithParam<Refusal> {};

TEST_P(RefusedBody, EarnsTheProblemAndNamesIt) {
  const Refusal& refusal = GetParam();
  const DecodeResult result = decode_new_pet(refusal.body);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().problem, refusal.problem) << result.error().message;
  EXPECT_NE(result.error().message.find(refusal.fragment), std::string::npos)
      << result.error().message;
}

std::string nested(int levels) {
  std::string body = R"({"name":"Rex","categoryId":7,"deep":)";
  body += std::string(static_cast<std::size_t>(levels), '[');
  body += std::string(static_cast<std::size_t>(levels), ']');
  return body + "}";
}

std::string label_of(const testing::TestParamInfo<Refusal>& case_info) {
  return case_info.param.label;
}

constexpr auto invalid = BodyProblem::invalid_json;
constexpr auto failed = BodyProblem::validation_failed;

INSTANTIATE_TEST_SUITE_P(
    InvalidJson, RefusedBody,
    testing::Values(
        Refusal{"Empty", "", invalid, "empty"}, Refusal{"Blank", " \r\n\t", invalid, "empty"},
        Refusal{"Unclosed", R"({"name":"Rex","categoryId":7)", invalid, "not valid JSON"},
        Refusal{"TrailingComma", R"({"name":"Rex","categoryId":7,})", invalid, "not valid JSON"},
        Refusal{"SingleQuotes", R"({'name':'Rex','categoryId':7})", invalid, "not valid JSON"},
        Refusal{"Comment", R"({/**/"name":"Rex","categoryId":7})", invalid, "not valid JSON"},
        Refusal{"NulByte", "{\"name\":\"Rex\",\0\"categoryId\":7}"s, invalid, "not valid JSON"},
        Refusal{"TrailingGarbage", R"({"name":"Rex","categoryId":7} x)", invalid, "after"},
        Refusal{"TwoObjects", R"({"name":"Rex","categoryId":7}{})", invalid, "after"},
        Refusal{"Array", R"([{"name":"Rex","categoryId":7}])", invalid, "JSON object"},
        Refusal{"String", R"("Rex")", invalid, "JSON object"},
        Refusal{"Number", "7", invalid, "JSON object"}, Refusal{"Null", "null", invalid, "object"},
        Refusal{"InvalidUtf8", "{\"name\":\"R\xffx\",\"categoryId\":7}", invalid, "UTF-8"},
        Refusal{"OverlongUtf8", "{\"name\":\"\xc0\xaf\",\"categoryId\":7}", invalid, "UTF-8"},
        Refusal{"Utf8Bom", "\xef\xbb\xbf{\"name\":\"Rex\",\"categoryId\":7}", invalid, "JSON"},
        Refusal{"LoneHighSurrogate", R"({"name":"\ud800","categoryId":7})", invalid, "\\u"},
        Refusal{"LoneLowSurrogate", R"({"name":"\udc00","categoryId":7})", invalid, "\\u"},
        Refusal{"BrokenPair", R"({"name":"\ud800\u0041","categoryId":7})", invalid, "\\u"},
        Refusal{"RepeatedName", R"({"name":"Rex","name":"Max","categoryId":7})", invalid,
                "\"name\" appears twice"},
        Refusal{"RepeatedEscaped", R"({"name":"Rex","categoryId":7,"n\u0061me":"M"})", invalid,
                "\"name\" appears twice"},
        Refusal{"RepeatedDeep", R"({"name":"R","categoryId":7,"x":{"y":[{"a":1,"a":2}]}})", invalid,
                "\"a\" appears twice"},
        Refusal{"RepeatedOddName", R"({"x":{"<b>":1,"<b>":2}})", invalid, "appears twice"},
        Refusal{"TooDeep", nested(static_cast<int>(pet_json::max_json_depth)), invalid, "deep"},
        Refusal{"HugeExponent", R"({"name":"Rex","categoryId":1e99999999999})", invalid,
                "exponent"}),
    label_of);

INSTANTIATE_TEST_SUITE_P(
    ValidationFailed, RefusedBody,
    testing::Values(
        Refusal{"Id", R"({"id":1,"name":"Rex","categoryId":7})", failed, "id is assigned"},
        Refusal{"IdBeforeUnknown", R"({"id":1,"color":"red"})", failed, "id is assigned"},
        Refusal{"UnknownBeforeId", R"({"color":"red","id":1})", failed, "\"color\""},
        Refusal{"Unknown", R"({"name":"Rex","categoryId":7,"color":"red"})", failed, "color"},
        Refusal{"UnknownBeforeName", R"({"color":1})", failed, "color"},
        Refusal{"UnknownOddName", R"({"name":"R","categoryId":7,"<b>":1})", failed, "unknown"},
        Refusal{"NoMembers", "{}", failed, "name"},
        Refusal{"NameMissing", R"({"categoryId":7})", failed, "name"},
        Refusal{"NameNumber", R"({"name":7,"categoryId":7})", failed, "name"},
        Refusal{"NameNull", R"({"name":null,"categoryId":7})", failed, "name"},
        Refusal{"NameObject", R"({"name":{"name":"Rex"},"categoryId":7})", failed, "name"},
        Refusal{"NameEmpty", R"({"name":"","categoryId":7})", failed, "name"},
        Refusal{"NameBlank", R"({"name":" \u00a0\u2003\u3000","categoryId":7})", failed, "name"},
        Refusal{"NameNul", R"({"name":"a\u0000b","categoryId":7})", failed, "name"},
        Refusal{"NameNewline", R"({"name":"a\nb","categoryId":7})", failed, "name"},
        Refusal{"NameDelete", R"({"name":"a\u007fb","categoryId":7})", failed, "name"},
        Refusal{"NameTooLong", R"({"name":")" + std::string(201, 'x') + R"(","categoryId":7})",
                failed, "name"},
        Refusal{"NameBeforeCategory", R"({"name":1,"categoryId":"x"})", failed, "name"},
        Refusal{"CategoryMissing", R"({"name":"Rex"})", failed, "categoryId"},
        Refusal{"CategoryString", R"({"name":"Rex","categoryId":"7"})", failed, "categoryId"},
        Refusal{"CategoryFraction", R"({"name":"Rex","categoryId":7.0})", failed, "categoryId"},
        Refusal{"CategoryExponent", R"({"name":"Rex","categoryId":7e0})", failed, "categoryId"},
        Refusal{"CategoryAboveInt64", R"({"name":"R","categoryId":9223372036854775808})", failed,
                "categoryId"},
        Refusal{"CategoryBelowInt64", R"({"name":"R","categoryId":-9223372036854775809})", failed,
                "categoryId"},
        Refusal{"CategoryAboveUint64", R"({"name":"R","categoryId":18446744073709551616})", failed,
                "categoryId"},
        Refusal{"CategoryBool", R"({"name":"Rex","categoryId":true})", failed, "categoryId"},
        Refusal{"CategoryNull", R"({"name":"Rex","categoryId":null})", failed, "categoryId"},
        Refusal{"CategoryArray", R"({"name":"Rex","categoryId":[7]})", failed, "categoryId"},
        Refusal{"CategoryBeforeStatus", R"({"name":"R","categoryId":"7","status":"x"})", failed,
                "categoryId"},
        Refusal{"StatusNull", R"({"name":"Rex","categoryId":7,"status":null})", failed, "status"},
        Refusal{"StatusOther", R"({"name":"Rex","categoryId":7,"status":"lost"})", failed,
                "status"},
        Refusal{"StatusCase", R"({"name":"Rex","categoryId":7,"status":"Sold"})", failed, "status"},
        Refusal{"StatusNumber", R"({"name":"Rex","categoryId":7,"status":1})", failed, "status"}),
    label_of);

TEST(DecodeNewPet, OddMemberNamesAreDescribedNotQuoted) {
  for (const char* body :
       {R"({"x":{"<b>":1,"<b>":2}})", R"({"name":"R","categoryId":7,"<b>":1})"}) {
    const DecodeResult result = decode_new_pet(body);
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().message.find("<b>"), std::string::npos) << result.error().message;
  }
}

TEST(DecodeNewPet, SameNameInSiblingOrNestedObjectsIsNoRepeat) {
  const DecodeResult result =
      decode_new_pet(R"({"name":"R","categoryId":7,"x":[{"b":1},{"b":2,"x":{"x":0}}]})");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().problem, BodyProblem::validation_failed);
  EXPECT_NE(result.error().message.find("\"x\""), std::string::npos) << result.error().message;
}

TEST(DecodeNewPet, NestingUpToTheLimitIsStillJson) {
  const DecodeResult result =
      decode_new_pet(nested(static_cast<int>(pet_json::max_json_depth) - 1));
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().problem, BodyProblem::validation_failed);
}

TEST(DecodeNewPet, AcceptsTheSmallestPetAsAvailable) {
  const DecodeResult result = decode_new_pet(R"({"name":"Rex","categoryId":7})");
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->name.value(), "Rex");
  EXPECT_EQ(result->category_id.value, 7);
  EXPECT_EQ(result->status, domain::PetStatus::available);
}

TEST(DecodeNewPet, AcceptsEveryStatusAndAnyMemberOrder) {
  for (const domain::PetStatus status : domain::all_pet_statuses) {
    const std::string body = " {\n \"status\" : \"" + std::string(domain::to_string(status)) +
                             "\", \"categoryId\":-0 ,\"name\":\"Rex\"}\r\n";
    const DecodeResult result = decode_new_pet(body);
    ASSERT_TRUE(result.has_value()) << body;
    EXPECT_EQ(result->status, status);
    EXPECT_EQ(result->category_id.value, 0);
  }
}

TEST(DecodeNewPet, AcceptsTheWholeInt64Range) {
  using Limits = std::numeric_limits<std::int64_t>;
  for (const std::int64_t id : {Limits::min(), std::int64_t{-1}, Limits::max()}) {
    const DecodeResult result =
        decode_new_pet(R"({"name":"Rex","categoryId":)" + std::to_string(id) + "}");
    ASSERT_TRUE(result.has_value()) << id;
    EXPECT_EQ(result->category_id.value, id);
  }
}

TEST(DecodeNewPet, KeepsTheNameExactlyAsSentAfterUnescaping) {
  const DecodeResult result =
      decode_new_pet(R"({"name":" R\u00e9x \ud83d\udc36 \"\\/ ","categoryId":7})");
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->name.value(), " R\xc3\xa9x \xf0\x9f\x90\xb6 \"\\/ ");
}

TEST(DecodeNewPet, AcceptsTwoHundredCodePoints) {
  std::string name;
  for (int i = 0; i < 200; ++i) {
    name += "\xe7\x8c\xab";  // U+732B, three bytes each
  }
  const DecodeResult result = decode_new_pet(R"({"name":")" + name + R"(","categoryId":1})");
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->name.value(), name);
}

TEST(DecodeNewPet, ValueThrowsOnARefusedBody) {
  EXPECT_THROW((void)decode_new_pet("[]").value(), std::invalid_argument);
}

TEST(DecodeNewPet, SaysWhereTheBodyBreaks) {
  const DecodeResult result = decode_new_pet("{\n  \"name\": \"Rex\",\n    ,\"categoryId\": 7\n}");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error(), (DecodeError{BodyProblem::invalid_json,
                                         "the body is not valid JSON (line 3, column 5)"}));
}

TEST(EncodeError, WritesCodeMessageAndStatus) {
  EXPECT_EQ(encode_error("not_found", "no pet with id 5", 404),
            R"({"code":"not_found","message":"no pet with id 5","status":404})");
  EXPECT_EQ(encode_error("invalid_json", "member \"a\\\" appears twice", 400),
            R"({"code":"invalid_json","message":"member \"a\\\" appears twice","status":400})");
}

TEST(BodyProblem, HasTheContractCodes) {
  EXPECT_EQ(to_code(BodyProblem::invalid_json), "invalid_json");
  EXPECT_EQ(to_code(BodyProblem::validation_failed), "validation_failed");
}

}  // namespace
}  // namespace petstore::adapters::http

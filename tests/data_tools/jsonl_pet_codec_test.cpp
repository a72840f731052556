// The JSON Lines codec: the exact text of a line, decoding valid lines, and every way a line can
// be refused, each with its message.

#include "adapters/jsonl/jsonl_pet_codec.hpp"

#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "ports/pet_repository_contract.hpp"

#include "data_tools_support.hpp"

namespace petstore::tests {
namespace {

using adapters::jsonl::append_pet_line;
using adapters::jsonl::decode_pet_line;

std::string line_of(const domain::Pet& one) {
  std::string text;
  append_pet_line(text, one);
  return text;
}

TEST(JsonlPetCodec, WritesTheApisPetOnOneLine) {
  EXPECT_EQ(line_of(pet(1, "Rex", 7)),
            "{\"id\":1,\"name\":\"Rex\",\"categoryId\":7,\"status\":\"available\"}\n");
  EXPECT_EQ(line_of(pet(9223372036854775807, "Ünï \"q\" \\ 😀", -9223372036854775807 - 1,
                        domain::PetStatus::sold)),
            "{\"id\":9223372036854775807,\"name\":\"Ünï \\\"q\\\" \\\\ 😀\","
            "\"categoryId\":-9223372036854775808,\"status\":\"sold\"}\n");
}

TEST(JsonlPetCodec, ReadsAValidLineInAnyMemberOrderWithWhiteSpace) {
  const auto decoded =
      decode_pet_line(" {\"status\":\"pending\", \"categoryId\":-3,\"name\":\"Rex\",\"id\":42}\r");
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(*decoded, pet(42, "Rex", -3, domain::PetStatus::pending));
}

TEST(JsonlPetCodec, ReadsEscapesAndNegativeZero) {
  const auto decoded = decode_pet_line(
      R"({"id":1,"name":"R\u00e9x \ud83d\ude00 \/","categoryId":-0,"status":"sold"})");
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(*decoded, pet(1, "Réx 😀 /", 0, domain::PetStatus::sold));
}

TEST(JsonlPetCodec, EverySamplePetSurvivesARoundTrip) {
  adapters::jsonl::PetLineDecoder decoder;  // reused from line to line, as the reader does
  for (const auto& one : sample_pets(64)) {
    std::string text = line_of(one);
    ASSERT_EQ(text.back(), '\n');
    text.pop_back();
    const auto decoded = decoder.decode(text);
    ASSERT_TRUE(decoded) << text << ": " << decoded.error().message;
    EXPECT_EQ(*decoded, one);
  }
}

// name_pieces: code points that need every kind of care on the way through JSON.
const std::vector<std::string> name_pieces{"a",      "Z",      "7",      " ",      "\"",
                                           "\\",     "/",      "é",      "名",     "😀",
                                           "\u00a0", "\u0085", "\u2028", "\ufeff", "\u200b"};

RC_GTEST_PROP(JsonlPetCodecProperties, DecodeInvertsEncode, ()) {
  const auto id = *rc::gen::inRange<std::int64_t>(1, std::numeric_limits<std::int64_t>::max());
  const auto category_id = *rc::gen::arbitrary<std::int64_t>();
  const auto pieces = *rc::gen::resize(
      60, rc::gen::nonEmpty(
              rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(name_pieces))));
  std::string name;
  for (const auto& piece : pieces) {
    name += piece;
  }
  const auto valid_name = domain::PetName::parse(name);
  RC_PRE(static_cast<bool>(valid_name));
  const domain::Pet original{domain::PetId{id}, *valid_name, domain::CategoryId{category_id},
                             *rc::gen::elementOf(domain::all_pet_statuses)};
  std::string text = line_of(original);
  text.pop_back();
  RC_ASSERT(decode_pet_line(text).value() == original);
}

// Each refused line, the member at fault ("" for syntax) and the message.
using Refusal = std::tuple<std::string, std::string, std::string>;

class JsonlPetCodecRefusal : public testing::TestWithParam<Refusal> {};

TEST_P(JsonlPetCodecRefusal, NamesTheProblem) {
  const auto& [line, field, message] = GetParam();
  const auto decoded = decode_pet_line(line);
  ASSERT_FALSE(decoded) << line;
  EXPECT_EQ(decoded.error().code, domain::ErrorCode::invalid_argument);
  EXPECT_EQ(decoded.error().message, message) << line;
  EXPECT_EQ(decoded.error().field, field) << line;
}

const std::string id_rule = "id must be an integer from 1 to 9223372036854775807";
const std::string category_rule = "categoryId must be an integer within int64";
const std::string members = "; the members are id, name, categoryId and status";
const std::string escape_rule = "the line has a \\u escape that is not a whole Unicode character";

// with: a valid line whose member `name` has the raw JSON value `value` (or is left out when
// `value` is empty).
std::string with(const std::string& name, const std::string& value) {
  const std::string members_in_order[] = {"id", "name", "categoryId", "status"};
  const std::string values[] = {"5", "\"Rex\"", "7", "\"sold\""};
  std::string line = "{";
  for (std::size_t i = 0; i < 4; ++i) {
    const bool replaced = members_in_order[i] == name;
    if (replaced && value.empty()) {
      continue;
    }
    line += (line.size() > 1 ? "," : "") + ("\"" + members_in_order[i] + "\":") +
            (replaced ? value : values[i]);
  }
  return line + "}";
}

INSTANTIATE_TEST_SUITE_P(
    Syntax, JsonlPetCodecRefusal,
    testing::Values(
        Refusal{"", "", "the line is empty; each line must be one JSON object"},
        Refusal{" \t\r", "", "the line is empty; each line must be one JSON object"},
        Refusal{"[1]", "", "the line must be a JSON object"},
        Refusal{"5", "", "the line must be a JSON object"},
        Refusal{"\"Rex\"", "", "the line must be a JSON object"},
        Refusal{R"({"id":5)", "",
                "the line is not valid JSON: it ends before the JSON object does (column 8)"},
        Refusal{R"({"id":5,})", "", "the line is not valid JSON (column 9)"},
        Refusal{R"({id:5})", "", "the line is not valid JSON (column 2)"},
        Refusal{"\xEF\xBB\xBF" + with("", ""), "", "the line is not valid JSON (column 1)"},
        Refusal{with("", "") + " x", "",
                "the line has more content after the JSON object (column 54)"},
        Refusal{with("", "") + with("", ""), "",
                "the line has more content after the JSON object (column 53)"},
        Refusal{R"({"id":5,"id":6,"name":"Rex","categoryId":7,"status":"sold"})", "",
                "member \"id\" appears twice in one object (column 12)"},
        Refusal{R"({"name":"Rex","n\u0061me":"Max","id":5,"categoryId":7,"status":"sold"})", "",
                "member \"name\" appears twice in one object (column 25)"},
        Refusal{R"({"a b":1,"a b":2})", "",
                "a member name appears twice in one object (column 14)"},
        // Repeated inside a nested value: refused as JSON before the unknown member is judged.
        Refusal{R"({"id":5,"x":{"a":1,"a":2}})", "",
                "member \"a\" appears twice in one object (column 22)"},
        Refusal{with("name", "\"R\xFFx\""), "", "the line is not valid UTF-8 (column 18)"},
        // A lone surrogate, high or low, is one problem with one message (Boost.JSON 1.81 sees a
        // high one followed by anything but a \u escape as a plain syntax error).
        // The column is that of the byte after the lone escape, or of its last digit when
        // Boost.JSON tells the error itself.
        Refusal{with("name", R"("\ud800")"), "", escape_rule + " (column 23)"},
        Refusal{with("name", R"("\uDBFFx")"), "", escape_rule + " (column 23)"},
        Refusal{with("name", R"("\ud800\n")"), "", escape_rule + " (column 23)"},
        Refusal{with("name", R"("a\"\\\ud800")"), "", escape_rule + " (column 28)"},
        Refusal{with("name", R"("\ud800\udc00\ud800")"), "", escape_rule + " (column 35)"},
        Refusal{with("name", R"("\ud800\u0041")"), "", escape_rule + " (column 28)"},
        Refusal{with("name", R"("\udc00")"), "", escape_rule + " (column 22)"},
        // Not a lone surrogate: an escaped backslash before "ud800", or a syntax error before it.
        Refusal{with("name", "\"\\\\ud800\x01\""), "", "the line is not valid JSON (column 24)"},
        Refusal{R"({"id":5,,"name":"\ud800"})", "", "the line is not valid JSON (column 9)"},
        Refusal{R"({"x":)" + std::string(40, '[') + std::string(40, ']') + "}", "",
                "the line nests arrays and objects more than 32 levels deep (column 37)"},
        Refusal{with("categoryId", "1e99999999999"), "",
                "the line has a number whose exponent is out of range (column 46)"}));

INSTANTIATE_TEST_SUITE_P(
    Members, JsonlPetCodecRefusal,
    testing::Values(
        Refusal{R"({"color":"red","id":0})", "color", "unknown member \"color\"" + members},
        Refusal{R"({"id":5,"name":"Rex","categoryId":7,"status":"sold","a b":1})", "",
                "the line has an unknown member" + members},
        Refusal{R"({"id":5,"name":"Rex","categoryId":7,"status":"sold","x":{"id":1}})", "x",
                "unknown member \"x\"" + members},
        Refusal{with("id", ""), "id", "id is required"}, Refusal{with("id", "0"), "id", id_rule},
        Refusal{with("id", "-1"), "id", id_rule}, Refusal{with("id", "5.0"), "id", id_rule},
        Refusal{with("id", "5e0"), "id", id_rule}, Refusal{with("id", "\"5\""), "id", id_rule},
        Refusal{with("id", "null"), "id", id_rule},
        Refusal{with("id", "9223372036854775808"), "id", id_rule},
        Refusal{with("id", "[5]"), "id", id_rule},
        Refusal{with("name", ""), "name", "name is required"},
        Refusal{with("name", "5"), "name", "name must be a string"},
        Refusal{with("name", "{\"x\":1}"), "name", "name must be a string"},
        Refusal{with("name", "\"\""), "name", "name must not be empty"},
        Refusal{with("name", R"(" \u3000 ")"), "name",
                "name must contain a character that is not white space"},
        Refusal{with("name", R"("R\u0001x")"), "name", "name must not contain control characters"},
        Refusal{with("name", "\"" + std::string(201, 'x') + "\""), "name",
                "name must be at most 200 characters"},
        Refusal{with("categoryId", ""), "categoryId", "categoryId is required"},
        Refusal{with("categoryId", "1.5"), "categoryId", category_rule},
        // Beyond a double's range is still a number (read as infinity): not an integer.
        Refusal{with("categoryId", "1e400"), "categoryId", category_rule},
        Refusal{with("categoryId", "\"7\""), "categoryId", category_rule},
        Refusal{with("categoryId", "9223372036854775808"), "categoryId", category_rule},
        Refusal{with("categoryId", "-9223372036854775809"), "categoryId", category_rule},
        Refusal{with("status", ""), "status", "status is required"},
        Refusal{with("status", "null"), "status",
                "status must be a string, one of available, pending, sold"},
        Refusal{with("status", "\"Sold\""), "status",
                "status must be one of available, pending, sold"}));

TEST(JsonlPetCodec, ReportsProblemsInTheContractsOrder) {
  // An unknown member first, then id, name, categoryId, status.
  EXPECT_EQ(decode_pet_line(R"({"id":0,"name":"","x":1})").error().field, "x");
  EXPECT_EQ(decode_pet_line(R"({"id":0,"name":"","categoryId":"x"})").error().field, "id");
  EXPECT_EQ(decode_pet_line(R"({"id":1,"name":"","categoryId":"x"})").error().field, "name");
  EXPECT_EQ(decode_pet_line(R"({"id":1,"name":"R","status":"x"})").error().field, "categoryId");
}

}  // namespace
}  // namespace petstore::tests

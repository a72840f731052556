// createPet through the Router (contract sections 2, 3 and 5): the body checks in their order
// (media type 415, then invalid_json, then validation_failed), and the 201 with its Location.

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "support/json_bodies.hpp"
#include "support/router_harness.hpp"

namespace petstore::tests {
namespace {

class RouterCreatePet : public testing::Test {
 protected:
  HttpResponse create_with_type(std::optional<std::string> content_type) {
    TestRequest made = post_pet(new_pet_json("Rex", 7));
    made.content_type = std::move(content_type);
    return router_.send(made);
  }

  RouterHarness router_;
};

TEST_F(RouterCreatePet, AnswersCreatedWithThePetAndItsLocation) {
  const HttpResponse first = router_.send(post_pet(R"({"name":"Rex","categoryId":7})"));
  EXPECT_EQ(first.status, 201U);
  EXPECT_TRUE(is_pet_body(first.body, "Rex", 7, "available"));
  const std::int64_t id = pet_id_of(first.body);
  EXPECT_EQ(id, 1);
  EXPECT_EQ(first.header("Location"), "/v1/pets/" + std::to_string(id));
  EXPECT_TRUE(has_v1_headers(first));

  const HttpResponse second = router_.send(post_pet(new_pet_json(" Tom\u00e9 ", -3, "sold")));
  EXPECT_EQ(second.status, 201U);
  EXPECT_TRUE(is_pet_body(second.body, " Tom\u00e9 ", -3, "sold"));
  EXPECT_GT(pet_id_of(second.body), id);

  const HttpResponse fetched =
      router_.send(request("GET", std::string(*second.header("Location"))));
  EXPECT_EQ(fetched.status, 200U);
  EXPECT_EQ(parse_json(fetched.body), parse_json(second.body));
}

TEST_F(RouterCreatePet, AcceptsJsonMediaTypesWithAUtf8Charset) {
  for (const char* type :
       {"application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8",
        R"(application/json; charset="utf-8")", "application/json ; charset=utf-8"}) {
    const HttpResponse response = create_with_type(type);
    EXPECT_EQ(response.status, 201U) << type << ": " << response.body;
  }
}

TEST_F(RouterCreatePet, RefusesOtherMediaTypes) {
  for (const std::optional<std::string>& type :
       {std::optional<std::string>(), std::optional<std::string>("")}) {
    const HttpResponse response = create_with_type(type);
    EXPECT_EQ(response.status, 415U);
    EXPECT_TRUE(is_error_body(response.body, 415, "unsupported_media_type"));
    EXPECT_TRUE(has_v1_headers(response));
  }
  for (const char* type :
       {"text/plain", "application/json; charset=latin1", "application/json; charset=iso-8859-1",
        "application/jsonx", "application/json-patch+json", "application/x-www-form-urlencoded",
        "text/json", "application/*", "application"}) {
    const HttpResponse response = create_with_type(type);
    EXPECT_EQ(response.status, 415U) << type;
    EXPECT_TRUE(is_error_body(response.body, 415, "unsupported_media_type")) << type;
  }
  EXPECT_EQ(pet_ids(router_.send(request("GET", "/v1/pets")).body).size(), 0U);
}

TEST_F(RouterCreatePet, AnotherCharsetIsRefusedNamingTheOneAccepted) {
  const HttpResponse response = create_with_type("application/json; charset=iso-8859-1");
  EXPECT_EQ(response.status, 415U);
  EXPECT_TRUE(is_error_body(response.body, 415, "unsupported_media_type"));
  EXPECT_NE(response.body.find("charset=utf-8"), std::string::npos) << response.body;
}

TEST_F(RouterCreatePet, AQuotedParameterMayHoldASemicolon) {
  const HttpResponse response = create_with_type(R"(application/json; foo="a;b")");
  EXPECT_EQ(response.status, 201U) << response.body;
}

// RFC 9110 section 5.6.6: parameters = *( OWS ";" OWS [ parameter ] ), so an empty parameter
// still names application/json.
TEST_F(RouterCreatePet, AcceptsEmptyMediaTypeParameters) {
  for (const char* type : {"application/json;", "application/json; ;charset=utf-8"}) {
    const HttpResponse response = create_with_type(type);
    EXPECT_EQ(response.status, 201U) << type << ": " << response.body;
  }
}

TEST_F(RouterCreatePet, TheMediaTypeIsCheckedBeforeTheBody) {
  TestRequest made = post_pet("{not json");
  made.content_type = "text/plain";
  EXPECT_EQ(router_.send(made).status, 415U);
}

TEST_F(RouterCreatePet, ABodyThatIsNoJsonObjectIsInvalidJson) {
  for (const std::string& body :
       {std::string(""), std::string("{"), std::string("[]"), std::string("\"Rex\""),
        std::string("null"), std::string(R"({"name":"Rex","categoryId":7} x)"),
        std::string(R"({"name":"Rex","name":"Max","categoryId":7})"),
        std::string("{\"name\":\"R\xff\",\"categoryId\":7}"), std::string(R"({"id":1,"name":)")}) {
    const HttpResponse response = router_.send(post_pet(body));
    EXPECT_EQ(response.status, 400U) << body;
    EXPECT_TRUE(is_error_body(response.body, 400, "invalid_json")) << body;
    EXPECT_TRUE(has_v1_headers(response)) << body;
  }
}

TEST_F(RouterCreatePet, BrokenNewPetRulesAreValidationFailuresNamingTheMember) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"categoryId":7})", "name"},
      {R"({"name":"","categoryId":7})", "name"},
      {R"({"name":" \u00a0\u3000","categoryId":7})", "name"},
      {R"({"name":"a\u0007b","categoryId":7})", "name"},
      {R"({"name":7,"categoryId":7})", "name"},
      {R"({"name":")" + std::string(201, 'x') + R"(","categoryId":7})", "name"},
      {R"({"name":"Rex"})", "categoryId"},
      {R"({"name":"Rex","categoryId":1.5})", "categoryId"},
      {R"({"name":"Rex","categoryId":1e2})", "categoryId"},
      {R"({"name":"Rex","categoryId":"7"})", "categoryId"},
      {R"({"name":"Rex","categoryId":9223372036854775808})", "categoryId"},
      {R"({"name":"Rex","categoryId":7,"status":null})", "status"},
      {R"({"name":"Rex","categoryId":7,"status":"lost"})", "status"},
      {R"({"name":"Rex","categoryId":7,"color":"red"})", "color"},
      {R"({"id":5,"name":"Rex","categoryId":7})", "id"},
  };
  for (const auto& [body, member] : cases) {
    const HttpResponse response = router_.send(post_pet(body));
    EXPECT_EQ(response.status, 400U) << body;
    EXPECT_TRUE(is_error_body(response.body, 400, "validation_failed", member)) << body;
  }
  EXPECT_EQ(pet_ids(router_.send(request("GET", "/v1/pets")).body).size(), 0U);
}

TEST_F(RouterCreatePet, TheNameMayHoldTwoHundredCodePoints) {
  std::string name;
  for (int i = 0; i < 200; ++i) {
    name += "\u00e9";  // two bytes each: the limit counts code points
  }
  const HttpResponse response = router_.send(post_pet(new_pet_json(name, 1)));
  EXPECT_EQ(response.status, 201U) << response.body;
  EXPECT_TRUE(is_pet_body(response.body, name, 1, "available"));
}

}  // namespace
}  // namespace petstore::tests

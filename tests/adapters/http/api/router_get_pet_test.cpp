// getPet (deprecated) and the Error bodies of the /v1 operations through the Router (contract
// sections 3 and 6): petId parsing, 200 and 404 with the deprecation headers, 400 without them.

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "support/json_bodies.hpp"
#include "support/router_harness.hpp"

namespace petstore::tests {
namespace {

constexpr std::string_view sunset = "Thu, 05 Dec 2030 00:00:00 GMT";
constexpr std::string_view successor = R"(</v1/pets>; rel="successor-version")";

// is_deprecation_date: RFC 9745's Structured Field Date, "@" and unix seconds.
bool is_deprecation_date(std::string_view value) {
  return value.size() > 1 && value.front() == '@' &&
         value.find_first_not_of("0123456789", 1) == std::string_view::npos;
}

class RouterGetPet : public testing::Test {
 protected:
  HttpResponse get(const std::string& pet_id) {
    return router_.send(request("GET", "/v1/pets/" + pet_id));
  }

  RouterHarness router_;
};

TEST_F(RouterGetPet, AnswersThePetWithDeprecationHeaders) {
  const std::int64_t id = router_.create("Rex", 7, "pending");
  const HttpResponse response = get(std::to_string(id));
  EXPECT_EQ(response.status, 200U);
  EXPECT_TRUE(is_pet_body(response.body, "Rex", 7, "pending"));
  EXPECT_EQ(pet_id_of(response.body), id);
  ASSERT_TRUE(response.header("Deprecation"));
  EXPECT_TRUE(is_deprecation_date(*response.header("Deprecation")))
      << *response.header("Deprecation");
  EXPECT_EQ(response.header("Sunset"), sunset);
  EXPECT_EQ(response.header("Link"), successor);
  EXPECT_TRUE(has_v1_headers(response));
}

TEST_F(RouterGetPet, AnUnknownIdIsNotFoundWithDeprecationHeaders) {
  router_.create("Rex");
  for (const char* id : {"2", "0", "-1", "9223372036854775807", "-9223372036854775808"}) {
    const HttpResponse response = get(id);
    EXPECT_EQ(response.status, 404U) << id;
    EXPECT_TRUE(is_error_body(response.body, 404, "not_found")) << id;
    ASSERT_TRUE(response.header("Deprecation")) << id;
    EXPECT_TRUE(is_deprecation_date(*response.header("Deprecation")));
    EXPECT_EQ(response.header("Sunset"), sunset) << id;
    EXPECT_EQ(response.header("Link"), successor) << id;
    EXPECT_TRUE(has_v1_headers(response));
  }
}

TEST_F(RouterGetPet, AMalformedIdIsAnInvalidParameterNamingPetId) {
  router_.create("Rex");
  for (const char* id : {"abc", "1.0", "+1", "1e3", "0x1", "1%20", "%201", "--1", "-",
                         "9223372036854775808", "-9223372036854775809", "1a"}) {
    const HttpResponse response = get(id);
    EXPECT_EQ(response.status, 400U) << id;
    EXPECT_TRUE(is_error_body(response.body, 400, "invalid_parameter", "petId")) << id;
    EXPECT_TRUE(has_v1_headers(response)) << id;
  }
}

TEST_F(RouterGetPet, ErrorMessagesDoNotEchoTheRequest) {
  const HttpResponse response = get("%3Cscript%3E");
  EXPECT_EQ(response.status, 400U);
  EXPECT_EQ(response.body.find("script"), std::string::npos) << response.body;
}

TEST_F(RouterGetPet, QueryParametersDoNotChangeTheAnswer) {
  const std::int64_t id = router_.create("Rex");
  const HttpResponse response =
      router_.send(request("GET", "/v1/pets/" + std::to_string(id) + "?limit=0&x=1"));
  EXPECT_EQ(response.status, 200U);
  EXPECT_EQ(pet_id_of(response.body), id);
}

}  // namespace
}  // namespace petstore::tests

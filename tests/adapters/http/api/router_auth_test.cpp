// The Router's first two checks (contract sections 1, 2 and 4): who may reach /v1, the 401
// challenge, routing to 404 and 405, and the operational paths outside /v1 that need no key.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/json_bodies.hpp"
#include "support/router_harness.hpp"

namespace petstore::tests {
namespace {

constexpr std::string_view challenge = R"(Bearer realm="petstore")";
constexpr std::string_view invalid_token = R"(Bearer realm="petstore", error="invalid_token")";

TestRequest with_authorization(std::string method, std::string target, std::string value) {
  TestRequest made = request(std::move(method), std::move(target), std::nullopt);
  made.authorization = std::move(value);
  return made;
}

class RouterAuth : public testing::Test {
 protected:
  RouterHarness router_;
};

TEST_F(RouterAuth, AskForAKeyBeforeRoutingUnderV1) {
  for (const char* target :
       {"/v1/pets", "/v1/no-such-thing", "/v1/pets/1/extra", "/v1", "/v1/", "/v1/store/orders"}) {
    const HttpResponse response = router_.send(request("GET", target, std::nullopt));
    EXPECT_EQ(response.status, 401U) << target;
    EXPECT_TRUE(is_error_body(response.body, 401, "unauthorized")) << target;
    EXPECT_EQ(response.header("WWW-Authenticate"), challenge) << target;
    EXPECT_TRUE(has_v1_headers(response)) << target;
  }
}

TEST_F(RouterAuth, UnknownPathsUnderV1AreNotFoundOnceAuthenticated) {
  for (const char* target : {"/v1/no-such-thing", "/v1", "/v1/", "/v1/pets/1/extra", "/v1/store",
                             "/v1/store/orders/1", "/v1//pets"}) {
    const HttpResponse response = router_.send(request("GET", target));
    EXPECT_EQ(response.status, 404U) << target;
    EXPECT_TRUE(is_error_body(response.body, 404, "not_found")) << target;
    EXPECT_TRUE(has_v1_headers(response)) << target;
  }
}

TEST_F(RouterAuth, PathsOutsideV1NeedNoKeyAndAreNotFound) {
  for (const char* target : {"/v1pets", "/v10/pets", "/pets", "/", "/V1/pets", "/healthz/x"}) {
    const HttpResponse response = router_.send(request("GET", target, std::nullopt));
    EXPECT_EQ(response.status, 404U) << target;
    EXPECT_TRUE(is_error_body(response.body, 404, "not_found")) << target;
    EXPECT_FALSE(response.header("WWW-Authenticate")) << target;
  }
}

// RFC 9112 section 3.2.2: a server accepts the absolute form of a request target.
TEST_F(RouterAuth, AnAbsoluteFormTargetIsRoutedByItsPath) {
  EXPECT_EQ(router_.send(request("GET", "http://petstore.test/v1/pets", std::nullopt)).status,
            401U);
  const HttpResponse response = router_.send(request("GET", "http://petstore.test/v1/pets"));
  EXPECT_EQ(response.status, 200U);
  EXPECT_EQ(router_.send(request("GET", "http://petstore.test/v10/pets", std::nullopt)).status,
            404U);
}

TEST_F(RouterAuth, MethodNotAllowedComesAfterAuthenticationAndNamesAllowedMethods) {
  EXPECT_EQ(router_.send(request("DELETE", "/v1/pets", std::nullopt)).status, 401U);

  const HttpResponse pets = router_.send(request("DELETE", "/v1/pets"));
  EXPECT_EQ(pets.status, 405U);
  EXPECT_TRUE(is_error_body(pets.body, 405, "method_not_allowed"));
  EXPECT_EQ(pets.header("Allow"), "GET, HEAD, POST");
  EXPECT_TRUE(has_v1_headers(pets));

  const HttpResponse pet = router_.send(request("PUT", "/v1/pets/1"));
  EXPECT_EQ(pet.status, 405U);
  EXPECT_EQ(pet.header("Allow"), "GET, HEAD");
  EXPECT_TRUE(has_v1_headers(pet));

  const HttpResponse orders = router_.send(request("POST", "/v1/store/orders"));
  EXPECT_EQ(orders.status, 405U);
  EXPECT_EQ(orders.header("Allow"), "GET, HEAD");
}

TEST_F(RouterAuth, MethodIsCheckedBeforeParameters) {
  const HttpResponse response = router_.send(request("PATCH", "/v1/pets/not-a-number"));
  EXPECT_EQ(response.status, 405U);
  EXPECT_EQ(router_.send(request("DELETE", "/v1/pets?limit=0")).status, 405U);
}

TEST_F(RouterAuth, AnUnknownKeyIsAnInvalidToken) {
  const HttpResponse response = router_.send(request("GET", "/v1/pets", "not-a-known-key"));
  EXPECT_EQ(response.status, 401U);
  EXPECT_TRUE(is_error_body(response.body, 401, "unauthorized"));
  EXPECT_EQ(response.header("WWW-Authenticate"), invalid_token);
  EXPECT_TRUE(has_v1_headers(response));
  EXPECT_EQ(response.body.find("not-a-known-key"), std::string::npos) << "the key leaked";
}

TEST_F(RouterAuth, AuthenticationComesBeforeParameterChecks) {
  const HttpResponse response = router_.send(request("GET", "/v1/pets?limit=0", "wrong"));
  EXPECT_EQ(response.status, 401U);
  EXPECT_EQ(router_.send(request("GET", "/v1/pets/abc", std::nullopt)).status, 401U);
}

TEST_F(RouterAuth, AMalformedBearerCredentialIsAnInvalidToken) {
  const std::string key(test_key_a);
  const std::vector<std::string> malformed = {"Bearer", "Bearer ", "Bearer a b",
                                              "Bearer " + key + " " + key, "Bearer =abc"};
  for (const std::string& value : malformed) {
    const HttpResponse response = router_.send(with_authorization("GET", "/v1/pets", value));
    EXPECT_EQ(response.status, 401U) << value;
    EXPECT_EQ(response.header("WWW-Authenticate"), invalid_token) << value;
  }
}

TEST_F(RouterAuth, AnotherSchemeGetsTheChallenge) {
  const HttpResponse response =
      router_.send(with_authorization("GET", "/v1/pets", "Basic " + std::string(test_key_a)));
  EXPECT_EQ(response.status, 401U);
  ASSERT_TRUE(response.header("WWW-Authenticate"));
  EXPECT_TRUE(response.header("WWW-Authenticate")->starts_with(challenge));
}

TEST_F(RouterAuth, AnAuthorizationHeaderSentTwiceIsRefused) {
  TestRequest twice = request("GET", "/v1/pets");
  twice.authorization_repeated = true;
  EXPECT_EQ(router_.send(twice).status, 401U);
}

TEST_F(RouterAuth, TheSchemeIsCaseInsensitiveAndMaybeFollowedBySeveralSpaces) {
  const std::string key(test_key_a);
  const std::vector<std::string> accepted = {"Bearer " + key, "bearer " + key, "BEARER " + key,
                                             "bEaReR " + key, "Bearer    " + key};
  for (const std::string& value : accepted) {
    const HttpResponse response = router_.send(with_authorization("GET", "/v1/pets", value));
    EXPECT_EQ(response.status, 200U) << value << ": " << response.body;
    EXPECT_TRUE(has_v1_headers(response));
  }
}

TEST_F(RouterAuth, ListOrdersIsNotImplementedOnceAuthenticated) {
  EXPECT_EQ(router_.send(request("GET", "/v1/store/orders", std::nullopt)).status, 401U);
  const HttpResponse response = router_.send(request("GET", "/v1/store/orders"));
  EXPECT_EQ(response.status, 501U);
  EXPECT_TRUE(is_error_body(response.body, 501, "not_implemented"));
  EXPECT_TRUE(has_v1_headers(response));
}

TEST_F(RouterAuth, HealthzAnswersOkWithoutAnyKey) {
  for (const std::optional<std::string_view> key :
       {std::optional<std::string_view>(), std::optional<std::string_view>("unknown-key")}) {
    const HttpResponse response = router_.send(request("GET", "/healthz", key));
    EXPECT_EQ(response.status, 200U);
    EXPECT_EQ(parse_json(response.body), parse_json(R"({"status":"ok"})"));
  }
  const HttpResponse post = router_.send(request("POST", "/healthz", std::nullopt));
  EXPECT_EQ(post.status, 405U);
  EXPECT_TRUE(is_error_body(post.body, 405, "method_not_allowed"));
  EXPECT_TRUE(post.header("Allow"));
}

// A read-only key (docs/decisions/key-management.md): it may list and get; a create is 403
// forbidden once the route and method are known, before the body is looked at, and stores nothing.
TEST_F(RouterAuth, AReadOnlyKeyReadsAndIsForbiddenToCreate) {
  const std::int64_t id = router_.create("Rex");
  EXPECT_EQ(router_.send(request("GET", "/v1/pets", test_key_read_only)).status, 200U);
  EXPECT_EQ(
      router_.send(request("GET", "/v1/pets/" + std::to_string(id), test_key_read_only)).status,
      200U);
  EXPECT_EQ(router_.send(request("HEAD", "/v1/pets", test_key_read_only)).status, 200U);
  EXPECT_EQ(router_.send(request("GET", "/v1/store/orders", test_key_read_only)).status, 501U);
  TestRequest wrong_type = post_pet(new_pet_json("Tom"), test_key_read_only);
  wrong_type.content_type = "text/plain";
  TestRequest with_query = post_pet(new_pet_json("Tom"), test_key_read_only);
  with_query.target = "/v1/pets?limit=0";
  for (const TestRequest& create :
       {post_pet(new_pet_json("Tom"), test_key_read_only), post_pet("{", test_key_read_only),
        post_pet(R"({"name":""})", test_key_read_only), wrong_type, with_query}) {
    const HttpResponse response = router_.send(create);
    EXPECT_EQ(response.status, 403U) << create.body;
    EXPECT_TRUE(is_error_body(response.body, 403, "forbidden")) << response.body;
    EXPECT_NE(response.body.find("read-only"), std::string::npos) << response.body;
    EXPECT_TRUE(has_v1_headers(response));
    EXPECT_FALSE(response.header("WWW-Authenticate")) << "known, not unauthenticated";
  }
  // Route and method come first: a method the path does not take is 405 for any key.
  EXPECT_EQ(router_.send(request("POST", "/v1/pets/1", test_key_read_only)).status, 405U);
  EXPECT_EQ(router_.send(request("DELETE", "/v1/pets", test_key_read_only)).status, 405U);
  EXPECT_EQ(router_.list_all(), (std::vector<ListedPet>{{id, "Rex"}})) << "nothing was stored";
}

}  // namespace
}  // namespace petstore::tests

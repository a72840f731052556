// Idempotency-Key on createPet through the Router (contract section 6): a repeat answers the
// first pet, another body is 422, keys are scoped per API key and checked for their form.

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "support/json_bodies.hpp"
#include "support/router_harness.hpp"

namespace petstore::tests {
namespace {

class RouterIdempotency : public testing::Test {
 protected:
  HttpResponse create(std::string body, std::string idempotency_key,
                      std::string_view key = test_key_a) {
    TestRequest made = post_pet(std::move(body), key);
    made.idempotency_key = std::move(idempotency_key);
    return router_.send(made);
  }

  std::size_t pet_count() {
    return pet_ids(router_.send(request("GET", "/v1/pets?limit=100")).body).size();
  }

  RouterHarness router_;
};

TEST_F(RouterIdempotency, ARepeatAnswersTheFirstPetAndCreatesNothing) {
  const HttpResponse first = create(new_pet_json("Rex", 7), "order-1");
  ASSERT_EQ(first.status, 201U);
  const HttpResponse again = create(new_pet_json("Rex", 7), "order-1");
  EXPECT_EQ(again.status, 201U);
  EXPECT_EQ(parse_json(again.body), parse_json(first.body));
  EXPECT_EQ(again.header("Location"), first.header("Location"));
  EXPECT_TRUE(has_v1_headers(again));
  EXPECT_EQ(pet_count(), 1U);
}

// "The same body" is the same NewPet: member order and white space do not make it another one.
TEST_F(RouterIdempotency, TheSameNewPetFormattedDifferentlyIsTheSameBody) {
  const HttpResponse first = create(R"({"name":"Rex","categoryId":7})", "order-1");
  const HttpResponse again = create("{ \"categoryId\" : 7 ,\n \"name\" : \"Rex\" }", "order-1");
  EXPECT_EQ(again.status, 201U);
  EXPECT_EQ(pet_id_of(again.body), pet_id_of(first.body));
  EXPECT_EQ(pet_count(), 1U);
}

TEST_F(RouterIdempotency, TheSameKeyWithAnotherBodyIsRefused) {
  ASSERT_EQ(create(new_pet_json("Rex", 7), "order-1").status, 201U);
  const HttpResponse other = create(new_pet_json("Max", 7), "order-1");
  EXPECT_EQ(other.status, 422U);
  EXPECT_TRUE(is_error_body(other.body, 422, "idempotency_key_reused"));
  EXPECT_TRUE(has_v1_headers(other));
  EXPECT_EQ(pet_count(), 1U);
}

TEST_F(RouterIdempotency, KeysAreScopedToTheApiKeyThatSentThem) {
  const HttpResponse by_a = create(new_pet_json("Rex", 7), "shared", test_key_a);
  const HttpResponse by_b = create(new_pet_json("Rex", 7), "shared", test_key_b);
  ASSERT_EQ(by_a.status, 201U);
  ASSERT_EQ(by_b.status, 201U);
  EXPECT_NE(pet_id_of(by_a.body), pet_id_of(by_b.body));
  const HttpResponse by_b_again = create(new_pet_json("Rex", 7), "shared", test_key_b);
  EXPECT_EQ(pet_id_of(by_b_again.body), pet_id_of(by_b.body));
  EXPECT_EQ(pet_count(), 2U);
}

TEST_F(RouterIdempotency, DistinctKeysCreateDistinctPets) {
  const HttpResponse one = create(new_pet_json("Rex", 7), "k1");
  const HttpResponse two = create(new_pet_json("Rex", 7), "k2");
  EXPECT_NE(pet_id_of(one.body), pet_id_of(two.body));
  EXPECT_EQ(pet_count(), 2U);
}

TEST_F(RouterIdempotency, KeysAreRememberedForADay) {
  const HttpResponse first = create(new_pet_json("Rex", 7), "order-1");
  router_.clock().advance(std::chrono::hours(23) + std::chrono::minutes(59));
  const HttpResponse later = create(new_pet_json("Rex", 7), "order-1");
  EXPECT_EQ(later.status, 201U);
  EXPECT_EQ(pet_id_of(later.body), pet_id_of(first.body));
  EXPECT_EQ(create(new_pet_json("Max", 7), "order-1").status, 422U);
}

TEST_F(RouterIdempotency, AKeyOfOneToTwoHundredFiftyFiveVisibleCharactersIsAccepted) {
  for (const std::string& key : {std::string("x"), std::string(255, 'k'),
                                 std::string("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")}) {
    EXPECT_EQ(create(new_pet_json("Rex", 7), key).status, 201U) << key;
  }
}

TEST_F(RouterIdempotency, AMalformedKeyIsAnInvalidParameter) {
  for (const std::string& key :
       {std::string(""), std::string(256, 'k'), std::string("a b"), std::string("tab\there"),
        std::string("caf\xc3\xa9"), std::string("nul\0x", 5), std::string("del\x7f")}) {
    const HttpResponse response = create(new_pet_json("Rex", 7), key);
    EXPECT_EQ(response.status, 400U) << key;
    EXPECT_TRUE(is_error_body(response.body, 400, "invalid_parameter", "Idempotency-Key")) << key;
    EXPECT_TRUE(has_v1_headers(response));
  }
  EXPECT_EQ(pet_count(), 0U);
}

TEST_F(RouterIdempotency, AKeySentTwiceIsAnInvalidParameter) {
  TestRequest made = post_pet(new_pet_json("Rex", 7));
  made.idempotency_key = "order-1";
  made.idempotency_key_repeated = true;
  const HttpResponse response = router_.send(made);
  EXPECT_EQ(response.status, 400U);
  EXPECT_TRUE(is_error_body(response.body, 400, "invalid_parameter", "Idempotency-Key"));
  EXPECT_EQ(pet_count(), 0U);
}

}  // namespace
}  // namespace petstore::tests

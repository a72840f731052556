#include "router_harness.hpp"

#include <chrono>
#include <future>
#include <stdexcept>
#include <utility>

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <gtest/gtest.h>

#include "support/json_bodies.hpp"

namespace petstore::tests {

adapters::http::HttpRequest TestRequest::view() const {
  adapters::http::HttpRequest view;
  view.method = method;
  view.target = target;
  if (authorization) {
    view.authorization = *authorization;
  }
  view.authorization_repeated = authorization_repeated;
  if (content_type) {
    view.content_type = *content_type;
  }
  if (idempotency_key) {
    view.idempotency_key = *idempotency_key;
  }
  view.idempotency_key_repeated = idempotency_key_repeated;
  view.body = body;
  return view;
}

TestRequest request(std::string method, std::string target, std::optional<std::string_view> key) {
  TestRequest made;
  made.method = std::move(method);
  made.target = std::move(target);
  if (key) {
    made.authorization = "Bearer " + std::string(*key);
  }
  return made;
}

TestRequest post_pet(std::string body, std::optional<std::string_view> key) {
  TestRequest made = request("POST", "/v1/pets", key);
  made.content_type = "application/json";
  made.body = std::move(body);
  return made;
}

std::string new_pet_json(std::string_view name, std::int64_t category_id,
                         std::optional<std::string_view> status) {
  boost::json::object pet{{"name", name}, {"categoryId", category_id}};
  if (status) {
    pet["status"] = *status;
  }
  return boost::json::serialize(pet);
}

RouterHarness::RouterHarness() {
  auto clock = std::make_unique<FakeClock>();
  clock_ = clock.get();
  service_ = bootstrap::build_component_service(make_fake_key_verifier(), std::move(clock));
}

HttpResponse RouterHarness::send(const TestRequest& request) const {
  auto later = std::make_shared<std::promise<HttpResponse>>();
  auto answer = later->get_future();
  // A second answer would throw std::future_error from set_value, failing the test.
  service_->router().handle(
      request.view(), [later](HttpResponse response) { later->set_value(std::move(response)); });
  if (answer.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    throw std::runtime_error("the router did not answer " + request.method + " " + request.target);
  }
  return answer.get();
}

std::int64_t RouterHarness::create(std::string_view name, std::int64_t category_id,
                                   std::optional<std::string_view> status) const {
  const HttpResponse response = send(post_pet(new_pet_json(name, category_id, status)));
  EXPECT_EQ(response.status, 201U) << response.body;
  return response.status == 201 ? pet_id_of(response.body) : -1;
}

testing::AssertionResult has_v1_headers(const HttpResponse& response) {
  if (response.header("Cache-Control") != "no-store" ||
      response.header("X-Content-Type-Options") != "nosniff") {
    return testing::AssertionFailure()
           << "status " << response.status << " lacks Cache-Control: no-store or "
           << "X-Content-Type-Options: nosniff";
  }
  return testing::AssertionSuccess();
}

}  // namespace petstore::tests

#pragma once
// RouterHarness: the component service's Router called directly, without sockets. A request is a
// struct the test fills in; the answer is what the router returns at once or hands to its respond
// callback (a create). Keys come from support/fake_key_verifier.hpp, time from a FakeClock.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "adapters/http/http_message.hpp"
#include "bootstrap/service.hpp"
#include "support/fake_clock.hpp"
#include "support/fake_key_verifier.hpp"

namespace petstore::tests {

using adapters::http::HttpResponse;

// TestRequest: owns the bytes that an adapters::http::HttpRequest only views.
struct TestRequest {
  std::string method = "GET";
  std::string target;
  std::optional<std::string> authorization;
  bool authorization_repeated = false;
  std::optional<std::string> content_type;
  std::optional<std::string> idempotency_key;
  bool idempotency_key_repeated = false;
  std::string body;

  [[nodiscard]] adapters::http::HttpRequest view() const;
};

// request: `method` `target`, presenting `key` as a bearer token (no Authorization when nullopt).
[[nodiscard]] TestRequest request(std::string method, std::string target,
                                  std::optional<std::string_view> key = test_key_a);

// post_pet: POST /v1/pets with `body` as application/json, presenting `key`.
[[nodiscard]] TestRequest post_pet(std::string body,
                                   std::optional<std::string_view> key = test_key_a);

// new_pet_json: a NewPet body, e.g. {"name":"Rex","categoryId":7,"status":"sold"}.
[[nodiscard]] std::string new_pet_json(std::string_view name, std::int64_t category_id,
                                       std::optional<std::string_view> status = std::nullopt);

class RouterHarness {
 public:
  RouterHarness();

  // send: the router's response to `request`; throws when the router neither answers nor calls
  // back within a few seconds.
  [[nodiscard]] HttpResponse send(const TestRequest& request) const;

  // create: the id of a pet created through POST /v1/pets; -1 (failing the test) when the
  // answer is not 201.
  std::int64_t create(std::string_view name, std::int64_t category_id = 1,
                      std::optional<std::string_view> status = std::nullopt) const;

  [[nodiscard]] FakeClock& clock() { return *clock_; }

 private:
  FakeClock* clock_ = nullptr;  // owned by service_
  std::unique_ptr<bootstrap::Service> service_;
};

// has_v1_headers: whether `response` carries Cache-Control: no-store and
// X-Content-Type-Options: nosniff, as every /v1 response must.
[[nodiscard]] testing::AssertionResult has_v1_headers(const HttpResponse& response);

}  // namespace petstore::tests

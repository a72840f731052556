#pragma once
// TestRequest: a request for the Router without sockets, owning the bytes that an
// adapters::http::HttpRequest only views, and the builders the router and fault tests use.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/http/api/http_message.hpp"
#include "support/fake_key_verifier.hpp"

namespace petstore::tests {

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
[[nodiscard]] std::string new_pet_json(std::string_view name, std::int64_t category_id = 1,
                                       std::optional<std::string_view> status = std::nullopt);

}  // namespace petstore::tests

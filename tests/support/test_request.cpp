#include "support/test_request.hpp"

#include <utility>

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

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

}  // namespace petstore::tests

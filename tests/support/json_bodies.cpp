#include "support/json_bodies.hpp"

#include <string>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace petstore::tests {
namespace json = boost::json;

json::value parse_json(std::string_view text) {
  json::error_code error;
  json::value value = json::parse(text, error);
  if (error) {
    return nullptr;
  }
  return value;
}

testing::AssertionResult is_error_body(std::string_view body, unsigned status,
                                       std::string_view code, std::string_view mentions) {
  const json::value value = parse_json(body);
  const json::object* object = value.if_object();
  if (object == nullptr || object->size() != 3) {
    return testing::AssertionFailure() << "not an Error object of three members: " << body;
  }
  const json::string* actual_code =
      object->contains("code") ? object->at("code").if_string() : nullptr;
  const json::string* message =
      object->contains("message") ? object->at("message").if_string() : nullptr;
  const std::int64_t* actual_status =
      object->contains("status") ? object->at("status").if_int64() : nullptr;
  if (actual_code == nullptr || message == nullptr || actual_status == nullptr) {
    return testing::AssertionFailure() << "code, message or status missing or mistyped: " << body;
  }
  if (*actual_code != code || *actual_status != static_cast<std::int64_t>(status)) {
    return testing::AssertionFailure()
           << "expected code " << code << " and status " << status << ", got " << body;
  }
  if (message->empty() || std::string_view(*message).find(mentions) == std::string_view::npos) {
    return testing::AssertionFailure()
           << "the message does not name '" << mentions << "': " << body;
  }
  return testing::AssertionSuccess();
}

testing::AssertionResult is_pet_body(std::string_view body, std::string_view name,
                                     std::int64_t category_id, std::string_view status) {
  const json::value value = parse_json(body);
  const json::object* object = value.if_object();
  if (object == nullptr || object->size() != 4 || !object->contains("id") ||
      !object->at("id").is_int64()) {
    return testing::AssertionFailure() << "not a Pet of four members with an integer id: " << body;
  }
  const json::object expected{
      {"id", object->at("id")}, {"name", name}, {"categoryId", category_id}, {"status", status}};
  if (*object != expected) {
    return testing::AssertionFailure()
           << "expected " << json::serialize(expected) << ", got " << body;
  }
  return testing::AssertionSuccess();
}

std::int64_t pet_id_of(std::string_view body) {
  const json::value value = parse_json(body);
  const json::object* object = value.if_object();
  if (object == nullptr || !object->contains("id") || !object->at("id").is_int64()) {
    return -1;
  }
  return object->at("id").as_int64();
}

std::vector<std::int64_t> pet_ids(std::string_view body) {
  const json::value value = parse_json(body);
  std::vector<std::int64_t> ids;
  if (const json::array* array = value.if_array()) {
    for (const json::value& pet : *array) {
      ids.push_back(pet_id_of(json::serialize(pet)));
    }
  }
  return ids;
}

}  // namespace petstore::tests

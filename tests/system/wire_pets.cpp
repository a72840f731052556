#include "wire_pets.hpp"

#include <boost/json.hpp>

namespace petstore::tests::system {
namespace {

std::optional<WirePet> pet_from(const boost::json::value& value) {
  const auto* object = value.if_object();
  if (object == nullptr || object->size() != 4) {
    return std::nullopt;
  }
  const auto* id = object->if_contains("id");
  const auto* name = object->if_contains("name");
  const auto* category = object->if_contains("categoryId");
  const auto* status = object->if_contains("status");
  if (id == nullptr || !id->is_int64() || name == nullptr || !name->is_string() ||
      category == nullptr || !category->is_int64() || status == nullptr || !status->is_string()) {
    return std::nullopt;
  }
  return WirePet{id->as_int64(), std::string(name->as_string()), category->as_int64(),
                 std::string(status->as_string())};
}

std::optional<boost::json::value> parse_json(std::string_view text) {
  boost::system::error_code ec;
  auto value = boost::json::parse(text, ec);
  if (ec) {
    return std::nullopt;
  }
  return value;
}

// next_target: the target of a `Link: <...>; rel="next"` header, nullopt without one.
std::optional<std::string> next_target(const RawResponse& response) {
  const auto link = response.header("Link");
  if (!link || link->find("rel=\"next\"") == std::string::npos) {
    return std::nullopt;
  }
  const auto open = link->find('<');
  const auto close = link->find('>');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return std::nullopt;
  }
  return link->substr(open + 1, close - open - 1);
}

std::string failure(std::string_view target, const std::optional<RawResponse>& response) {
  std::string text = "GET " + std::string(target) + ": ";
  if (!response) {
    return text + "no response";
  }
  return text + std::to_string(response->status) + " " + response->body;
}

}  // namespace

std::string describe(const WirePet& pet) {
  return "{id " + std::to_string(pet.id) + ", name " + pet.name + ", categoryId " +
         std::to_string(pet.category_id) + ", status " + pet.status + "}";
}

std::optional<RawResponse> request(RawConnection& connection, std::string_view method,
                                   std::string_view target, std::string_view api_key,
                                   std::string_view body) {
  return connection.try_round_trip(api_request(method, target, api_key, body, true),
                                   exchange_timeout);
}

std::string new_pet_json(const WirePet& pet, bool omit_status) {
  boost::json::object object{{"name", pet.name}, {"categoryId", pet.category_id}};
  if (!omit_status) {
    object["status"] = pet.status;
  }
  return boost::json::serialize(object);
}

std::optional<WirePet> parse_pet(std::string_view json) {
  const auto value = parse_json(json);
  return value ? pet_from(*value) : std::nullopt;
}

Outcome<std::optional<WirePet>> get_pet(RawConnection& connection, std::string_view api_key,
                                        std::int64_t id) {
  const std::string target = "/v1/pets/" + std::to_string(id);
  const auto response = request(connection, "GET", target, api_key);
  if (response && response->status == 404) {
    return {std::optional<WirePet>{}, {}};
  }
  if (!response || response->status != 200) {
    return {std::nullopt, failure(target, response)};
  }
  auto pet = parse_pet(response->body);
  if (!pet) {
    return {std::nullopt, failure(target, response)};
  }
  return {std::optional<WirePet>{std::move(*pet)}, {}};
}

Outcome<std::vector<WirePet>> list_all(RawConnection& connection, std::string_view api_key) {
  std::vector<WirePet> pets;
  std::optional<std::string> target = "/v1/pets?limit=100";
  // A bound on pages, so that a Link that never ends fails the test instead of hanging it.
  for (int pages = 0; target; ++pages) {
    if (pages == 100'000) {
      return {std::nullopt, "more than 100000 pages: the Link headers do not end"};
    }
    const auto response = request(connection, "GET", *target, api_key);
    if (!response || response->status != 200) {
      return {std::nullopt, failure(*target, response)};
    }
    const auto page = parse_json(response->body);
    if (!page || !page->is_array() || page->as_array().size() > 100) {
      return {std::nullopt, failure(*target, response) + " (not a page)"};
    }
    for (const auto& item : page->as_array()) {
      auto pet = pet_from(item);
      if (!pet) {
        return {std::nullopt, failure(*target, response) + " (not a pet)"};
      }
      pets.push_back(std::move(*pet));
    }
    target = next_target(*response);
  }
  return {std::move(pets), {}};
}

}  // namespace petstore::tests::system

#pragma once
// Pets as a client sees them on the wire, and the few exchanges a system test needs: create one,
// get one, and read the whole catalogue by following the Link rel="next" pages. Every helper
// reports a failure as text (the request and what came back) so the test can show it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http_connection.hpp"

namespace petstore::tests::system {

struct WirePet {
  std::int64_t id = 0;  // 0 while the pet is only sent, not acknowledged
  std::string name;
  std::int64_t category_id = 0;
  std::string status;

  friend bool operator==(const WirePet&, const WirePet&) = default;
};

[[nodiscard]] std::string describe(const WirePet& pet);

// new_pet_json: the createPet body for `pet` (its id left out); `status` is left out too when
// `omit_status`, so that the service's default applies.
[[nodiscard]] std::string new_pet_json(const WirePet& pet, bool omit_status);

// parse_pet: the Pet object of `json`, nullopt unless it has exactly the four members, typed.
[[nodiscard]] std::optional<WirePet> parse_pet(std::string_view json);

template <class T>
struct Outcome {
  std::optional<T> value;
  std::string error;  // set exactly when `value` is not
};

// get_pet: GET /v1/pets/{id}; a 404 is a value of nullopt, anything else but 200 an error.
[[nodiscard]] Outcome<std::optional<WirePet>> get_pet(HttpConnection& connection,
                                                      std::string_view api_key, std::int64_t id);

// list_all: every pet, in the order the pages give them, from GET /v1/pets?limit=100 and each
// next page its Link header names.
[[nodiscard]] Outcome<std::vector<WirePet>> list_all(HttpConnection& connection,
                                                     std::string_view api_key);

}  // namespace petstore::tests::system

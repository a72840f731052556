#pragma once
// Pets as a client sees them on the wire, and the few exchanges a system test needs: create one,
// get one, and read the whole catalogue by following the Link rel="next" pages. Every helper
// reports a failure as text (the request and what came back) so the test can show it.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/raw_http_connection.hpp"

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

// exchange_timeout: how long a system test waits for one response.
inline constexpr std::chrono::seconds exchange_timeout{20};

// request: `method target` with the bearer `api_key` and `body` as JSON, on a kept-alive
// connection; nullopt when the exchange failed (what a killed server looks like).
[[nodiscard]] std::optional<RawResponse> request(RawConnection& connection, std::string_view method,
                                                 std::string_view target, std::string_view api_key,
                                                 std::string_view body = {});

template <class T>
struct Outcome {
  std::optional<T> value;
  std::string error;  // set exactly when `value` is not
};

// get_pet: GET /v1/pets/{id}; a 404 is a value of nullopt, anything else but 200 an error.
[[nodiscard]] Outcome<std::optional<WirePet>> get_pet(RawConnection& connection,
                                                      std::string_view api_key, std::int64_t id);

// list_all: every pet, in the order the pages give them, from GET /v1/pets?limit=100 and each
// next page its Link header names.
[[nodiscard]] Outcome<std::vector<WirePet>> list_all(RawConnection& connection,
                                                     std::string_view api_key);

}  // namespace petstore::tests::system

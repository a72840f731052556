#include "adapters/http/server/request_id.hpp"

#include <algorithm>
#include <cstddef>
#include <string_view>

#include "adapters/http/api/random_hex.hpp"

namespace petstore::adapters::http {

bool is_valid_request_id(std::string_view id) {
  return !id.empty() && id.size() <= max_request_id_length &&
         std::all_of(id.begin(), id.end(), [](char c) { return c >= '!' && c <= '~'; });
}

void assign_request_id(std::string& out, std::optional<std::string_view> sent) {
  if (sent && is_valid_request_id(*sent)) {
    out.assign(*sent);
    return;
  }
  constexpr std::size_t new_id_bytes = 16;  // 32 hex digits
  out.resize(2 * new_id_bytes);
  write_random_hex(out.data(), new_id_bytes);
}

}  // namespace petstore::adapters::http

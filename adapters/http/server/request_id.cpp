#include "adapters/http/server/request_id.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>

namespace petstore::adapters::http {

bool is_valid_request_id(std::string_view id) {
  return !id.empty() && id.size() <= max_request_id_length &&
         std::all_of(id.begin(), id.end(), [](char c) { return c >= '!' && c <= '~'; });
}

std::string new_request_id() {
  // Seeded once per thread from the OS; ids need to be unique, not secret.
  thread_local std::mt19937_64 generator{[] {
    std::random_device device;
    return (std::uint64_t{device()} << 32U) ^ device();
  }()};
  static constexpr std::array<char, 16> digits{'0', '1', '2', '3', '4', '5', '6', '7',
                                               '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  std::array<char, 32> id;  // NOLINT(cppcoreguidelines-pro-type-member-init): written whole below
  for (std::size_t word = 0; word < 2; ++word) {
    std::uint64_t bits = generator();
    for (std::size_t nibble = 0; nibble < 16; ++nibble) {
      id[(word * 16) + nibble] = digits[bits & 0xFU];
      bits >>= 4U;
    }
  }
  return {id.data(), id.size()};
}

std::string request_id_for(std::optional<std::string_view> sent) {
  if (sent && is_valid_request_id(*sent)) {
    return std::string(*sent);
  }
  return new_request_id();
}

}  // namespace petstore::adapters::http

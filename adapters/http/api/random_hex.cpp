#include "adapters/http/api/random_hex.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string_view>

namespace petstore::adapters::http {
namespace {

// hex_pairs: the two lowercase hex digits of each byte value.
constexpr std::array<char, 512> hex_pairs = [] {
  constexpr std::string_view digits = "0123456789abcdef";
  std::array<char, 512> pairs{};
  for (std::size_t byte = 0; byte < 256; ++byte) {
    pairs[2 * byte] = digits[byte >> 4U];
    pairs[(2 * byte) + 1] = digits[byte & 0xFU];
  }
  return pairs;
}();

std::uint64_t next_bits() {
  thread_local std::uint64_t state = [] {
    std::random_device device;
    return (std::uint64_t{device()} << 32U) ^ device();
  }();
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

constexpr std::size_t max_request_id_length = 128;

// is_valid_request_id: 1..128 characters, each visible ASCII (0x21..0x7E).
bool is_valid_request_id(std::string_view id) {
  return !id.empty() && id.size() <= max_request_id_length &&
         std::all_of(id.begin(), id.end(), [](char c) { return c >= '!' && c <= '~'; });
}

}  // namespace

void write_random_hex(char* out, std::size_t bytes) {
  while (bytes > 0) {
    std::uint64_t bits = next_bits();
    for (std::size_t byte = 0; byte < 8 && bytes > 0; ++byte, --bytes) {
      const std::size_t at = 2 * (bits & 0xFFU);
      *out++ = hex_pairs[at];
      *out++ = hex_pairs[at + 1];
      bits >>= 8U;
    }
  }
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

#include "adapters/http/server/request_id.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string_view>

namespace petstore::adapters::http {

bool is_valid_request_id(std::string_view id) {
  return !id.empty() && id.size() <= max_request_id_length &&
         std::all_of(id.begin(), id.end(), [](char c) { return c >= '!' && c <= '~'; });
}

namespace {

constexpr std::size_t new_id_length = 32;

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

// next_bits: SplitMix64 over a per-thread counter seeded once from the OS: a bijection of the
// counter, so a thread never repeats itself within 2^64 ids; ids need to be unique, not secret.
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

// write_new_id: 32 lowercase hex digits (16 random bytes) at `out`, two digits a byte.
void write_new_id(char* out) {
  for (std::size_t word = 0; word < 2; ++word) {
    std::uint64_t bits = next_bits();
    for (std::size_t byte = 0; byte < 8; ++byte) {
      const std::size_t at = 2 * (bits & 0xFFU);
      *out++ = hex_pairs[at];
      *out++ = hex_pairs[at + 1];
      bits >>= 8U;
    }
  }
}

}  // namespace

void assign_request_id(std::string& out, std::optional<std::string_view> sent) {
  if (sent && is_valid_request_id(*sent)) {
    out.assign(*sent);
    return;
  }
  out.resize(new_id_length);
  write_new_id(out.data());
}

}  // namespace petstore::adapters::http

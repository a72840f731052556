#include "adapters/storage/lmdb/lmdb_checksum.hpp"

#include <array>
#include <cstring>

namespace petstore::adapters::storage::lmdb {
namespace {

constexpr std::uint32_t castagnoli_reflected = 0x82F63B78U;

constexpr std::array<std::uint32_t, 256> make_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < table.size(); ++i) {
    std::uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 1U) != 0 ? (crc >> 1U) ^ castagnoli_reflected : crc >> 1U;
    }
    table[i] = crc;
  }
  return table;
}

constexpr std::array<std::uint32_t, 256> table = make_table();

std::uint32_t update_portable(std::uint32_t crc, std::string_view bytes) noexcept {
  for (const char byte : bytes) {
    crc = table[(crc ^ static_cast<unsigned char>(byte)) & 0xFFU] ^ (crc >> 8U);
  }
  return crc;
}

#if defined(__x86_64__)
// update_sse42: 8 bytes a step, then at most one step each of 4, 2 and 1 bytes: a pet record's
// body is about 20 bytes, so the tail is as long as the rest.
__attribute__((target("sse4.2"))) std::uint32_t update_sse42(std::uint32_t crc,
                                                             std::string_view bytes) noexcept {
  const char* at = bytes.data();
  std::size_t left = bytes.size();
  std::uint64_t wide = crc;
  for (; left >= sizeof(std::uint64_t); left -= sizeof(std::uint64_t)) {
    std::uint64_t word = 0;
    std::memcpy(&word, at, sizeof(word));  // little-endian, as the CRC wants
    wide = __builtin_ia32_crc32di(wide, word);
    at += sizeof(word);
  }
  auto narrow = static_cast<std::uint32_t>(wide);
  if (left >= sizeof(std::uint32_t)) {
    std::uint32_t word = 0;
    std::memcpy(&word, at, sizeof(word));
    narrow = __builtin_ia32_crc32si(narrow, word);
    at += sizeof(word);
    left -= sizeof(word);
  }
  if (left >= sizeof(std::uint16_t)) {
    std::uint16_t word = 0;
    std::memcpy(&word, at, sizeof(word));
    narrow = __builtin_ia32_crc32hi(narrow, word);
    at += sizeof(word);
    left -= sizeof(word);
  }
  if (left != 0) {
    narrow = __builtin_ia32_crc32qi(narrow, static_cast<unsigned char>(*at));
  }
  return narrow;
}

__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(std::string_view bytes) noexcept {
  return ~update_sse42(~0U, bytes);
}
#endif

std::uint32_t crc32c_table(std::string_view bytes) noexcept { return ~update_portable(~0U, bytes); }

// pick: the CPU's fastest path (__builtin_cpu_init first, as the first use may come early).
Crc32c pick() noexcept {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("sse4.2") != 0) {
    return crc32c_sse42;
  }
#endif
  return crc32c_table;
}

}  // namespace

Crc32c crc32c_for_this_cpu() noexcept {
  static const Crc32c chosen = pick();
  return chosen;
}

std::uint32_t crc32c(std::string_view bytes) noexcept { return crc32c_for_this_cpu()(bytes); }

std::uint32_t crc32c_portable(std::string_view bytes) noexcept { return crc32c_table(bytes); }

}  // namespace petstore::adapters::storage::lmdb

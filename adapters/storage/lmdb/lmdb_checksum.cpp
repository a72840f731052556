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
__attribute__((target("sse4.2"))) std::uint32_t update_sse42(std::uint32_t crc,
                                                             std::string_view bytes) noexcept {
  std::uint64_t wide = crc;
  std::size_t at = 0;
  for (; at + sizeof(std::uint64_t) <= bytes.size(); at += sizeof(std::uint64_t)) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + at, sizeof(word));  // little-endian, as the CRC wants
    wide = __builtin_ia32_crc32di(wide, word);
  }
  auto narrow = static_cast<std::uint32_t>(wide);
  for (; at < bytes.size(); ++at) {
    narrow = __builtin_ia32_crc32qi(narrow, static_cast<unsigned char>(bytes[at]));
  }
  return narrow;
}

// cpu_has_sse42: asked once (__builtin_cpu_init first, as the first use may come early).
bool cpu_has_sse42() noexcept {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") != 0;
  }();
  return has;
}
#endif

}  // namespace

std::uint32_t crc32c(std::string_view bytes) noexcept {
#if defined(__x86_64__)
  if (cpu_has_sse42()) {
    return ~update_sse42(~0U, bytes);
  }
#endif
  return ~update_portable(~0U, bytes);
}

std::uint32_t crc32c_portable(std::string_view bytes) noexcept {
  return ~update_portable(~0U, bytes);
}

}  // namespace petstore::adapters::storage::lmdb

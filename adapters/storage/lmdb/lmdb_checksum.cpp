#include "adapters/storage/lmdb/lmdb_checksum.hpp"

#include <array>

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

// pick: the CPU's fastest path.
Crc32c pick() noexcept {
#if defined(__x86_64__)
  if (crc32c_has_hardware()) {
    return crc32c_hardware;
  }
#endif
  return crc32c_portable;
}

}  // namespace

bool crc32c_has_hardware() noexcept {
#if defined(__x86_64__)
  // __builtin_cpu_init first, as the first use may come before the constructors that call it.
  static const bool has = (__builtin_cpu_init(), __builtin_cpu_supports("sse4.2") != 0);
  return has;
#else
  return false;
#endif
}

Crc32c crc32c_for_this_cpu() noexcept {
  static const Crc32c chosen = pick();
  return chosen;
}

std::uint32_t crc32c(std::string_view bytes) noexcept { return crc32c_for_this_cpu()(bytes); }

std::uint32_t crc32c_portable(std::string_view bytes) noexcept {
  std::uint32_t crc = ~0U;
  for (const char byte : bytes) {
    crc = table[(crc ^ static_cast<unsigned char>(byte)) & 0xFFU] ^ (crc >> 8U);
  }
  return ~crc;
}

}  // namespace petstore::adapters::storage::lmdb

#pragma once
// crc32c (Castagnoli): the check each pet record carries, so that a read trusts the bytes this
// store wrote without validating them again. SSE 4.2's crc32 instruction where the CPU has it, a
// table otherwise; both give the same value.

#include <cstdint>
#include <cstring>
#include <string_view>

namespace petstore::adapters::storage::lmdb {

// crc32c: the CRC-32C of `bytes`; crc32c("123456789") == 0xE3069283.
[[nodiscard]] std::uint32_t crc32c(std::string_view bytes) noexcept;

// Crc32c: a function computing crc32c. crc32c_for_this_cpu: the one crc32c uses on this CPU,
// asked once (a page's loop calls crc32c_hardware inline instead, where the CPU has it).
using Crc32c = std::uint32_t (*)(std::string_view bytes) noexcept;
[[nodiscard]] Crc32c crc32c_for_this_cpu() noexcept;

#if defined(__x86_64__)
// crc32c_hardware: crc32c by SSE 4.2's crc32 instruction, 8 bytes a step, then 4, 2 and 1. Inline
// assembly needs no target attribute, which would keep it from inlining into a page's loop.
// REQUIRES: crc32c_has_hardware().
[[nodiscard]] inline std::uint32_t crc32c_hardware(std::string_view bytes) noexcept {
  const char* at = bytes.data();
  std::size_t left = bytes.size();
  std::uint64_t wide = ~0U;
  for (; left >= sizeof(std::uint64_t); left -= sizeof(std::uint64_t)) {
    std::uint64_t word = 0;
    std::memcpy(&word, at, sizeof(word));  // little-endian, as the CRC wants
    asm("crc32q %1, %0" : "+r"(wide) : "rm"(word));
    at += sizeof(word);
  }
  auto narrow = static_cast<std::uint32_t>(wide);
  if (left >= sizeof(std::uint32_t)) {
    std::uint32_t word = 0;
    std::memcpy(&word, at, sizeof(word));
    asm("crc32l %1, %0" : "+r"(narrow) : "rm"(word));
    at += sizeof(word);
    left -= sizeof(word);
  }
  if (left >= sizeof(std::uint16_t)) {
    std::uint16_t word = 0;
    std::memcpy(&word, at, sizeof(word));
    asm("crc32w %1, %0" : "+r"(narrow) : "rm"(word));
    at += sizeof(word);
    left -= sizeof(word);
  }
  if (left != 0) {
    const auto byte = static_cast<std::uint8_t>(*at);
    asm("crc32b %1, %0" : "+r"(narrow) : "rm"(byte));
  }
  return ~narrow;
}
#endif

// crc32c_has_hardware: whether this CPU runs crc32c_hardware (SSE 4.2), asked once.
[[nodiscard]] bool crc32c_has_hardware() noexcept;

// crc32c_portable: the same value from the table alone (what CPUs without SSE 4.2 run).
[[nodiscard]] std::uint32_t crc32c_portable(std::string_view bytes) noexcept;

}  // namespace petstore::adapters::storage::lmdb

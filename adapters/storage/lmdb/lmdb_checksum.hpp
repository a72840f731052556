#pragma once
// crc32c (Castagnoli, as in iSCSI and ext4): the integrity check each pet record carries, so that
// a read trusts bytes this store wrote without validating them again and still detects damage.
// SSE 4.2's crc32 instruction where the CPU has it (8 bytes a step), a table otherwise; both give
// the same value.

#include <cstdint>
#include <string_view>

namespace petstore::adapters::storage::lmdb {

// crc32c: the CRC-32C of `bytes`; crc32c("123456789") == 0xE3069283.
[[nodiscard]] std::uint32_t crc32c(std::string_view bytes) noexcept;

// Crc32c: a function computing crc32c. crc32c_for_this_cpu: the one crc32c uses on this CPU, so
// that a loop over many records asks once which it is and calls it directly.
using Crc32c = std::uint32_t (*)(std::string_view bytes) noexcept;
[[nodiscard]] Crc32c crc32c_for_this_cpu() noexcept;

// crc32c_portable: the same value from the table alone (what CPUs without SSE 4.2 run); for tests.
[[nodiscard]] std::uint32_t crc32c_portable(std::string_view bytes) noexcept;

}  // namespace petstore::adapters::storage::lmdb

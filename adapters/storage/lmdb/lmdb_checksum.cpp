#include "adapters/storage/lmdb/lmdb_checksum.hpp"

#include <boost/crc.hpp>

namespace petstore::adapters::storage::lmdb {
namespace {

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
  boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true> crc;  // Castagnoli
  crc.process_bytes(bytes.data(), bytes.size());
  return crc.checksum();
}

}  // namespace petstore::adapters::storage::lmdb

#pragma once
// StorageKind: where pets are kept (--storage). The command line's word becomes the kind once
// (word_flag.hpp); everything after compares kinds, never words.

#include <string_view>

namespace petstore::bootstrap {

enum class StorageKind { memory, lmdb, postgres };

[[nodiscard]] constexpr std::string_view storage_name(StorageKind kind) {
  switch (kind) {
    case StorageKind::memory:
      return "memory";
    case StorageKind::postgres:
      return "postgres";
    case StorageKind::lmdb:
      break;
  }
  return "lmdb";
}

}  // namespace petstore::bootstrap

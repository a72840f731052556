#pragma once
// What the data tools `petstore export`, `import` and `backup` are told on the command line
// (contract section 7). No flag of theirs reads the environment: the store they act on is
// always named on the command line, never picked up from a forgotten PETSTORE_DATA_DIR.

#include <filesystem>
#include <optional>
#include <string>

#include "bootstrap/storage_kind.hpp"

namespace petstore::bootstrap {

// StoreOptions: the store a data tool acts on.
struct StoreOptions {
  StorageKind storage = StorageKind::lmdb;
  std::filesystem::path data_dir;  // lmdb
  std::string database_url{};      // postgres: a libpq connection string or URI
};

struct ExportOptions {
  StoreOptions store;
  std::optional<std::filesystem::path> out;  // standard output when absent or "-"
};

struct ImportOptions {
  StoreOptions store;
  std::optional<std::filesystem::path> in;  // standard input when absent or "-"
};

struct BackupOptions {
  StoreOptions store;
  std::filesystem::path out;
};

}  // namespace petstore::bootstrap

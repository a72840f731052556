#pragma once
// `petstore backup` (contract section 7), a feature of LMDB alone: a compacting copy of a store a
// running service may be writing to. Export and import work on any backend (ports::PetArchive).

#include <cstdint>
#include <filesystem>

#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::storage::lmdb {

struct BackupReport {
  std::uintmax_t bytes = 0;  // size of the copy's data.mdb
};

// backup_lmdb_store: writes a consistent, compacted copy of the store in `options.data_dir` to
// `out_dir`/data.mdb (mode 0600, synced), which a service can open as its data dir. `out_dir`
// must be missing (it is created, mode 0700; its parent must exist) or an empty directory:
// invalid_argument otherwise. The data dir must exist and hold a store (unavailable otherwise: a
// mistyped path never creates an empty store). On failure nothing is left in `out_dir` (and a
// dir it created is removed).
[[nodiscard]] domain::Result<BackupReport> backup_lmdb_store(const LmdbOptions& options,
                                                             const std::filesystem::path& out_dir);

}  // namespace petstore::adapters::storage::lmdb

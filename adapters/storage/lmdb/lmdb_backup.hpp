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

// backup_lmdb_store: a consistent, compacted copy of the store in `options.data_dir` as
// `out_dir`/data.mdb (mode 0600, synced), which a service can open as its data dir. `out_dir` must
// be missing (created 0700 in an existing parent) or empty, else invalid_argument; a data dir
// holding no store is unavailable, never created. On failure `out_dir` is left as it was found.
[[nodiscard]] domain::Result<BackupReport> backup_lmdb_store(const LmdbOptions& options,
                                                             const std::filesystem::path& out_dir);

}  // namespace petstore::adapters::storage::lmdb

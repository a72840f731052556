#pragma once
// The LMDB data tools, also on a store a running service uses
// (docs/decisions/lmdb-two-processes.md): the PetArchive (export, import; a read is one read
// transaction, a write one write), and `petstore backup` (contract section 7), a feature of LMDB
// alone: a compacting copy. Export and import work on any backend (ports::PetArchive).

#include <cstdint>
#include <filesystem>
#include <memory>

#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "domain/error.hpp"
#include "ports/pet_archive.hpp"

namespace petstore::adapters::storage::lmdb {

// make_lmdb_pet_archive: the archive of the store in `options.data_dir`. Each call opens the store
// and closes it, so that a refused import leaves no trace and the archive never holds a second
// handle on an environment this process has open (LMDB forbids it). read_all needs an existing
// store (else unavailable); write_all creates one.
[[nodiscard]] std::unique_ptr<ports::PetArchive> make_lmdb_pet_archive(LmdbOptions options);

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

#pragma once
// The data tools of contract section 7 on an LMDB store, which a running service may be using at
// the same time (LMDB is multi-process; see lmdb_pet_repository.hpp). They deal in domain pets
// only; the file format is the caller's. Each comes twice: on a data dir (what the commands use)
// and on an open Store (so one process can back up the store it is writing to).
//   export: every pet in id order, from one read transaction (a consistent snapshot).
//   import: pets with their own ids, all or nothing, in one write transaction.
//   backup: LMDB's compacting copy into a new or empty directory.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>

#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "domain/error.hpp"
#include "domain/pet.hpp"

namespace petstore::adapters {

// PetSink: receives each exported pet in ascending id; returns false to stop the export.
using PetSink = std::function<bool(const domain::Pet&)>;

// ImportCallbacks: optional observers of an import.
struct ImportCallbacks {
  // progress: how many pets are written so far, every few thousand and at the end. Starts again
  // from 0 when the transaction is retried after growing the map.
  std::function<void(std::size_t written)> progress;
  // conflict: the index in `pets` of a pet whose id is already stored, just before the import
  // fails with conflict (so the caller can say where that pet came from).
  std::function<void(std::size_t index)> conflict;
};

struct ExportReport {
  std::size_t pets = 0;  // pets handed to the sink
  bool complete = true;  // false when the sink stopped the export
};

struct ImportReport {
  std::size_t pets = 0;
  std::uint64_t next_id = 0;  // the id the store's next create gets (2^63: none left)
};

struct BackupReport {
  std::uintmax_t bytes = 0;  // size of the copy's data.mdb
};

// export_lmdb_pets: hands every pet of the store in `options.data_dir` to `sink`. The data dir
// must exist and hold a store (unavailable otherwise: a mistyped path never creates an empty
// store); internal for a damaged record.
[[nodiscard]] domain::Result<ExportReport> export_lmdb_pets(const LmdbOptions& options,
                                                            const PetSink& sink);

// import_lmdb_pets: stores `pets`, each under its own id, with its status index entry, and sets
// meta.next_id to max(next_id, highest imported id + 1), all in one write transaction, so a
// service on the same store never sees half an import and its next create gets a higher id.
// Creates the store when the data dir holds none. REQUIRES: ids unique within `pets`.
// Errors: invalid_argument (field "id") for an id below 1; conflict (field "id", message
// "id N is already in the store") when a pet with that id exists: an import never overwrites;
// unavailable/internal from storage. On any error nothing is stored.
[[nodiscard]] domain::Result<ImportReport> import_lmdb_pets(const LmdbOptions& options,
                                                            std::span<const domain::Pet> pets,
                                                            const ImportCallbacks& callbacks = {});

// backup_lmdb_store: writes a consistent, compacted copy of the store in `options.data_dir` to
// `out_dir`/data.mdb (mode 0600, synced), which a service can open as its data dir. `out_dir`
// must be missing (it is created, mode 0700; its parent must exist) or an empty directory:
// invalid_argument otherwise. The data dir must hold a store, as for export. On failure nothing
// is left in `out_dir` (and a dir it created is removed).
[[nodiscard]] domain::Result<BackupReport> backup_lmdb_store(const LmdbOptions& options,
                                                             const std::filesystem::path& out_dir);

namespace lmdb_storage {

class Store;

// The same three on an open store. The data-dir forms open a Store and call these.
[[nodiscard]] domain::Result<ExportReport> export_pets(const Store& store, const PetSink& sink);
[[nodiscard]] domain::Result<ImportReport> import_pets(Store& store,
                                                       std::span<const domain::Pet> pets,
                                                       const ImportCallbacks& callbacks = {});
[[nodiscard]] domain::Result<BackupReport> backup_store(const Store& store,
                                                        const std::filesystem::path& out_dir);

// check_import_ids: invalid_argument (field "id") when a pet's id is below 1.
[[nodiscard]] domain::Result<void> check_import_ids(std::span<const domain::Pet> pets);

}  // namespace lmdb_storage
}  // namespace petstore::adapters

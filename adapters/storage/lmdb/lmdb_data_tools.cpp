// The data-dir forms of the data tools: open the Store (an existing one for export and backup),
// then run the Store forms.

#include "adapters/storage/lmdb/lmdb_data_tools.hpp"

#include <system_error>

#include "adapters/storage/lmdb/lmdb_data_dir.hpp"
#include "adapters/storage/lmdb/lmdb_store.hpp"

namespace petstore::adapters {
namespace {

namespace fs = std::filesystem;
using lmdb_storage::data_dir_error;
using lmdb_storage::Store;

// open_existing: the store in the data dir, refusing a dir that is missing or holds no store, so
// that a mistyped --data-dir is reported instead of silently creating an empty store.
domain::Result<std::unique_ptr<Store>> open_existing(const LmdbOptions& options) {
  const fs::path& dir = options.data_dir;
  if (!dir.empty()) {
    std::error_code ec;
    const auto status = fs::status(dir, ec);
    if (status.type() == fs::file_type::not_found) {
      return data_dir_error(dir, lmdb_storage::dangling_link(dir).value_or("does not exist"));
    }
    if (ec) {
      return data_dir_error(dir, "cannot be inspected: " + ec.message());
    }
    if (!fs::is_directory(status)) {
      return data_dir_error(dir, "is not a directory");
    }
    if (!fs::is_regular_file(dir / "data.mdb", ec)) {
      return data_dir_error(dir, "holds no store (no data.mdb)");
    }
  }
  return Store::open(options);
}

}  // namespace

domain::Result<ExportReport> export_lmdb_pets(const LmdbOptions& options, const PetSink& sink) {
  auto store = open_existing(options);
  if (!store) {
    return store.error();
  }
  return lmdb_storage::export_pets(**store, sink);
}

domain::Result<ImportReport> import_lmdb_pets(const LmdbOptions& options,
                                              std::span<const domain::Pet> pets,
                                              const ImportCallbacks& callbacks) {
  if (auto checked = lmdb_storage::check_import_ids(pets); !checked) {
    return checked.error();  // before the store is opened, or created
  }
  auto store = Store::open(options);
  if (!store) {
    return store.error();
  }
  return lmdb_storage::import_pets(**store, pets, callbacks);
}

domain::Result<BackupReport> backup_lmdb_store(const LmdbOptions& options,
                                               const fs::path& out_dir) {
  auto store = open_existing(options);
  if (!store) {
    return store.error();
  }
  return lmdb_storage::backup_store(**store, out_dir);
}

}  // namespace petstore::adapters

#pragma once
// Store: one open LMDB environment with the adapter's databases, and the only code that begins
// and ends transactions. It owns the map's size: every transaction of this process holds
// `map_mutex_` shared, and resizing the map (ours when full, or adopting another process's
// growth) holds it exclusive, as mdb_env_set_mapsize requires. ::lmdb::error stops here.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>

#include <lmdb.h>

#include "adapters/storage/lmdb/lmdb_backup.hpp"
#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::storage::lmdb {

struct Databases {
  MDB_dbi pets = 0;
  MDB_dbi pets_by_status = 0;
  MDB_dbi meta = 0;
  MDB_dbi idempotency = 0;
  MDB_dbi idempotency_by_time = 0;
};

class Store {
 public:
  // TxnWork: runs inside a transaction; may throw ::lmdb::error, which the Store maps.
  using TxnWork = std::function<void(MDB_txn*)>;

  // open: prepares the data dir, opens the env, clears stale readers and checks (or, on an
  // empty env, writes) the schema version.
  [[nodiscard]] static domain::Result<std::unique_ptr<Store>> open(const LmdbOptions& options);

  // open_existing: open, refusing a data dir that is missing or holds no store (unavailable), so
  // that a tool given a mistyped --data-dir reports it instead of creating an empty store.
  [[nodiscard]] static domain::Result<std::unique_ptr<Store>> open_existing(
      const LmdbOptions& options);

  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  ~Store();

  [[nodiscard]] const Databases& databases() const noexcept { return dbs_; }

  // read: runs `work` in a read-only transaction.
  [[nodiscard]] domain::Result<void> read(const TxnWork& work) const;

  // write: runs `work` in a write transaction and commits it (synced). When the map is full it
  // aborts, grows the map and runs `work` again, so `work` must only depend on the transaction.
  [[nodiscard]] domain::Result<void> write(const TxnWork& work);

  // read_value: `work`'s result from a read-only transaction.
  template <class T>
  [[nodiscard]] domain::Result<T> read_value(
      const std::function<domain::Result<T>(MDB_txn*)>& work) const {
    std::optional<domain::Result<T>> out;
    if (auto done = read([&](MDB_txn* txn) { out.emplace(work(txn)); }); !done) {
      return done.error();
    }
    return std::move(*out);
  }

 private:
  Store(MDB_env* env, const LmdbOptions& options) : env_(env), options_(options) {}

  // check_schema: checks the schema version, migrating an older store forward; a migration that
  // fills the map grows it and starts over.
  [[nodiscard]] domain::Result<void> check_schema();
  // check_schema_once: one try of it, in one write transaction; may throw ::lmdb::error.
  [[nodiscard]] domain::Result<void> check_schema_once();
  // begin: a transaction; adopts another process's larger map when LMDB reports it.
  [[nodiscard]] MDB_txn* begin(unsigned int flags, std::shared_lock<std::shared_mutex>& lock) const;
  void adopt_map_size() const;
  [[nodiscard]] bool grow_map();

  MDB_env* env_;
  LmdbOptions options_;
  Databases dbs_;
  mutable std::shared_mutex map_mutex_;
};

// backup_store: backup_lmdb_store on an open store (lmdb_backup.cpp), so that a process can back
// up the store it is writing to.
[[nodiscard]] domain::Result<BackupReport> backup_store(const Store& store,
                                                        const std::filesystem::path& out_dir);

}  // namespace petstore::adapters::storage::lmdb

#pragma once
// Store: one open LMDB environment with the adapter's databases; the only code that begins and
// ends transactions, and ::lmdb::error stops here. Every transaction of this process holds
// `map_mutex_` shared; a resize (ours, or adopting another process's growth) holds it exclusive
// and first resets the kept serving reads, as mdb_env_set_mapsize requires.

#include <atomic>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <type_traits>
#include <vector>

#include <lmdb.h>

#include "adapters/storage/lmdb/lmdb_backup.hpp"
#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "adapters/storage/lmdb/lmdb_read_txn.hpp"
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
  // Served: what serve returns for `Work` (domain::Result<void> for a `Work` returning nothing).
  template <class Work>
  using Served = std::conditional_t<std::is_void_v<std::invoke_result_t<Work&, ReadTxn&>>,
                                    domain::Result<void>, std::invoke_result_t<Work&, ReadTxn&>>;

  // open: prepares the data dir, opens the env, clears stale readers and checks the schema.
  [[nodiscard]] static domain::Result<std::unique_ptr<Store>> open(const LmdbOptions& options);

  // open_existing: open, refusing a data dir that is missing or holds no store (unavailable), so
  // that a tool given a mistyped --data-dir reports it instead of creating an empty store.
  [[nodiscard]] static domain::Result<std::unique_ptr<Store>> open_existing(
      const LmdbOptions& options);

  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  ~Store();

  [[nodiscard]] const Databases& databases() const noexcept { return dbs_; }

  // read: runs `work` in a read-only transaction of its own (export, backup: long reads).
  [[nodiscard]] domain::Result<void> read(const TxnWork& work) const;

  // serve: runs `work` in a kept read-only transaction (renewed when a newer commit exists, so it
  // sees every commit made before this call) or a new one, then keeps it for the next read
  // (docs/decisions/lmdb-kept-snapshots.md); unavailable when the reader table is full. A
  // template, so that a page's work inlines: serving reads are the hot path.
  template <class Work>
  [[nodiscard]] Served<Work> serve(Work&& work) const {
    try {
      Lease lease(*this);
      if constexpr (std::is_void_v<std::invoke_result_t<Work&, ReadTxn&>>) {
        work(lease.read());
        lease.keep();
        return {};
      } else {
        auto out = work(lease.read());
        lease.keep();
        return out;
      }
    } catch (const std::exception& e) {
      return serving_failure(e);
    }
  }

  // release_stale_reads: resets the kept transactions that another process's commit made stale:
  // left live, a quiet process would hold back every page freed since, and the file would grow
  // without bound. The repository's writer calls it when idle.
  void release_stale_reads() const noexcept;

  // max_idle_reads: how many idle serving transactions (each holding a reader slot) are kept.
  [[nodiscard]] std::size_t max_idle_reads() const noexcept;

  // write: runs `work` in a write transaction and commits it (synced). When the map is full it
  // aborts, grows the map and runs `work` again, so `work` must only depend on the transaction.
  [[nodiscard]] domain::Result<void> write(const TxnWork& work);

 private:
  Store(MDB_env* env, const LmdbOptions& options)
      : env_(env), options_(options), idle_reads_(max_idle_reads()) {}

  // check_schema: checks the schema version, migrating an older store forward (growing the map
  // when the migration fills it).
  [[nodiscard]] domain::Result<void> check_schema();
  // check_schema_once: one try of it, in one write transaction; may throw ::lmdb::error.
  [[nodiscard]] domain::Result<void> check_schema_once();
  // begin: a transaction; adopts another process's larger map when LMDB reports it.
  [[nodiscard]] MDB_txn* begin(unsigned int flags, std::shared_lock<std::shared_mutex>& lock) const;
  void adopt_map_size() const;
  // Lease: one serving read's hold of a live ReadTxn, taken when built (`map_mutex_` shared from
  // then on) and kept for the next read by keep(); left without keep() (an exception in the work)
  // its transaction is aborted, its state unknown, before the lock is released.
  class Lease {
   public:
    explicit Lease(const Store& store) : store_(store), read_(store.take_read(lock_)) {}
    [[nodiscard]] ReadTxn& read() const noexcept { return *read_; }
    void keep() { store_.keep_read(std::move(read_)); }  // under the lock: see keep_read

   private:
    const Store& store_;
    std::shared_lock<std::shared_mutex> lock_;
    std::unique_ptr<ReadTxn> read_;  // after lock_, so that it ends first
  };

  // serving_failure: the error a serving read's exception gives (storage_error for LMDB's).
  [[nodiscard]] static domain::Error serving_failure(const std::exception& e);
  // newest_commit: the id of the newest commit of any process, from the meta pages (no lock).
  [[nodiscard]] std::uint64_t newest_commit() const noexcept;
  // take_read: a live serving transaction (kept, renewed or begun), `lock` held; may throw.
  [[nodiscard]] std::unique_ptr<ReadTxn> take_read(std::shared_lock<std::shared_mutex>& lock) const;
  // keep_read: keeps a serving transaction for the next, or drops it (freeing its slot).
  // REQUIRES: map_mutex_ held (shared), so that a resize finds every live one kept and resets it.
  void keep_read(std::unique_ptr<ReadTxn> read) const noexcept;
  // reset_kept_reads: resets the kept serving transactions (`only_stale`: those not on the newest
  // commit), after a commit and before a resize. REQUIRES: map_mutex_ held.
  void reset_kept_reads(bool only_stale = false) const noexcept;
  [[nodiscard]] bool grow_map();

  MDB_env* env_;
  LmdbOptions options_;
  Databases dbs_;
  mutable std::shared_mutex map_mutex_;
  // The kept serving transactions, owned here while idle (null: a free place). Taken by exchange
  // and given back by compare-exchange, so that serving threads share no lock.
  mutable std::vector<std::atomic<ReadTxn*>> idle_reads_;
};

// backup_store: backup_lmdb_store on an open store, so that a process can back up its own store.
[[nodiscard]] domain::Result<BackupReport> backup_store(const Store& store,
                                                        const std::filesystem::path& out_dir);

}  // namespace petstore::adapters::storage::lmdb

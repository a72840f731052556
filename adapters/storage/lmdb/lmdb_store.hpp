#pragma once
// Store: one open LMDB environment with the adapter's databases; the only code that begins and
// ends transactions, and ::lmdb::error stops here. Every transaction of this process holds
// `map_mutex_` shared; a resize (ours, or adopting another process's growth) holds it exclusive
// and first resets the kept serving reads, as mdb_env_set_mapsize requires. Above it ReadTxn, a
// kept serving read; below it, the reads and the batch of creates that run in its transactions.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <type_traits>
#include <vector>

#include <lmdb.h>

#include "adapters/storage/lmdb/lmdb_pet_archive.hpp"
#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "adapters/storage/lmdb/lmdb_txn.hpp"
#include "domain/error.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::lmdb {

// ReadTxn: a read-only transaction kept live between serving reads, with its cursors, and renewed
// once a newer commit exists (docs/decisions/lmdb-kept-snapshots.md). Under MDB_NOTLS a reset
// transaction keeps its reader slot, so a renew allocates nothing.
class ReadTxn {
 public:
  // REQUIRES: `txn` is a read-only transaction, just begun.
  explicit ReadTxn(AbortGuard txn) noexcept : txn_(std::move(txn)) {}
  ReadTxn(const ReadTxn&) = delete;
  ReadTxn& operator=(const ReadTxn&) = delete;
  // Closes the cursors; then txn_ aborts the transaction.
  ~ReadTxn();

  [[nodiscard]] MDB_txn* txn() const noexcept { return txn_.get(); }

  // cursor: this transaction's cursor on `dbi`, valid until reset; may throw ::lmdb::error.
  // REQUIRES: the transaction is live; at most `max_cursors` databases are asked for.
  [[nodiscard]] MDB_cursor* cursor(MDB_dbi dbi);

  // live: whether it holds a snapshot (begun or renewed, not reset since).
  [[nodiscard]] bool live() const noexcept { return live_; }

  // snapshot: the id of the commit a live transaction reads.
  [[nodiscard]] std::uint64_t snapshot() const noexcept { return ::mdb_txn_id(txn_.get()); }

  // renew: makes a reset transaction live again, on the newest committed snapshot; LMDB's rc.
  // A failed renew leaves it reset (MDB_MAP_RESIZED: the caller adopts the map and renews again).
  [[nodiscard]] int renew() noexcept;

  // reset: ends the snapshot (old pages may be reused by writers from here on) and keeps the slot;
  // nothing when it is not live.
  void reset() noexcept;

  static constexpr std::size_t max_cursors = 2;  // pets and pets_by_status

 private:
  struct Cursor {
    MDB_cursor* cursor = nullptr;
    MDB_dbi dbi = 0;
    bool current = false;  // renewed (or opened) in the transaction's current snapshot
  };

  AbortGuard txn_;
  bool live_ = true;
  std::array<Cursor, max_cursors> cursors_{};
};

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
      return failure(e);
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

  // failure: the error a read's exception gives (storage_error for LMDB's).
  [[nodiscard]] static domain::Error failure(const std::exception& e);
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

// next_pet_id: the id the next create gets: the highest stored id + 1 (2^63 when INT64_MAX is
// stored: none is left), or the first id of an empty store; may throw ::lmdb::error. Pets are
// never deleted, so this only grows, and inside a write transaction no other writer can move it.
[[nodiscard]] std::uint64_t next_pet_id(MDB_txn* txn, const Databases& dbs);

// read_pet: the pet with `id`, not_found when none; may throw ::lmdb::error.
[[nodiscard]] domain::Result<domain::Pet> read_pet(MDB_txn* txn, const Databases& dbs,
                                                   domain::PetId id);

// read_page: the page `query` describes, on `read`'s cursors; may throw ::lmdb::error. A filtered
// page walks the (status, id) index (docs/decisions/lmdb-filtered-pages.md).
[[nodiscard]] domain::Result<ports::PetPage> read_page(ReadTxn& read, const Databases& dbs,
                                                       const ports::PetQuery& query);

struct PendingCreate {
  ports::CreatePetCommand command;
  ports::PetRepository::CreateDone done;
};

// commit_creates: one result per create of `batch`, in order, in one write transaction (one
// sync), committed and synced when successful. Ids follow the highest stored id, read inside the
// transaction, so several processes on one store assign unique ids
// (docs/decisions/lmdb-two-processes.md). A create that fails alone (a damaged record) writes
// nothing; a failed commit gives every create its error and stores nothing
// (docs/decisions/lmdb-failed-commit.md).
[[nodiscard]] std::vector<domain::Result<ports::CreateOutcome>> commit_creates(
    Store& store, const std::vector<PendingCreate>& batch);

}  // namespace petstore::adapters::storage::lmdb

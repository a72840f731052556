#pragma once
// ReadTxn: a read-only transaction kept live between serving reads, with its cursors, and renewed
// once a newer commit exists (docs/decisions/lmdb-kept-snapshots.md). Under MDB_NOTLS a reset
// transaction keeps its reader slot, so a renew allocates nothing.

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include <lmdb.h>

#include "adapters/storage/lmdb/lmdb_txn.hpp"

namespace petstore::adapters::storage::lmdb {

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

}  // namespace petstore::adapters::storage::lmdb

#pragma once
// Helpers for raw LMDB transactions. lmdb++'s txn is not used for writes: when mdb_txn_commit
// fails, its commit() keeps the freed handle, and its destructor would abort it a second time.

#include <memory>
#include <string>
#include <string_view>

#include <lmdb++.h>
#include <lmdb.h>

#include "domain/error.hpp"

namespace petstore::adapters::storage::lmdb {

// TxnAbort: ends a transaction by aborting it (also a read-only one, which frees its reader slot).
struct TxnAbort {
  void operator()(MDB_txn* txn) const noexcept { ::mdb_txn_abort(txn); }
};
// AbortGuard: owns a transaction and aborts it when left without a commit, by an exception or
// not; commit() hands it to mdb_txn_commit, which frees it whether it succeeds or not.
using AbortGuard = std::unique_ptr<MDB_txn, TxnAbort>;

inline void check(int rc, const char* origin) {
  if (rc != MDB_SUCCESS) {
    ::lmdb::error::raise(origin, rc);
  }
}

// commit: commits (and syncs) the guarded transaction; raises ::lmdb::error when it fails.
inline void commit(AbortGuard& guard) {
  check(::mdb_txn_commit(guard.release()), "mdb_txn_commit");
}

// view: the bytes an LMDB value points at, valid while its transaction is.
inline std::string_view view(const ::lmdb::val& value) { return {value.data(), value.size()}; }
inline std::string_view view(const MDB_val& value) {
  return {static_cast<const char*>(value.mv_data), value.mv_size};
}

// put: stores `value` under `key`; false when `flags` (MDB_NOOVERWRITE, MDB_APPEND) refuse it.
inline bool put(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value,
                unsigned int flags = 0) {
  ::lmdb::val k{key.data(), key.size()};
  ::lmdb::val v{value.data(), value.size()};
  return ::lmdb::dbi_put(txn, dbi, k, v, flags);
}

// storage_error: an LMDB failure after open, in words without internals; `detail` (for the log)
// names the failed call and LMDB's own words.
[[nodiscard]] domain::Error storage_error(int rc, std::string detail = {});

}  // namespace petstore::adapters::storage::lmdb

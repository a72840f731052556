#include "adapters/storage/lmdb/lmdb_read_txn.hpp"

#include <cerrno>

#include "adapters/storage/lmdb/lmdb_txn.hpp"

namespace petstore::adapters::storage::lmdb {

ReadTxn::~ReadTxn() {
  for (const Cursor& cursor : cursors_) {
    if (cursor.cursor != nullptr) {
      ::mdb_cursor_close(cursor.cursor);  // a read-only transaction never frees its cursors
    }
  }
  ::mdb_txn_abort(txn_);  // also of a reset transaction: it releases the reader slot
}

MDB_cursor* ReadTxn::cursor(MDB_dbi dbi) {
  for (Cursor& cursor : cursors_) {
    if (cursor.cursor != nullptr && cursor.dbi == dbi) {
      if (!cursor.current) {
        check(::mdb_cursor_renew(txn_, cursor.cursor), "mdb_cursor_renew");
        cursor.current = true;
      }
      return cursor.cursor;
    }
    if (cursor.cursor == nullptr) {
      check(::mdb_cursor_open(txn_, dbi, &cursor.cursor), "mdb_cursor_open");
      cursor.dbi = dbi;
      cursor.current = true;
      return cursor.cursor;
    }
  }
  ::lmdb::error::raise("ReadTxn::cursor", EINVAL);  // more databases than max_cursors: a bug
}

int ReadTxn::renew() noexcept {
  const int rc = ::mdb_txn_renew(txn_);
  live_ = rc == MDB_SUCCESS;
  return rc;
}

void ReadTxn::reset() noexcept {
  if (!live_) {
    return;
  }
  live_ = false;
  ::mdb_txn_reset(txn_);
  for (Cursor& cursor : cursors_) {
    cursor.current = false;
  }
}

}  // namespace petstore::adapters::storage::lmdb

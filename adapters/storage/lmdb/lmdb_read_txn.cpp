#include "adapters/storage/lmdb/lmdb_read_txn.hpp"

#include <cerrno>

namespace petstore::adapters::storage::lmdb {

ReadTxn::~ReadTxn() {
  for (const Cursor& cursor : cursors_) {
    if (cursor.cursor != nullptr) {
      ::mdb_cursor_close(cursor.cursor);  // a read-only transaction never frees its cursors
    }
  }
}

MDB_cursor* ReadTxn::cursor(MDB_dbi dbi) {
  for (Cursor& cursor : cursors_) {
    if (cursor.cursor != nullptr && cursor.dbi == dbi) {
      if (!cursor.current) {
        check(::mdb_cursor_renew(txn_.get(), cursor.cursor), "mdb_cursor_renew");
        cursor.current = true;
      }
      return cursor.cursor;
    }
    if (cursor.cursor == nullptr) {
      check(::mdb_cursor_open(txn_.get(), dbi, &cursor.cursor), "mdb_cursor_open");
      cursor.dbi = dbi;
      cursor.current = true;
      return cursor.cursor;
    }
  }
  ::lmdb::error::raise("ReadTxn::cursor", EINVAL);  // more databases than max_cursors: a bug
}

int ReadTxn::renew() noexcept {
  const int rc = ::mdb_txn_renew(txn_.get());
  live_ = rc == MDB_SUCCESS;
  return rc;
}

void ReadTxn::reset() noexcept {
  if (!live_) {
    return;
  }
  live_ = false;
  ::mdb_txn_reset(txn_.get());
  for (Cursor& cursor : cursors_) {
    cursor.current = false;
  }
}

}  // namespace petstore::adapters::storage::lmdb

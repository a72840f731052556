#include "adapters/storage/lmdb/lmdb_migrate.hpp"

#include <string>

#include <lmdb++.h>

#include "adapters/storage/lmdb/lmdb_records.hpp"
#include "adapters/storage/lmdb/lmdb_txn.hpp"

namespace petstore::adapters::storage::lmdb {

std::size_t migrate_pets_to_v3(MDB_txn* txn, const Databases& dbs) {
  std::size_t rewritten = 0;
  auto cursor = ::lmdb::cursor::open(txn, dbs.pets);
  MDB_val key{};
  MDB_val value{};
  for (int rc = ::mdb_cursor_get(cursor.handle(), &key, &value, MDB_FIRST); rc != MDB_NOTFOUND;
       rc = ::mdb_cursor_get(cursor.handle(), &key, &value, MDB_NEXT)) {
    check(rc, "mdb_cursor_get");
    const auto pet = decode_v2_pet_record({static_cast<const char*>(value.mv_data), value.mv_size});
    if (!pet) {
      continue;  // damaged before: stays so, and is still found (format 1 is not version 3's)
    }
    // Both copied before the put: `key` and `value` point into a page that the put rewrites.
    std::string key_bytes(static_cast<const char*>(key.mv_data), key.mv_size);
    std::string record = pet_record(*pet);
    MDB_val same_key{key_bytes.size(), key_bytes.data()};
    MDB_val replacement{record.size(), record.data()};
    check(::mdb_cursor_put(cursor.handle(), &same_key, &replacement, MDB_CURRENT),
          "mdb_cursor_put");
    ++rewritten;
  }
  return rewritten;
}

}  // namespace petstore::adapters::storage::lmdb

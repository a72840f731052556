// Store::open, Store::open_existing and the schema check: what runs once, before the store serves.

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <vector>

#include "adapters/storage/lmdb/lmdb_records.hpp"
#include "adapters/storage/lmdb/lmdb_store.hpp"
#include "adapters/storage/lmdb/lmdb_txn.hpp"

namespace petstore::adapters::storage::lmdb {
namespace {

namespace fs = std::filesystem;

domain::Error data_dir_error(const fs::path& dir, const std::string& what) {
  return domain::make_error(domain::ErrorCode::unavailable, "data-dir",
                            "data dir " + dir.string() + " " + what);
}

domain::Error cannot_open(const fs::path& dir, int rc) {
  return data_dir_error(dir, std::string("cannot be opened: ") + ::mdb_strerror(rc));
}

// dangling_link: when `path` is a symbolic link to nothing, "is a symbolic link to <target>, which
// does not exist", so that an operator is not told the dir is missing or not writable.
std::optional<std::string> dangling_link(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(path, ec)) || fs::exists(path, ec)) {
    return std::nullopt;
  }
  const fs::path target = fs::read_symlink(path, ec);
  return "is a symbolic link to " + target.string() + ", which does not exist";
}

// create_private_directories: mkdir 0700 for `dir` and each missing parent (unlike
// fs::create_directories, never readable by others). A dangling symbolic link is reported as such.
domain::Result<void> create_private_directories(const fs::path& dir) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    if (auto dangling = dangling_link(p)) {
      return data_dir_error(
          dir, p == dir ? *dangling : "cannot be created: " + p.string() + " " + *dangling);
    }
    missing.push_back(p);
    if (p == p.parent_path()) {
      break;
    }
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST) {
      return data_dir_error(dir, std::string("cannot be created: ") + std::strerror(errno));
    }
  }
  return {};
}

// prepare_data_dir: makes sure the data dir exists and this process can write into it.
domain::Result<void> prepare_data_dir(const fs::path& dir) {
  if (dir.empty()) {
    return domain::make_error(domain::ErrorCode::unavailable, "data-dir", "data dir is not set");
  }
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (status.type() == fs::file_type::not_found) {
    if (auto created = create_private_directories(dir); !created) {
      return created;
    }
  } else if (ec) {
    return data_dir_error(dir, "cannot be inspected: " + ec.message());
  } else if (!fs::is_directory(status)) {
    return data_dir_error(dir, "is not a directory");
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    const int error = errno;
    if (error == EACCES || error == EPERM || error == EROFS) {
      return data_dir_error(dir, "is not writable");
    }
    return data_dir_error(dir, std::string("cannot be used: ") + std::strerror(error));
  }
  return {};
}

// The databases of schema version 1, plus headroom for the next versions' additions.
constexpr MDB_dbi max_databases = 16;

std::size_t map_size_at_open(const LmdbOptions& options) {
  // LMDB maps exactly the size it is given (if the data fits); never start below what the file
  // already holds, or the first write would have to grow the map back.
  std::error_code ec;
  const auto file_size = fs::file_size(options.data_dir / "data.mdb", ec);
  return ec ? options.initial_map_size
            : std::max(options.initial_map_size, static_cast<std::size_t>(file_size));
}

std::optional<std::uint64_t> read_u64(MDB_txn* txn, MDB_dbi dbi, std::string_view key) {
  ::lmdb::val k{key.data(), key.size()};
  ::lmdb::val v;
  if (!::lmdb::dbi_get(txn, dbi, k, v)) {
    return std::nullopt;
  }
  return decode_u64(view(v));
}

MDB_dbi open_dbi(MDB_txn* txn, const char* name, unsigned int flags) {
  MDB_dbi dbi = 0;
  ::lmdb::dbi_open(txn, name, flags, &dbi);
  return dbi;
}

// migrate_from_v1: drops version 1's next id (version 2 derives it from the pets), refusing one
// behind a stored pet as damage. Gives why the store cannot be migrated, or nothing.
std::optional<std::string> migrate_from_v1(MDB_txn* txn, const Databases& dbs) {
  const auto next_id = read_u64(txn, dbs.meta, v1_next_id_key);
  if (!next_id || *next_id == 0) {
    return "holds a damaged store (no next id)";
  }
  if (*next_id < next_pet_id(txn, dbs)) {
    return "holds a damaged store (its next id is behind a stored pet)";
  }
  ::lmdb::val key{v1_next_id_key.data(), v1_next_id_key.size()};
  ::lmdb::dbi_del(txn, dbs.meta, key);
  return std::nullopt;
}

// migrate_pets_to_v3: rewrites every format 1 pet record with a crc32c, each validated in full. A
// record that fails stays as it was, which version 3 reads as damaged. May throw ::lmdb::error
// (MDB_MAP_FULL: the caller grows the map and runs the whole check again).
void migrate_pets_to_v3(MDB_txn* txn, const Databases& dbs) {
  auto cursor = ::lmdb::cursor::open(txn, dbs.pets);
  MDB_val key{};
  MDB_val value{};
  for (int rc = ::mdb_cursor_get(cursor.handle(), &key, &value, MDB_FIRST); rc != MDB_NOTFOUND;
       rc = ::mdb_cursor_get(cursor.handle(), &key, &value, MDB_NEXT)) {
    check(rc, "mdb_cursor_get");
    const auto pet = decode_v2_pet_record(view(value));
    if (!pet) {
      continue;  // damaged before: stays so, and is still found (format 1 is not version 3's)
    }
    // Both copied before the put: `key` and `value` point into a page that the put rewrites.
    std::string key_bytes(view(key));
    std::string record = pet_record(*pet);
    MDB_val same_key{key_bytes.size(), key_bytes.data()};
    MDB_val replacement{record.size(), record.data()};
    check(::mdb_cursor_put(cursor.handle(), &same_key, &replacement, MDB_CURRENT),
          "mdb_cursor_put");
  }
}

}  // namespace

domain::Result<std::unique_ptr<Store>> Store::open(const LmdbOptions& options) {
  const fs::path& dir = options.data_dir;
  if (options.map_growth_step == 0 || options.max_batch == 0 || options.max_readers == 0) {
    return domain::make_error(
        domain::ErrorCode::invalid_argument, "lmdb-options",
        "the map growth step, the batch size and the readers must be positive");
  }
  if (auto prepared = prepare_data_dir(dir); !prepared) {
    return prepared.error();
  }
  MDB_env* env = nullptr;
  if (const int rc = ::mdb_env_create(&env); rc != MDB_SUCCESS) {
    return cannot_open(dir, rc);
  }
  std::unique_ptr<Store> store(new Store(env, options));  // closes env from here on
  int rc = ::mdb_env_set_maxdbs(env, max_databases);
  if (rc == MDB_SUCCESS) {
    rc = ::mdb_env_set_maxreaders(env, options.max_readers);
  }
  if (rc == MDB_SUCCESS) {
    rc = ::mdb_env_set_mapsize(env, map_size_at_open(options));
  }
  if (rc == MDB_SUCCESS) {
    // MDB_NOTLS: a read transaction is not tied to its thread, so any thread may run one.
    rc = ::mdb_env_open(env, dir.c_str(), MDB_NOTLS, 0600);
  }
  int stale_readers = 0;
  if (rc == MDB_SUCCESS) {
    rc = ::mdb_reader_check(env, &stale_readers);
  }
  if (rc != MDB_SUCCESS) {
    return cannot_open(dir, rc);
  }
  if (auto checked = store->check_schema(); !checked) {
    return checked.error();
  }
  return store;
}

domain::Result<std::unique_ptr<Store>> Store::open_existing(const LmdbOptions& options) {
  const fs::path& dir = options.data_dir;
  if (!dir.empty()) {
    std::error_code ec;
    const auto status = fs::status(dir, ec);
    if (status.type() == fs::file_type::not_found) {
      return data_dir_error(dir, dangling_link(dir).value_or("does not exist"));
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
  return open(options);
}

domain::Result<void> Store::check_schema() {
  for (;;) {
    try {
      return check_schema_once();
    } catch (const ::lmdb::error& e) {
      // A migration that outgrew the map: the transaction is gone, so the map may grow.
      if (e.code() == MDB_MAP_FULL && grow_map()) {
        continue;
      }
      const fs::path& dir = options_.data_dir;
      auto error = cannot_open(dir, e.code());
      if (e.code() == MDB_NOTFOUND) {
        error = data_dir_error(dir, "holds a damaged store (a database is missing)");
      }
      if (e.code() == MDB_NOTFOUND || storage_error(e.code()).code == domain::ErrorCode::internal) {
        error.code = domain::ErrorCode::internal;
      }
      return error;
    }
  }
}

domain::Result<void> Store::check_schema_once() {
  const fs::path& dir = options_.data_dir;
  MDB_txn* txn = nullptr;
  check(::mdb_txn_begin(env_, nullptr, 0, &txn), "mdb_txn_begin");
  AbortGuard guard(txn);
  MDB_dbi meta = 0;
  const int rc = ::mdb_dbi_open(txn, meta_db, 0, &meta);
  const bool fresh = rc == MDB_NOTFOUND;
  if (fresh) {
    MDB_stat main_stat{};
    check(::mdb_stat(txn, open_dbi(txn, nullptr, 0), &main_stat), "mdb_stat");
    if (main_stat.ms_entries != 0) {
      return data_dir_error(dir, "holds an LMDB store that is not a Petstore store");
    }
    meta = open_dbi(txn, meta_db, MDB_CREATE);
    put(txn, meta, schema_version_key, encode_u64(schema_version));
  } else {
    check(rc, "mdb_dbi_open");
  }
  const auto version = read_u64(txn, meta, schema_version_key);
  if (!version) {
    return data_dir_error(dir, "holds a damaged store (no schema version)");
  }
  if (*version == 0 || *version > schema_version) {  // 1 and 2: migrated below
    return data_dir_error(dir, "was written with schema version " + std::to_string(*version) +
                                   ", newer than this build's (version " +
                                   std::to_string(schema_version) + "); run a newer petstore");
  }
  const unsigned int flags = fresh ? MDB_CREATE : 0;
  dbs_ =
      Databases{open_dbi(txn, pets_db, flags), open_dbi(txn, pets_by_status_db, flags), meta,
                open_dbi(txn, idempotency_db, flags), open_dbi(txn, idempotency_by_time_db, flags)};
  if (*version == 1) {
    if (auto refused = migrate_from_v1(txn, dbs_)) {
      return data_dir_error(dir, *refused);
    }
  }
  if (*version < schema_version) {
    migrate_pets_to_v3(txn, dbs_);
    put(txn, meta, schema_version_key, encode_u64(schema_version));
  }
  commit(guard);
  return {};
}

}  // namespace petstore::adapters::storage::lmdb

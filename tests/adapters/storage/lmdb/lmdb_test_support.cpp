#include "lmdb_test_support.hpp"

#include <stdexcept>

#include <lmdb.h>

namespace petstore::tests {
namespace {

void check(int rc, const char* what) {
  if (rc != MDB_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": " + ::mdb_strerror(rc));
  }
}

}  // namespace

adapters::storage::lmdb::LmdbOptions options_for(const std::filesystem::path& dir) {
  adapters::storage::lmdb::LmdbOptions options;
  options.data_dir = dir;
  return options;
}

adapters::storage::lmdb::LmdbOptions tiny_map() {
  adapters::storage::lmdb::LmdbOptions options;
  options.initial_map_size = std::size_t{64} * 1024;
  options.map_growth_step = std::size_t{32} * 1024;
  return options;
}

std::unique_ptr<ports::PetRepository> open_repository(
    const adapters::storage::lmdb::LmdbOptions& options) {
  auto opened = adapters::storage::lmdb::make_lmdb_pet_repository(options);
  if (!opened) {
    throw std::runtime_error("cannot open the LMDB repository: " + opened.error().message);
  }
  return std::move(*opened);
}

void put_raw(const std::filesystem::path& dir, std::string_view db, std::string_view key,
             std::string_view value) {
  MDB_env* env = nullptr;
  check(::mdb_env_create(&env), "mdb_env_create");
  MDB_txn* txn = nullptr;
  try {
    check(::mdb_env_set_maxdbs(env, 16), "mdb_env_set_maxdbs");
    check(::mdb_env_open(env, dir.c_str(), 0, 0600), "mdb_env_open");
    check(::mdb_txn_begin(env, nullptr, 0, &txn), "mdb_txn_begin");
    MDB_dbi dbi = 0;
    const std::string name(db);
    check(::mdb_dbi_open(txn, db.empty() ? nullptr : name.c_str(), MDB_CREATE, &dbi),
          "mdb_dbi_open");
    MDB_val k{key.size(), const_cast<char*>(key.data())};
    MDB_val v{value.size(), const_cast<char*>(value.data())};
    check(::mdb_put(txn, dbi, &k, &v, 0), "mdb_put");
    check(::mdb_txn_commit(std::exchange(txn, nullptr)), "mdb_txn_commit");
  } catch (...) {
    if (txn != nullptr) {
      ::mdb_txn_abort(txn);
    }
    ::mdb_env_close(env);
    throw;
  }
  ::mdb_env_close(env);
}

std::size_t count_raw(const std::filesystem::path& dir, std::string_view db) {
  MDB_env* env = nullptr;
  check(::mdb_env_create(&env), "mdb_env_create");
  MDB_txn* txn = nullptr;
  MDB_stat stat{};
  try {
    check(::mdb_env_set_maxdbs(env, 16), "mdb_env_set_maxdbs");
    check(::mdb_env_open(env, dir.c_str(), MDB_RDONLY, 0600), "mdb_env_open");
    check(::mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn), "mdb_txn_begin");
    MDB_dbi dbi = 0;
    const std::string name(db);
    check(::mdb_dbi_open(txn, name.c_str(), 0, &dbi), "mdb_dbi_open");
    check(::mdb_stat(txn, dbi, &stat), "mdb_stat");
  } catch (...) {
    if (txn != nullptr) {
      ::mdb_txn_abort(txn);
    }
    ::mdb_env_close(env);
    throw;
  }
  ::mdb_txn_abort(txn);
  ::mdb_env_close(env);
  return stat.ms_entries;
}

std::string big_endian(std::uint64_t value) {
  std::string bytes(8, '\0');
  for (int i = 7; i >= 0; --i) {
    bytes[static_cast<std::size_t>(i)] = static_cast<char>(value & 0xFFU);
    value >>= 8U;
  }
  return bytes;
}

}  // namespace petstore::tests

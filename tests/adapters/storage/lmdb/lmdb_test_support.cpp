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
  put_raw_all(dir, db, {{std::string(key), std::string(value)}});
}

void put_raw_all(const std::filesystem::path& dir, std::string_view db,
                 const std::vector<std::pair<std::string, std::string>>& entries) {
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
    for (const auto& [key, value] : entries) {
      MDB_val k{key.size(), const_cast<char*>(key.data())};
      MDB_val v{value.size(), const_cast<char*>(value.data())};
      check(::mdb_put(txn, dbi, &k, &v, 0), "mdb_put");
    }
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

namespace {

// ReadOnlyEnv: the environment in a directory, opened read-only, with one read transaction.
class ReadOnlyEnv {
 public:
  explicit ReadOnlyEnv(const std::filesystem::path& dir) {
    check(::mdb_env_create(&env_), "mdb_env_create");
    try {
      check(::mdb_env_set_maxdbs(env_, 16), "mdb_env_set_maxdbs");
      check(::mdb_env_open(env_, dir.c_str(), MDB_RDONLY, 0600), "mdb_env_open");
      check(::mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn_), "mdb_txn_begin");
    } catch (...) {
      ::mdb_env_close(env_);
      throw;
    }
  }
  ReadOnlyEnv(const ReadOnlyEnv&) = delete;
  ReadOnlyEnv& operator=(const ReadOnlyEnv&) = delete;
  ~ReadOnlyEnv() {
    ::mdb_txn_abort(txn_);
    ::mdb_env_close(env_);
  }

  [[nodiscard]] MDB_txn* txn() const { return txn_; }

  [[nodiscard]] MDB_dbi open(std::string_view db) const {
    MDB_dbi dbi = 0;
    const std::string name(db);
    check(::mdb_dbi_open(txn_, name.c_str(), 0, &dbi), "mdb_dbi_open");
    return dbi;
  }

 private:
  MDB_env* env_ = nullptr;
  MDB_txn* txn_ = nullptr;
};

}  // namespace

std::size_t count_raw(const std::filesystem::path& dir, std::string_view db) {
  const ReadOnlyEnv env(dir);
  MDB_stat stat{};
  check(::mdb_stat(env.txn(), env.open(db), &stat), "mdb_stat");
  return stat.ms_entries;
}

std::optional<std::string> read_raw(const std::filesystem::path& dir, std::string_view db,
                                    std::string_view key) {
  const ReadOnlyEnv env(dir);
  MDB_val k{key.size(), const_cast<char*>(key.data())};
  MDB_val v{};
  const int rc = ::mdb_get(env.txn(), env.open(db), &k, &v);
  if (rc == MDB_NOTFOUND) {
    return std::nullopt;
  }
  check(rc, "mdb_get");
  return std::string(static_cast<const char*>(v.mv_data), v.mv_size);
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

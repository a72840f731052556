#pragma once
// Test helpers for the LMDB adapter (a data dir per test is a support/temp_dir.hpp TempDir):
// opening a repository on it (a failure fails the test), and raw LMDB access for writing what the
// adapter never would.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "support/temp_dir.hpp"

namespace petstore::tests {

// options_for: the default options with `dir` as the data dir.
[[nodiscard]] adapters::storage::lmdb::LmdbOptions options_for(const std::filesystem::path& dir);

// tiny_map: options for a map of a few pages that grows by a few pages, so that the contract
// suites meet MDB_MAP_FULL and the retry after growing the map on the way of ordinary writes.
[[nodiscard]] adapters::storage::lmdb::LmdbOptions tiny_map();

// open_repository: the repository on `options`; throws (failing the test) when it cannot open.
[[nodiscard]] std::unique_ptr<ports::PetRepository> open_repository(
    const adapters::storage::lmdb::LmdbOptions& options);

// put_raw: writes `key` = `value` into the named database (the main one when `db` is empty) of
// the LMDB environment in `dir`, which must not be open in this process.
void put_raw(const std::filesystem::path& dir, std::string_view db, std::string_view key,
             std::string_view value);

// put_raw_all: put_raw of every entry, in one transaction.
void put_raw_all(const std::filesystem::path& dir, std::string_view db,
                 const std::vector<std::pair<std::string, std::string>>& entries);

// count_raw: how many entries the named database of the environment in `dir` holds (which must
// not be open in this process).
[[nodiscard]] std::size_t count_raw(const std::filesystem::path& dir, std::string_view db);

// read_raw: the value of `key` in the named database of the environment in `dir` (which must not
// be open in this process), nullopt when there is none.
[[nodiscard]] std::optional<std::string> read_raw(const std::filesystem::path& dir,
                                                  std::string_view db, std::string_view key);

// big_endian: the 8-byte big-endian form the adapter uses for ids and meta numbers.
[[nodiscard]] std::string big_endian(std::uint64_t value);

}  // namespace petstore::tests

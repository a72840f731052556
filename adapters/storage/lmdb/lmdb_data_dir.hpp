#pragma once
// prepare_data_dir: makes sure the data dir exists (created with mode 0700, missing parents too)
// and that this process can write into it, before LMDB opens it. Its errors are one line naming
// the dir, for the operator at start-up.

#include <filesystem>
#include <optional>
#include <string>

#include "domain/error.hpp"

namespace petstore::adapters::storage::lmdb {

[[nodiscard]] domain::Result<void> prepare_data_dir(const std::filesystem::path& dir);

// dangling_link: when `path` is a symbolic link to nothing, "is a symbolic link to <target>, which
// does not exist", so that an operator is not told the dir is missing or not writable; otherwise
// nullopt.
[[nodiscard]] std::optional<std::string> dangling_link(const std::filesystem::path& path);

// data_dir_error: unavailable, field "data-dir", "data dir <dir> <what>".
[[nodiscard]] domain::Error data_dir_error(const std::filesystem::path& dir,
                                           const std::string& what);

}  // namespace petstore::adapters::storage::lmdb

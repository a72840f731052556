#include "adapters/storage/lmdb/lmdb_data_dir.hpp"

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace petstore::adapters::storage::lmdb {
namespace {

namespace fs = std::filesystem;

// create_private_directories: mkdir 0700 for `dir` and each missing parent. Unlike
// fs::create_directories, no directory is ever created readable by others. A path that is
// missing because it is a dangling symbolic link is reported as such: mkdir cannot make it.
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

}  // namespace

std::optional<std::string> dangling_link(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(path, ec)) || fs::exists(path, ec)) {
    return std::nullopt;
  }
  const fs::path target = fs::read_symlink(path, ec);
  return "is a symbolic link to " + target.string() + ", which does not exist";
}

domain::Error data_dir_error(const fs::path& dir, const std::string& what) {
  return domain::make_error(domain::ErrorCode::unavailable, "data-dir",
                            "data dir " + dir.string() + " " + what);
}

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

}  // namespace petstore::adapters::storage::lmdb

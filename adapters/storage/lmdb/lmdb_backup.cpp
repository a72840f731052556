// backup_store: mdb_env_copyfd2 with MDB_CP_COMPACT, run on the Store's own environment (LMDB
// forbids a second handle on one environment in a process), into a file this code creates,
// so that it can choose its mode and sync it.

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/storage/lmdb/lmdb_data_tools.hpp"
#include "adapters/storage/lmdb/lmdb_store.hpp"

namespace petstore::adapters::lmdb_storage {
namespace {

namespace fs = std::filesystem;

// A burst of map growth by other processes may need the copy to start over a few times.
constexpr int max_attempts = 8;

domain::Error backup_error(const fs::path& out_dir, const std::string& what,
                           domain::ErrorCode code = domain::ErrorCode::unavailable) {
  return domain::make_error(code, "out", "backup dir " + out_dir.string() + " " + what);
}

// prepare_out_dir: true when it created `out_dir`, false when it was an empty directory.
domain::Result<bool> prepare_out_dir(const fs::path& out_dir) {
  std::error_code ec;
  const auto status = fs::status(out_dir, ec);
  if (status.type() == fs::file_type::not_found) {
    if (::mkdir(out_dir.c_str(), 0700) != 0) {
      return backup_error(out_dir, std::string("cannot be created: ") + std::strerror(errno));
    }
    return true;
  }
  if (ec) {
    return backup_error(out_dir, "cannot be inspected: " + ec.message());
  }
  if (!fs::is_directory(status)) {
    return backup_error(out_dir, "is not a directory", domain::ErrorCode::invalid_argument);
  }
  if (!fs::is_empty(out_dir, ec) || ec) {
    return backup_error(out_dir, "is not empty; a backup goes into a new or empty directory",
                        domain::ErrorCode::invalid_argument);
  }
  return false;
}

bool sync_dir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return false;
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  return synced;
}

// copy_into: the compacting copy into `fd`, started over when the map grew meanwhile.
domain::Result<void> copy_into(const Store& store, int fd, const fs::path& out_dir) {
  for (int attempt = 1;; ++attempt) {
    int rc = MDB_SUCCESS;
    auto read = store.read(
        [&](MDB_txn* txn) { rc = ::mdb_env_copyfd2(::mdb_txn_env(txn), fd, MDB_CP_COMPACT); });
    if (!read) {
      return read.error();
    }
    if (rc == MDB_SUCCESS) {
      return {};
    }
    if (rc != MDB_MAP_RESIZED || attempt == max_attempts || ::ftruncate(fd, 0) != 0 ||
        ::lseek(fd, 0, SEEK_SET) != 0) {
      return backup_error(out_dir, std::string("could not be written: ") + ::mdb_strerror(rc));
    }
  }
}

}  // namespace

domain::Result<BackupReport> backup_store(const Store& store, const fs::path& out_dir) {
  auto created = prepare_out_dir(out_dir);
  if (!created) {
    return created.error();
  }
  const fs::path file = out_dir / "data.mdb";
  bool file_created = false;
  auto fail = [&](domain::Error error) -> domain::Result<BackupReport> {
    std::error_code ignored;
    if (file_created) {
      fs::remove(file, ignored);
    }
    if (*created) {
      fs::remove(out_dir, ignored);
    }
    return error;
  };
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return fail(backup_error(out_dir, std::string("cannot be written: ") + std::strerror(errno)));
  }
  file_created = true;
  auto copied = copy_into(store, fd, out_dir);
  if (copied && ::fsync(fd) != 0) {
    copied = backup_error(out_dir, std::string("could not be synced: ") + std::strerror(errno));
  }
  if (::close(fd) != 0 && copied) {
    copied = backup_error(out_dir, std::string("could not be written: ") + std::strerror(errno));
  }
  if (copied && !sync_dir(out_dir)) {
    copied = backup_error(out_dir, std::string("could not be synced: ") + std::strerror(errno));
  }
  if (!copied) {
    return fail(copied.error());
  }
  std::error_code ec;
  return BackupReport{fs::file_size(file, ec)};
}

}  // namespace petstore::adapters::lmdb_storage

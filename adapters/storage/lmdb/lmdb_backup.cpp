// The copy runs on the Store's own environment (LMDB forbids a second handle in one process), into
// a file created through adapters/files, which sets its mode and syncs it.

#include <cerrno>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/files/atomic_file_writer.hpp"
#include "adapters/storage/lmdb/lmdb_store.hpp"

namespace petstore::adapters::storage::lmdb {
namespace {

namespace fs = std::filesystem;
namespace files = adapters::files;

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

// write_copy: the compacting copy into `out_dir`/data.mdb, which appears there only once complete
// and synced; started over when the map grew meanwhile.
domain::Result<void> write_copy(const Store& store, const fs::path& out_dir) {
  auto file = files::AtomicFileWriter::create(out_dir / "data.mdb");
  if (!file) {
    return backup_error(out_dir, "cannot be written: " + file.error().message());
  }
  const int fd = file->fd();
  for (int attempt = 1;; ++attempt) {
    int rc = MDB_SUCCESS;
    auto read = store.read(
        [&](MDB_txn* txn) { rc = ::mdb_env_copyfd2(::mdb_txn_env(txn), fd, MDB_CP_COMPACT); });
    if (!read) {
      return read.error();
    }
    if (rc == MDB_SUCCESS) {
      break;
    }
    if (rc != MDB_MAP_RESIZED || attempt == max_attempts || ::ftruncate(fd, 0) != 0 ||
        ::lseek(fd, 0, SEEK_SET) != 0) {
      return backup_error(out_dir, std::string("could not be written: ") + ::mdb_strerror(rc));
    }
  }
  if (auto committed = file->commit(); !committed) {
    const bool unsynced = committed.error().step == files::FileStep::sync ||
                          committed.error().step == files::FileStep::sync_directory;
    return backup_error(out_dir, (unsynced ? "could not be synced: " : "could not be written: ") +
                                     committed.error().message());
  }
  return {};
}

}  // namespace

domain::Result<BackupReport> backup_store(const Store& store, const fs::path& out_dir) {
  auto created = prepare_out_dir(out_dir);
  if (!created) {
    return created.error();
  }
  if (auto written = write_copy(store, out_dir); !written) {
    if (*created) {
      std::error_code ignored;
      fs::remove(out_dir, ignored);
    }
    return written.error();
  }
  std::error_code ec;
  return BackupReport{fs::file_size(out_dir / "data.mdb", ec)};
}

domain::Result<BackupReport> backup_lmdb_store(const LmdbOptions& options,
                                               const std::filesystem::path& out_dir) {
  auto store = Store::open_existing(options);
  if (!store) {
    return store.error();
  }
  return backup_store(**store, out_dir);
}

}  // namespace petstore::adapters::storage::lmdb

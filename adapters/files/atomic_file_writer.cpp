#include "adapters/files/atomic_file_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace petstore::adapters::files {

FileResult<AtomicFileWriter> AtomicFileWriter::create(std::filesystem::path destination,
                                                      mode_t mode) {
  // Beside the destination, so that the rename stays within one file system.
  std::string name =
      (parent_directory(destination) / ("." + destination.filename().string() + ".XXXXXX"))
          .string();
  UniqueFd fd(::mkostemp(name.data(), O_CLOEXEC));  // mode 0600
  if (!fd.valid()) {
    return FileError{FileStep::create, errno};
  }
  if ((mode & 07777) != 0600 && ::fchmod(fd.get(), mode) != 0) {
    const int error_number = errno;
    ::unlink(name.c_str());
    return FileError{FileStep::create, error_number};
  }
  return AtomicFileWriter(std::move(fd), std::move(destination), std::filesystem::path(name));
}

AtomicFileWriter::AtomicFileWriter(UniqueFd fd, std::filesystem::path destination,
                                   std::filesystem::path temporary)
    : fd_(std::move(fd)), destination_(std::move(destination)), temporary_(std::move(temporary)) {}

AtomicFileWriter::AtomicFileWriter(AtomicFileWriter&& other) noexcept
    : fd_(std::move(other.fd_)),
      destination_(std::move(other.destination_)),
      temporary_(std::exchange(other.temporary_, {})) {}

AtomicFileWriter::~AtomicFileWriter() {
  if (!temporary_.empty()) {
    ::unlink(temporary_.c_str());
  }
}

FileResult<void> AtomicFileWriter::commit() {
  if (auto synced = sync_file(fd_.get()); !synced) {
    return synced;
  }
  // close(2) is where some file systems (NFS) report a write that failed.
  if (::close(fd_.release()) != 0) {
    return FileError{FileStep::write, errno};
  }
  if (::rename(temporary_.c_str(), destination_.c_str()) != 0) {
    return FileError{FileStep::rename, errno};
  }
  temporary_.clear();
  return sync_directory(parent_directory(destination_));
}

}  // namespace petstore::adapters::files

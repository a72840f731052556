#include "adapters/files/durable_write.hpp"

#include <cerrno>
#include <fcntl.h>
#include <system_error>
#include <unistd.h>

#include "adapters/files/unique_fd.hpp"

namespace petstore::adapters::files {

std::string FileError::message() const { return std::system_category().message(error_number); }

FileResult<void> write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t count = ::write(fd, bytes.data(), bytes.size());
    if (count < 0 && errno == EINTR) {
      continue;
    }
    if (count <= 0) {
      // write(2) returning 0 for a non-empty buffer means the device took nothing: an I/O error.
      return FileError{FileStep::write, count < 0 ? errno : EIO};
    }
    bytes.remove_prefix(static_cast<std::size_t>(count));
  }
  return {};
}

FileResult<void> sync_file(int fd) {
  if (::fsync(fd) != 0) {
    return FileError{FileStep::sync, errno};
  }
  return {};
}

FileResult<void> sync_directory(const std::filesystem::path& dir) {
  const UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid() || ::fsync(fd.get()) != 0) {
    return FileError{FileStep::sync_directory, errno};
  }
  return {};
}

std::filesystem::path parent_directory(const std::filesystem::path& file) {
  return file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
}

}  // namespace petstore::adapters::files

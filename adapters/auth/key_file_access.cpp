#include "adapters/auth/key_file_access.hpp"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#include "adapters/files/unique_fd.hpp"

namespace petstore::adapters::auth {
namespace {

domain::Error too_large(const std::filesystem::path& file) {
  static_assert(max_key_file_size % (1U << 20U) == 0, "the message says MiB");
  return domain::invalid_argument(
      "api-keys", "refusing API key file " + file.string() + ": it is larger than " +
                      std::to_string(max_key_file_size >> 20U) + " MiB");
}

domain::Error not_regular(const std::filesystem::path& file, mode_t mode) {
  const std::string_view type = S_ISFIFO(mode)   ? "a FIFO (named pipe)"
                                : S_ISCHR(mode)  ? "a character device"
                                : S_ISBLK(mode)  ? "a block device"
                                : S_ISSOCK(mode) ? "a socket"
                                : S_ISDIR(mode)  ? "a directory"
                                                 : "of another type";
  return domain::invalid_argument(
      "api-keys",
      "API key file " + file.string() + " is not a regular file: it is " + std::string(type));
}

// check_key_file_mode: the warnings for a key file with permission bits `mode` (st_mode), or
// invalid_argument (field "api-keys") when group or others may write it.
domain::Result<std::vector<std::string>> check_key_file_mode(const std::filesystem::path& file,
                                                             unsigned mode) {
  const std::string name = file.string();
  if ((mode & (S_IWGRP | S_IWOTH)) != 0U) {
    return domain::invalid_argument("api-keys", "refusing API key file " + name +
                                                    ": it is writable by group or others "
                                                    "(fix with: chmod 600 " +
                                                    name + ")");
  }
  std::vector<std::string> warnings;
  if ((mode & S_IROTH) != 0U) {
    warnings.push_back("API key file " + name + " is readable by others (fix with: chmod 600 " +
                       name + ")");
  }
  return warnings;
}

}  // namespace

domain::Error io_error(std::string_view what, const std::filesystem::path& file, int error_number) {
  return domain::make_error(domain::ErrorCode::unavailable, "api-keys",
                            std::string(what) + " " + file.string() + ": " +
                                std::system_category().message(error_number));
}

domain::Result<std::string> read_all(int fd, const std::filesystem::path& file,
                                     std::size_t expected_size) {
  constexpr std::size_t min_chunk = std::size_t{64} * 1024;
  std::string text;
  // One byte past the expected end, so that end of file is seen without growing the buffer.
  text.resize(std::min(expected_size, max_key_file_size) + 1);
  std::size_t size = 0;
  for (;;) {
    if (text.size() - size < min_chunk / 4) {
      text.resize(std::min(std::max(text.size() * 2, min_chunk), max_key_file_size + 1));
    }
    const ssize_t count = ::read(fd, text.data() + size, text.size() - size);
    if (count < 0) {
      if (errno == EINTR) {
        continue;
      }
      return io_error("cannot read", file, errno);
    }
    if (count == 0) {
      text.resize(size);
      return text;
    }
    size += static_cast<std::size_t>(count);
    if (size > max_key_file_size) {
      return too_large(file);
    }
  }
}

domain::Result<KeyFileContents> read_key_file(const std::filesystem::path& file) {
  // The type is checked before opening: opening a FIFO waits for a writer (forever, if none
  // comes), and opening a device can act on it.
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0) {
    return io_error("cannot open API key file", file, errno);
  }
  if (!S_ISREG(status.st_mode)) {
    return not_regular(file, status.st_mode);
  }
  // O_NONBLOCK in case the file was swapped for a FIFO since: open then returns at once, and
  // fstat below refuses it. On a regular file the flag changes nothing.
  const files::UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd.valid()) {
    return io_error("cannot open API key file", file, errno);
  }
  if (::fstat(fd.get(), &status) != 0) {
    return io_error("cannot inspect API key file", file, errno);
  }
  if (!S_ISREG(status.st_mode)) {
    return not_regular(file, status.st_mode);
  }
  auto warnings = check_key_file_mode(file, status.st_mode);
  if (!warnings) {
    return warnings.error();
  }
  if (status.st_size > static_cast<off_t>(max_key_file_size)) {
    return too_large(file);  // read_all checks again: the file may grow
  }
  auto text = read_all(fd.get(), file, static_cast<std::size_t>(status.st_size));
  if (!text) {
    return text.error();
  }
  return KeyFileContents{std::move(*text), std::move(*warnings)};
}

domain::Result<LockedKeyFile> lock_key_file(const std::filesystem::path& file, bool create) {
  for (;;) {
    struct stat named {};
    if (::stat(file.c_str(), &named) == 0 && !S_ISREG(named.st_mode)) {
      return not_regular(file, named.st_mode);  // before opening, as read_key_file does
    }
    const int flags = O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (create ? O_CREAT : 0);
    LockedKeyFile locked{files::UniqueFd(::open(file.c_str(), flags, 0600)), {}, {}};
    if (!locked.fd.valid()) {
      return io_error("cannot open API key file", file, errno);
    }
    int taken = 0;
    do {
      taken = ::flock(locked.fd.get(), LOCK_EX);
    } while (taken != 0 && errno == EINTR);
    if (taken != 0) {
      return io_error("cannot lock API key file", file, errno);
    }
    if (::fstat(locked.fd.get(), &locked.status) != 0) {
      return io_error("cannot inspect API key file", file, errno);
    }
    if (!S_ISREG(locked.status.st_mode)) {
      return not_regular(file, locked.status.st_mode);
    }
    if (::stat(file.c_str(), &named) != 0 || named.st_ino != locked.status.st_ino ||
        named.st_dev != locked.status.st_dev) {
      continue;  // replaced while this waited for the lock: the new file is the one to change
    }
    auto warnings = check_key_file_mode(file, locked.status.st_mode);
    if (!warnings) {
      return warnings.error();
    }
    locked.warnings = std::move(*warnings);
    return locked;
  }
}

}  // namespace petstore::adapters::auth

#include "adapters/auth/posix_file.hpp"

#include <array>
#include <cerrno>
#include <system_error>
#include <unistd.h>

namespace petstore::adapters::auth {

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

domain::Error io_error(std::string_view what, const std::filesystem::path& file, int error_number) {
  return domain::make_error(domain::ErrorCode::unavailable, "api-keys",
                            std::string(what) + " " + file.string() + ": " +
                                std::system_category().message(error_number));
}

domain::Result<std::string> read_all(int fd, const std::filesystem::path& file) {
  std::string text;
  std::array<char, 8192> buffer{};
  for (;;) {
    const ssize_t count = ::read(fd, buffer.data(), buffer.size());
    if (count < 0) {
      if (errno == EINTR) {
        continue;
      }
      return io_error("cannot read", file, errno);
    }
    if (count == 0) {
      return text;
    }
    text.append(buffer.data(), static_cast<std::size_t>(count));
  }
}

domain::Result<void> write_all(int fd, std::string_view bytes, const std::filesystem::path& file) {
  while (!bytes.empty()) {
    const ssize_t count = ::write(fd, bytes.data(), bytes.size());
    if (count < 0) {
      if (errno == EINTR) {
        continue;
      }
      return io_error("cannot write", file, errno);
    }
    bytes.remove_prefix(static_cast<std::size_t>(count));
  }
  return {};
}

}  // namespace petstore::adapters::auth

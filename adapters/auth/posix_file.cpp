#include "adapters/auth/posix_file.hpp"

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <unistd.h>

namespace petstore::adapters::auth {

domain::Error io_error(std::string_view what, const std::filesystem::path& file, int error_number) {
  return domain::make_error(domain::ErrorCode::unavailable, "api-keys",
                            std::string(what) + " " + file.string() + ": " +
                                std::system_category().message(error_number));
}

domain::Error too_large(const std::filesystem::path& file, std::size_t max_size) {
  constexpr std::size_t mebibyte = std::size_t{1024} * 1024;
  const std::string limit = max_size % mebibyte == 0 ? std::to_string(max_size / mebibyte) + " MiB"
                                                     : std::to_string(max_size) + " bytes";
  return domain::invalid_argument(
      "api-keys", "refusing API key file " + file.string() + ": it is larger than " + limit);
}

domain::Result<std::string> read_all(int fd, const std::filesystem::path& file,
                                     std::size_t max_size, std::size_t expected_size) {
  constexpr std::size_t min_chunk = std::size_t{64} * 1024;
  std::string text;
  // One byte past the expected end, so that end of file is seen without growing the buffer.
  text.resize(std::min(expected_size, max_size) + 1);
  std::size_t size = 0;
  for (;;) {
    if (text.size() - size < min_chunk / 4) {
      text.resize(std::min(std::max(text.size() * 2, min_chunk), max_size + 1));
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
    if (size > max_size) {
      return too_large(file, max_size);
    }
  }
}

}  // namespace petstore::adapters::auth

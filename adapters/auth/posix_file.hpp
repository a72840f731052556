#pragma once
// A few POSIX file helpers the key file code shares: an owning descriptor and whole reads and
// writes that retry on EINTR and short transfers. Errors name the path and errno's text.

#include <filesystem>
#include <string>
#include <string_view>

#include "domain/error.hpp"

namespace petstore::adapters::auth {

// UniqueFd: closes its descriptor on destruction. -1 means none.
class UniqueFd {
 public:
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();

  [[nodiscard]] int get() const noexcept { return fd_; }
  [[nodiscard]] bool valid() const noexcept { return fd_ >= 0; }

 private:
  int fd_;
};

// io_error: unavailable, "<what> <path>: <errno text>", for the operator's terminal.
[[nodiscard]] domain::Error io_error(std::string_view what, const std::filesystem::path& file,
                                     int error_number);

// too_large: invalid_argument (field "api-keys"), "refusing API key file <path>: it is larger
// than 64 MiB".
[[nodiscard]] domain::Error too_large(const std::filesystem::path& file, std::size_t max_size);

// read_all: every byte from `fd` up to end of file, or invalid_argument (field "api-keys") as
// soon as there are more than `max_size`. `expected_size` (from fstat) only sizes the buffer.
[[nodiscard]] domain::Result<std::string> read_all(int fd, const std::filesystem::path& file,
                                                   std::size_t max_size,
                                                   std::size_t expected_size = 0);

// write_all: writes every byte of `bytes` to `fd`.
[[nodiscard]] domain::Result<void> write_all(int fd, std::string_view bytes,
                                             const std::filesystem::path& file);

}  // namespace petstore::adapters::auth

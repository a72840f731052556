#pragma once
// Opening an API key file safely: contract section 4's mode rules (writable by group or others:
// refused; readable by others: a warning), checked with fstat on the descriptor then read. Messages
// are single lines that may name the path, never the file's contents.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <vector>

#include "adapters/files/unique_fd.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::auth {

// KeyFileContents: the bytes of a key file that passed the mode rules, and the warnings to show.
struct KeyFileContents {
  std::string text;
  std::vector<std::string> warnings;
};

// io_error: unavailable (field "api-keys"), "<what> <path>: <errno text>", for the operator.
[[nodiscard]] domain::Error io_error(std::string_view what, const std::filesystem::path& file,
                                     int error_number);

// max_key_file_size: 64 MiB, about 900,000 keys (docs/decisions/key-file-size-cap.md).
inline constexpr std::size_t max_key_file_size = std::size_t{64} * 1024 * 1024;

// read_key_file: the contents of `file`. unavailable when it cannot be opened or read;
// invalid_argument when it is not a regular file (never waiting on a FIFO), its mode is refused,
// or it is larger than max_key_file_size.
[[nodiscard]] domain::Result<KeyFileContents> read_key_file(const std::filesystem::path& file);

// LockedKeyFile: a key file under the exclusive flock every `keys new` and `keys revoke` takes, so
// that no change loses another's line; `status` is its fstat. (A serving petstore only reads.)
struct LockedKeyFile {
  files::UniqueFd fd;
  struct stat status {};
  std::vector<std::string> warnings;  // the mode's warning, if any
};

// lock_key_file: `file` opened read-write and locked, created with mode 0600 when missing and
// `create` is true. The lock is taken on the file the path still names once it is held: a revoke
// that replaced the file meanwhile makes this open the new one. Errors as read_key_file's.
[[nodiscard]] domain::Result<LockedKeyFile> lock_key_file(const std::filesystem::path& file,
                                                          bool create);

// read_all: every byte from `fd` (of `file`) to end of file, refused (invalid_argument) past
// max_key_file_size. `expected_size` (from fstat) only sizes the buffer.
[[nodiscard]] domain::Result<std::string> read_all(int fd, const std::filesystem::path& file,
                                                   std::size_t expected_size);

}  // namespace petstore::adapters::auth

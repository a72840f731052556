#pragma once
// Opening an API key file safely: the mode rules of contract section 4 (writable by group or
// others -> refused; readable by others -> served with a warning), checked with fstat on the
// descriptor that is then read, so the file checked is the file read. Messages are single lines
// for the operator's terminal; they may name the path, never the file's contents.

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

// max_key_file_size: the largest key file read, 64 MiB: about 900,000 keys, far more than any
// deployment needs, and small enough that a reload reads and parses it in about a second.
inline constexpr std::size_t max_key_file_size = std::size_t{64} * 1024 * 1024;

// read_key_file: the contents of `file`. unavailable when it cannot be opened or read;
// invalid_argument when it is not a regular file (a FIFO is refused without being opened, so this
// never waits for a writer), its mode is refused, or it holds more than max_key_file_size bytes.
[[nodiscard]] domain::Result<KeyFileContents> read_key_file(const std::filesystem::path& file);

// LockedKeyFile: a key file opened for a change under the exclusive flock that every `keys new`
// and `keys revoke` takes, so that two changes never interleave and neither loses the other's
// line; `status` is the locked file's fstat. (A serving petstore only reads: it sees the file
// before a change or after it.)
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

// read_locked: the whole of a locked key file (`file` its path, for errors), refused as
// read_key_file refuses one past max_key_file_size.
[[nodiscard]] domain::Result<std::string> read_locked(const LockedKeyFile& locked,
                                                      const std::filesystem::path& file);

}  // namespace petstore::adapters::auth

#pragma once
// The key file code's reading helpers: a whole read that retries on EINTR and short transfers and
// stops past a size limit, and the key file's error messages, which name the path and errno's
// text. (The descriptor and the durable writes are adapters/files'.)

#include <filesystem>
#include <string>
#include <string_view>

#include "domain/error.hpp"

namespace petstore::adapters::auth {

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

}  // namespace petstore::adapters::auth

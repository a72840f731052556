#pragma once
// `petstore keys new`: makes an API key from 32 random bytes (OpenSSL RAND_bytes) and appends its
// digest line to a key file, creating the file with mode 0600. The key itself is returned once,
// for the caller to print; it is written nowhere and never appears in an error.
// A key is "pst_" plus 43 base64url characters without padding: a valid RFC 6750 token68.

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "domain/error.hpp"
#include "ports/key_verifier.hpp"

namespace petstore::adapters::auth {

inline constexpr std::string_view api_key_prefix = "pst_";

// generate_api_key: a fresh key; internal when the random generator fails.
[[nodiscard]] domain::Result<std::string> generate_api_key();

// NewApiKey: the key to show once, the principal id it will have, and notes for the operator.
struct NewApiKey {
  std::string key;
  std::string principal_id;
  std::vector<std::string> warnings;  // e.g. the file is readable by others
};

// create_api_key: generates a key and appends its line to `file` (key_file_format.hpp:
// `[read-only ]sha256:<hex>[ label] created=<now, UTC>`), under the key file's lock
// (lock_key_file), created with mode 0600 when missing (its directory must exist). A file not
// ending in a newline gets one first.
// Errors: invalid_argument naming "label" when the label is not empty and not 1 to 64 visible
// ASCII characters; invalid_argument (field "api-keys") when the file is not a regular file or is
// writable by group or others; unavailable when it cannot be opened or written.
[[nodiscard]] domain::Result<NewApiKey> create_api_key(const std::filesystem::path& file,
                                                       std::string_view label,
                                                       ports::KeyAccess access,
                                                       std::chrono::system_clock::time_point now);

}  // namespace petstore::adapters::auth

#pragma once
// What `petstore keys new`, `keys list` and `keys revoke` do to a key file
// (docs/decisions/key-management.md). A new key is returned once, for the caller to print; it is
// written nowhere and never appears in an error. Listing never shows a digest whole. Revoking
// rewrites the file atomically under its lock, every other line kept byte for byte: a reload sees
// the old file or the new, and a concurrent `keys new` keeps its line.

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/auth/key_file_format.hpp"
#include "domain/error.hpp"
#include "ports/key_verifier.hpp"

namespace petstore::adapters::auth {

// generate_api_key: "pst_" and 32 random bytes in base64url without padding (an RFC 6750 token68);
// internal when the random generator fails.
[[nodiscard]] domain::Result<std::string> generate_api_key();

// NewApiKey: the key to show once, the principal id it will have, and notes for the operator.
struct NewApiKey {
  std::string key;
  std::string principal_id;
  std::vector<std::string> warnings;  // e.g. the file is readable by others
};

// create_api_key: generates a key and appends its line (format_key_line) to `file` under its
// lock, creating it with mode 0600 when missing (its directory must exist). Errors:
// validate_label's; lock_key_file's; unavailable when the file cannot be written.
[[nodiscard]] domain::Result<NewApiKey> create_api_key(const std::filesystem::path& file,
                                                       std::string_view label,
                                                       ports::KeyAccess access,
                                                       std::chrono::system_clock::time_point now);

// ListedKeys: the distinct keys in file order, and one-line notes for the operator.
struct ListedKeys {
  std::vector<KeyEntry> keys;
  std::vector<std::string> warnings;
};

// list_api_keys: errors as read_key_file's, and invalid_argument for a malformed line.
[[nodiscard]] domain::Result<ListedKeys> list_api_keys(const std::filesystem::path& file);

// min_revoke_prefix: enough hex digits that a typo is unlikely to name another key.
inline constexpr std::size_t min_revoke_prefix = 8;

// RevokedKey: the key removed (its first line's entry), how many lines held it, and notes.
struct RevokedKey {
  KeyEntry key;
  std::size_t lines = 0;
  std::vector<std::string> warnings;  // e.g. the file is readable by others
};

// revoke_api_key: removes every line of the one key that `which` names: its label (exactly), or a
// digest prefix of at least min_revoke_prefix hex digits, bare or after "sha256:" or "key-" (a
// principal id). Errors, naming no key: invalid_argument (field "key") when `which` names none or
// several; invalid_argument (field "api-keys") for a refused file; unavailable when it cannot be
// read or replaced. On error the file is unchanged.
[[nodiscard]] domain::Result<RevokedKey> revoke_api_key(const std::filesystem::path& file,
                                                        std::string_view which);

}  // namespace petstore::adapters::auth

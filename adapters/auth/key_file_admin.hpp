#pragma once
// What `petstore keys new`, `keys list` and `keys revoke` do to a key file.
// `keys new` makes an API key from 32 random bytes (OpenSSL RAND_bytes) and appends its digest
// line to a key file, creating the file with mode 0600. The key itself is returned once, for the
// caller to print; it is written nowhere and never appears in an error. A key is "pst_" plus 43
// base64url characters without padding: a valid RFC 6750 token68.
// Listing reads the file as serving does;
// it shows labels, access, creation times and principal ids, never a digest whole (nor a key,
// which the file never holds).
// Revoking removes one key's lines, safe while petstore serves the file. The file is rewritten
// beside itself and renamed over it (adapters/files/atomic_file_writer.hpp) under the key file's
// lock (key_file_access.hpp): a reload sees the old file or the new one, and a `keys new` running
// meanwhile keeps its line. Every other line, comments included, is kept byte for byte. A serving
// petstore stops accepting the key at its next reload (SIGHUP).

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/auth/key_file_format.hpp"
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

// ListedKeys: the distinct keys of a file in file order, and notes for the operator (the mode,
// repeated keys), each one line naming the path.
struct ListedKeys {
  std::vector<KeyEntry> keys;
  std::vector<std::string> warnings;
};

// list_api_keys: the keys of `file`, read under read_key_file's rules. Errors as read_key_file's,
// and invalid_argument (field "api-keys") for a malformed line, named by number.
[[nodiscard]] domain::Result<ListedKeys> list_api_keys(const std::filesystem::path& file);

// min_revoke_prefix: the fewest hex digits a digest prefix must give to name a key, so that a
// typo is unlikely to name another one.
inline constexpr std::size_t min_revoke_prefix = 8;

// RevokedKey: the key removed (its first line's entry), how many lines held it, and notes.
struct RevokedKey {
  KeyEntry key;
  std::size_t lines = 0;
  std::vector<std::string> warnings;  // e.g. the file is readable by others
};

// revoke_api_key: removes every line of the one key that `which` names: its label (exactly), or
// its digest by a prefix of at least min_revoke_prefix lowercase hex digits, bare or after
// "sha256:" or "key-" (a principal id, as logs and `keys list` show it). Errors, each one line
// that names no key: invalid_argument (field "key") when `which` names no key or names several
// (the message lists their principal ids); invalid_argument (field "api-keys") when the file is
// refused (its mode, a malformed line); unavailable when it cannot be read or replaced. On error
// the file is unchanged.
[[nodiscard]] domain::Result<RevokedKey> revoke_api_key(const std::filesystem::path& file,
                                                        std::string_view which);

}  // namespace petstore::adapters::auth

#pragma once
// What `petstore keys list` and `keys revoke` do to a key file. Listing reads it as serving does;
// it shows labels, access, creation times and principal ids, never a digest whole (nor a key,
// which the file never holds).
// Revoking removes one key's lines, safe while petstore serves the file. The file is rewritten
// beside itself and renamed over it (adapters/files/atomic_file_writer.hpp) under the key file's
// lock (key_file_access.hpp): a reload sees the old file or the new one, and a `keys new` running
// meanwhile keeps its line. Every other line, comments included, is kept byte for byte. A serving
// petstore stops accepting the key at its next reload (SIGHUP).

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/auth/key_file_format.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::auth {

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

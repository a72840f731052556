#pragma once
// The KeyVerifier behind `--api-keys FILE`: keys as SHA-256 digests read from a key file
// (adapters/auth/key_file_format.hpp). A presented key is hashed and its digest looked up in a hash
// table (why that is safe: file_key_verifier.cpp, KeySet); equal digests are confirmed with
// CRYPTO_memcmp. An accepted key's principal carries its label and its access from the file.
// reload() re-reads the file (bootstrap calls it on SIGHUP) and swaps the whole key set at once:
// verify() running meanwhile sees the old set or the new one, never a mix.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "domain/error.hpp"
#include "ports/key_verifier.hpp"

namespace petstore::adapters::auth {

// KeyFileReport: what a successful load or reload found, for the operator.
struct KeyFileReport {
  std::size_t key_count = 0;          // distinct keys now accepted
  std::vector<std::string> warnings;  // one line each: file readable by others, repeated keys
};

// ReloadableKeyVerifier: a KeyVerifier whose keys can be re-read while it serves.
// Thread-safety: verify() and reload() may be called from any threads at the same time.
class ReloadableKeyVerifier : public ports::KeyVerifier {
 public:
  // reload: re-reads the file given at construction. On success the new keys replace the old
  // ones at once (added keys work, removed keys stop working); a file without keys is applied
  // too, with a warning, so that emptying the file revokes every key. On error (file missing,
  // unreadable, refused for its mode, or a malformed line) the keys in use stay unchanged.
  [[nodiscard]] virtual domain::Result<KeyFileReport> reload() = 0;
};

// LoadedKeyFile: the verifier and what its first load found.
struct LoadedKeyFile {
  std::unique_ptr<ReloadableKeyVerifier> verifier;
  KeyFileReport report;
};

// make_file_key_verifier: a verifier serving the keys in `file`. Errors, each one line naming the
// path and never a key: unavailable when the file cannot be opened or read; invalid_argument
// (field "api-keys") when it is not a regular file (a FIFO is refused without waiting for a
// writer), is writable by group or others, is larger than max_key_file_size (64 MiB), has a
// malformed line (named by number), or holds no key (the message says how to make one:
// `petstore keys new --api-keys FILE`).
[[nodiscard]] domain::Result<LoadedKeyFile> make_file_key_verifier(
    const std::filesystem::path& file);

}  // namespace petstore::adapters::auth

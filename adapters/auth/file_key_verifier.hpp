#pragma once
// The KeyVerifier behind `--api-keys FILE`: keys as SHA-256 digests from a key file
// (key_file_format.hpp), looked up by digest (why that is safe: file_key_verifier.cpp, KeySet).
// reload() (on SIGHUP) swaps the whole key set at once: verify() sees the old set or the new one.

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

// ReloadableKeyVerifier: a KeyVerifier whose keys can be re-read while it serves. verify() and
// reload() may be called from any threads at the same time.
class ReloadableKeyVerifier : public ports::KeyVerifier {
 public:
  // reload: re-reads the file; the new keys replace the old at once. A file without keys is applied
  // too, with a warning, so that emptying it revokes every key. On error the keys stay unchanged.
  [[nodiscard]] virtual domain::Result<KeyFileReport> reload() = 0;
};

// LoadedKeyFile: the verifier and what its first load found.
struct LoadedKeyFile {
  std::unique_ptr<ReloadableKeyVerifier> verifier;
  KeyFileReport report;
};

// make_file_key_verifier: a verifier serving the keys in `file`. Errors, one line naming the path,
// never a key: read_key_file's (key_file_access.hpp), and invalid_argument (field "api-keys") for
// a malformed line or a file without keys (the message says how to make one).
[[nodiscard]] domain::Result<LoadedKeyFile> make_file_key_verifier(
    const std::filesystem::path& file);

}  // namespace petstore::adapters::auth

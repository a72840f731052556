#include "adapters/auth/file_key_verifier.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include <openssl/crypto.h>

#include "adapters/auth/key_digest.hpp"
#include "adapters/auth/key_file_admin.hpp"
#include "adapters/auth/key_file_format.hpp"

namespace petstore::adapters::auth {
namespace {

// DigestsEqual: CRYPTO_memcmp, which reads all 32 bytes whatever they hold.
struct DigestsEqual {
  [[nodiscard]] bool operator()(const KeyDigest& a, const KeyDigest& b) const noexcept {
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
  }
};

// KeySet: an immutable snapshot of the accepted keys and their principals, looked up by digest,
// so that a check costs the same with a million keys as with one. A lookup's time depends only on
// the presented key's digest, and an attacker chooses keys, not digests: bits of a stored digest
// bring no key closer without a SHA-256 preimage (docs/decisions/key-lookup-by-digest.md).
using KeySet = std::unordered_map<KeyDigest, ports::Principal, KeyDigestHash, DigestsEqual>;

struct LoadedKeySet {
  std::shared_ptr<const KeySet> keys;
  KeyFileReport report;
};

domain::Result<LoadedKeySet> load_key_set(const std::filesystem::path& file) {
  auto listed = list_api_keys(file);
  if (!listed) {
    return listed.error();
  }
  auto keys = std::make_shared<KeySet>();
  keys->reserve(listed->keys.size());
  for (KeyEntry& entry : listed->keys) {
    keys->emplace(entry.digest, ports::Principal{principal_id(entry.digest), std::move(entry.label),
                                                 entry.access});
  }
  KeyFileReport report{keys->size(), std::move(listed->warnings)};
  return LoadedKeySet{std::move(keys), std::move(report)};
}

domain::Error no_keys_error(const std::filesystem::path& file) {
  return domain::invalid_argument("api-keys", "no API key in " + file.string() +
                                                  "; make one with: petstore keys new --api-keys " +
                                                  file.string());
}

class FileKeyVerifier final : public ReloadableKeyVerifier {
 public:
  FileKeyVerifier(std::filesystem::path file, std::shared_ptr<const KeySet> keys)
      : file_(std::move(file)), keys_(std::move(keys)) {}

  // KeyVerifier
  [[nodiscard]] domain::Result<ports::Principal> verify(std::string_view key) const override {
    if (key.empty()) {
      return rejected();
    }
    const auto digest = sha256(key);
    if (!digest) {
      return digest.error();
    }
    const std::shared_ptr<const KeySet> keys = snapshot();
    const auto found = keys->find(*digest);
    if (found == keys->end()) {
      return rejected();
    }
    return found->second;
  }

  [[nodiscard]] std::uint64_t key_set_version() const noexcept override {
    return key_set_version_.load(std::memory_order_acquire);
  }

  // ReloadableKeyVerifier
  [[nodiscard]] domain::Result<KeyFileReport> reload() override {
    const std::lock_guard serialized(reload_mutex_);  // the last file read is the one applied
    auto loaded = load_key_set(file_);
    if (!loaded) {
      return loaded.error();
    }
    if (loaded->report.key_count == 0) {
      loaded->report.warnings.push_back(no_keys_error(file_).message +
                                        "; every request under /v1 is refused until then");
    }
    std::shared_ptr<const KeySet> retired;  // freed after the lock is released
    {
      const std::lock_guard swap(keys_mutex_);
      retired = std::exchange(keys_, std::move(loaded->keys));
      key_set_version_.fetch_add(1, std::memory_order_release);
    }
    return std::move(loaded->report);
  }

 private:
  static domain::Error rejected() {
    return domain::make_error(domain::ErrorCode::unauthenticated, "token",
                              "the API key is not accepted");
  }

  [[nodiscard]] std::shared_ptr<const KeySet> snapshot() const {
    const std::lock_guard hold(keys_mutex_);
    return keys_;
  }

  const std::filesystem::path file_;
  std::mutex reload_mutex_;
  mutable std::mutex keys_mutex_;  // guards keys_ only for the pointer copy or swap
  std::shared_ptr<const KeySet> keys_;
  std::atomic<std::uint64_t> key_set_version_{0};  // one more with every applied reload
};

}  // namespace

domain::Result<LoadedKeyFile> make_file_key_verifier(const std::filesystem::path& file) {
  auto loaded = load_key_set(file);
  if (!loaded) {
    return loaded.error();
  }
  if (loaded->report.key_count == 0) {
    return no_keys_error(file);
  }
  return LoadedKeyFile{std::make_unique<FileKeyVerifier>(file, std::move(loaded->keys)),
                       std::move(loaded->report)};
}

}  // namespace petstore::adapters::auth

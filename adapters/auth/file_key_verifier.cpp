#include "adapters/auth/file_key_verifier.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <utility>

#include <openssl/crypto.h>

#include "adapters/auth/key_digest.hpp"
#include "adapters/auth/key_file_access.hpp"
#include "adapters/auth/key_file_format.hpp"

namespace petstore::adapters::auth {
namespace {

// KeySet: an immutable snapshot of the accepted keys; digests[i] belongs to principal_ids[i].
struct KeySet {
  std::vector<KeyDigest> digests;
  std::vector<std::string> principal_ids;

  // find: the index of `digest`. Every stored digest is compared, with CRYPTO_memcmp and without
  // a branch on the outcome, so the time taken does not tell which one (if any) matched.
  [[nodiscard]] std::optional<std::size_t> find(const KeyDigest& digest) const noexcept {
    std::size_t matched = 0;
    std::size_t index = 0;
    for (std::size_t i = 0; i < digests.size(); ++i) {
      const auto equal = static_cast<std::size_t>(
          CRYPTO_memcmp(digests[i].data(), digest.data(), digest.size()) == 0);
      const std::size_t mask = std::size_t{0} - equal;  // all ones when equal
      index = (index & ~mask) | (i & mask);
      matched |= equal;
    }
    return matched != 0 ? std::optional<std::size_t>(index) : std::nullopt;
  }
};

struct LoadedKeySet {
  std::shared_ptr<const KeySet> keys;
  KeyFileReport report;
};

domain::Result<LoadedKeySet> load_key_set(const std::filesystem::path& file) {
  auto contents = read_key_file(file);
  if (!contents) {
    return contents.error();
  }
  auto parsed = parse_key_file(contents->text);
  if (!parsed) {
    return domain::invalid_argument(
        "api-keys", "API key file " + file.string() + ": " + parsed.error().message);
  }
  auto keys = std::make_shared<KeySet>();
  for (const KeyEntry& entry : parsed->keys) {
    keys->digests.push_back(entry.digest);
    keys->principal_ids.push_back(principal_id(entry.digest));
  }
  KeyFileReport report{keys->digests.size(), std::move(contents->warnings)};
  for (std::string& warning : parsed->warnings) {
    report.warnings.push_back("API key file " + file.string() + ": " + std::move(warning));
  }
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
    const auto index = keys->find(*digest);
    if (!index) {
      return rejected();
    }
    return ports::Principal{keys->principal_ids[*index]};
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

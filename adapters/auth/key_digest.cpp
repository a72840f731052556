#include "adapters/auth/key_digest.hpp"

#include <algorithm>
#include <iterator>

#include <boost/algorithm/hex.hpp>
#include <openssl/evp.h>

namespace petstore::adapters::auth {

domain::Result<KeyDigest> sha256(std::string_view text) {
  KeyDigest digest{};
  unsigned int size = 0;
  // Fetched once, kept for the process's life (docs/decisions/sha256-fetched-once.md).
  static EVP_MD* const algorithm = EVP_MD_fetch(nullptr, "SHA2-256", nullptr);
  if (algorithm == nullptr ||
      EVP_Digest(text.data(), text.size(), digest.data(), &size, algorithm, nullptr) != 1 ||
      size != digest.size()) {
    return domain::make_error(domain::ErrorCode::internal, "", "SHA-256 is not available");
  }
  return digest;
}

std::string to_hex(const KeyDigest& digest) {
  std::string hex;
  boost::algorithm::hex_lower(digest.begin(), digest.end(), std::back_inserter(hex));
  return hex;
}

std::optional<KeyDigest> parse_hex_digest(std::string_view hex) noexcept {
  KeyDigest digest{};
  if (hex.size() != digest.size() * 2 || !std::all_of(hex.begin(), hex.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
      })) {
    return std::nullopt;
  }
  boost::algorithm::unhex(hex.begin(), hex.end(), digest.begin());  // cannot throw: checked
  return digest;
}

std::string principal_id(const KeyDigest& digest) { return "key-" + to_hex(digest).substr(0, 12); }

}  // namespace petstore::adapters::auth

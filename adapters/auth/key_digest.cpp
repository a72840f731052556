#include "adapters/auth/key_digest.hpp"

#include <iterator>

#include <boost/algorithm/hex.hpp>
#include <openssl/evp.h>

namespace petstore::adapters::auth {
namespace {

constexpr std::size_t principal_hex_digits = 12;

std::optional<unsigned char> hex_value(char digit) noexcept {
  if (digit >= '0' && digit <= '9') {
    return static_cast<unsigned char>(digit - '0');
  }
  if (digit >= 'a' && digit <= 'f') {
    return static_cast<unsigned char>(digit - 'a' + 10);
  }
  return std::nullopt;
}

}  // namespace

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
  if (hex.size() != digest.size() * 2) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < digest.size(); ++i) {
    const auto high = hex_value(hex[2 * i]);
    const auto low = hex_value(hex[2 * i + 1]);
    if (!high || !low) {
      return std::nullopt;
    }
    digest[i] = static_cast<unsigned char>((*high << 4U) | *low);
  }
  return digest;
}

std::string principal_id(const KeyDigest& digest) {
  return "key-" + to_hex(digest).substr(0, principal_hex_digits);
}

}  // namespace petstore::adapters::auth

#pragma once
// SHA-256 digests of API keys, the only form in which keys are stored (contract section 4).

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "domain/error.hpp"

namespace petstore::adapters::auth {

// KeyDigest: the 32 bytes of SHA-256 over a key's exact text.
using KeyDigest = std::array<unsigned char, 32>;

// KeyDigestHash: hashes all 32 bytes, so that digests differing only at the end (hand-made test
// files) still spread over buckets.
struct KeyDigestHash {
  [[nodiscard]] std::size_t operator()(const KeyDigest& digest) const noexcept {
    return std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
  }
};

// sha256: the digest of `text` (OpenSSL EVP); internal only when libcrypto itself fails.
[[nodiscard]] domain::Result<KeyDigest> sha256(std::string_view text);

// to_hex: the 64 lowercase hex digits of `digest`.
[[nodiscard]] std::string to_hex(const KeyDigest& digest);

// parse_hex_digest: the digest spelled by exactly 64 lowercase hex digits, else nullopt
// (uppercase digits are refused so that one digest has one spelling).
[[nodiscard]] std::optional<KeyDigest> parse_hex_digest(std::string_view hex) noexcept;

// principal_id: "key-" and the first 12 hex digits of `digest`, e.g. "key-3f0a9c41b2de". Stable
// for a key, safe to log: a digest prefix tells nothing about a 256-bit random key.
[[nodiscard]] std::string principal_id(const KeyDigest& digest);

}  // namespace petstore::adapters::auth

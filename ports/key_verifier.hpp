#pragma once
// KeyVerifier: the port that decides whether a presented API key is accepted.
//
// Thread-safety: verify may be called concurrently from any thread, also while the adapter
// reloads its keys. It must not leak through timing which stored key a presented one resembles.

#include <cstdint>
#include <string>
#include <string_view>

#include "domain/error.hpp"

namespace petstore::ports {

// KeyAccess: what a key may do. A read-only key may list and get, never create.
enum class KeyAccess { read_write, read_only };

// Principal: who a key belongs to. `id` is stable for a key and safe to log and to use as a
// scope (it is derived from the key's digest, never the key itself). `label` is the name the
// operator gave the key (may be empty): what logs call it, and what may change without changing
// the scope.
struct Principal {
  std::string id;
  std::string label{};
  KeyAccess access = KeyAccess::read_write;
  friend bool operator==(const Principal&, const Principal&) = default;
};

class KeyVerifier {
 public:
  KeyVerifier() = default;
  KeyVerifier(const KeyVerifier&) = delete;
  KeyVerifier& operator=(const KeyVerifier&) = delete;
  virtual ~KeyVerifier() = default;

  // verify: the principal of `key`, or unauthenticated when the key is not accepted.
  [[nodiscard]] virtual domain::Result<Principal> verify(std::string_view key) const = 0;

  // key_set_version: changes whenever the set of accepted keys may have changed (a reload), so a
  // caller that remembers a verify() result knows when to ask again. Constant for fixed keys.
  [[nodiscard]] virtual std::uint64_t key_set_version() const noexcept = 0;
};

}  // namespace petstore::ports

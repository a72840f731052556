#pragma once
// AcceptedKeyMemo: the last API key one connection had accepted, with its principal, so that a
// kept-alive client is hashed once (docs/decisions/accepted-key-memo.md). Good only while the
// verifier's key_set_version stands: after a reload a revoked key stops on open connections too.
// Not thread-safe: one per connection.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ports/key_verifier.hpp"

namespace petstore::application {

class AcceptedKeyMemo {
 public:
  // Longer keys are not remembered (a memo per connection stays small); they are checked each time.
  static constexpr std::size_t max_key_bytes = 256;

  // recall: the principal remembered for `key` under `key_set_version`, or null. Compares in
  // constant time: a proxy's connection carries many clients, none may learn another's key.
  [[nodiscard]] const ports::Principal* recall(std::string_view key,
                                               std::uint64_t key_set_version) const noexcept;

  // remember: `key` was accepted as `principal` under `key_set_version`.
  void remember(std::string_view key, std::uint64_t key_set_version, ports::Principal principal);

 private:
  std::string key_;
  std::uint64_t key_set_version_ = 0;
  std::optional<ports::Principal> principal_;
};

}  // namespace petstore::application

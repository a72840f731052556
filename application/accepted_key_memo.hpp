#pragma once
// AcceptedKeyMemo: the last API key one connection presented and had accepted, with its principal.
// A client sends the same key on every request of a kept-alive connection; remembering it spares
// the key check (a SHA-256 of the key, about a tenth of a page request's work) on all but the
// first. A memo is good only for the key set that accepted the key: once the verifier's
// key_set_version moves (a reload), the key is checked again, so a revoked key stops working on
// open connections too.
//
// Not thread-safe: one per connection, used by the requests of that connection in turn.

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

  // recall: the principal remembered for `key` under `key_set_version`, or null.
  // The key is compared in time that depends only on the lengths: a connection may carry the
  // requests of many clients (a proxy), and one must not learn another's key byte by byte.
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

#pragma once
// Authenticate: who sent a request, from its bearer credential, throttling clients that keep
// failing. Its errors name no protocol; the adapter words them for its clients.

#include <optional>
#include <string_view>

#include "application/accepted_key_memo.hpp"
#include "application/failed_auth_throttle.hpp"
#include "ports/key_verifier.hpp"

namespace petstore::application {

// Credential: what a request presented, and from where.
struct Credential {
  std::optional<std::string_view> bearer_token;  // a well-formed bearer token, if any
  bool malformed = false;  // a bearer credential was attempted but is not well-formed
  std::string_view client_address;
};

// authorize_write: success when `principal` may create; else permission_denied (a read-only key).
// Asked before the body is read: a key that may not write learns so whatever it sent.
[[nodiscard]] domain::Result<void> authorize_write(const ports::Principal& principal);

class Authenticate {
 public:
  Authenticate(const ports::KeyVerifier& keys, FailedAuthThrottle& throttle)
      : keys_(keys), throttle_(throttle) {}

  // The principal of the credential's key. Otherwise unauthenticated (empty `field` when no key
  // was presented, "token" when it was not accepted); resource_exhausted (field "credential",
  // with `retry_after_seconds`) when the client failed too often; or the verifier's own failure.
  // With `memo` (the connection's), a remembered key skips the verifier; a new one replaces it.
  [[nodiscard]] domain::Result<ports::Principal> operator()(const Credential& credential,
                                                            AcceptedKeyMemo* memo = nullptr) const;

 private:
  const ports::KeyVerifier& keys_;
  FailedAuthThrottle& throttle_;
};

}  // namespace petstore::application

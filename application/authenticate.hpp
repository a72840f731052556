#pragma once
// Authenticate: decides who sent a request from the bearer credential it carried, if any, and
// throttles clients that keep failing. Its errors name no protocol: the adapter words them for
// its clients (the HTTP adapter names the Authorization header).

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

// authorize_write: success when `principal` may change the catalogue (a create); else
// permission_denied, for a read-only key. The adapter asks it once the operation is known and
// before the request's body is read: a key that may not write learns so whatever it sent.
[[nodiscard]] domain::Result<void> authorize_write(const ports::Principal& principal);

class Authenticate {
 public:
  Authenticate(const ports::KeyVerifier& keys, FailedAuthThrottle& throttle)
      : keys_(keys), throttle_(throttle) {}

  // The principal of the credential's key. Otherwise unauthenticated: with an empty `field`
  // when no key was presented, with field "token" when one was presented and not accepted; or
  // resource_exhausted (field "credential"), with `retry_after_seconds`, when the client failed
  // too often. A failure of the verifier itself is passed on as it is (internal).
  // With `memo` (the connection's), a key the memo holds for the current key set is accepted
  // without asking the verifier again, and a newly accepted key replaces the memo's.
  [[nodiscard]] domain::Result<ports::Principal> operator()(const Credential& credential,
                                                            AcceptedKeyMemo* memo = nullptr) const;

 private:
  const ports::KeyVerifier& keys_;
  FailedAuthThrottle& throttle_;
};

}  // namespace petstore::application

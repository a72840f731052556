#pragma once
// Authenticate: decides who sent a request from the bearer token it carried, if any.

#include <optional>
#include <string_view>

#include "ports/key_verifier.hpp"

namespace petstore::application {

class Authenticate {
 public:
  explicit Authenticate(const ports::KeyVerifier& keys) : keys_(keys) {}

  // The principal of `bearer_token`, or unauthenticated: with an empty `field` when no token
  // was presented, with field "token" when one was presented and not accepted.
  [[nodiscard]] domain::Result<ports::Principal> operator()(
      std::optional<std::string_view> bearer_token) const;

 private:
  const ports::KeyVerifier& keys_;
};

}  // namespace petstore::application

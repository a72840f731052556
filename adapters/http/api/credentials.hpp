#pragma once
// Reads the bearer credential out of an Authorization header (RFC 6750 section 2.1): the scheme
// matched case-insensitively, one or more spaces, then a token68.

#include <optional>
#include <string_view>

namespace petstore::adapters::http {

struct Credentials {
  enum class Kind {
    none,       // no Authorization header, or one of another scheme: no key was presented
    bearer,     // a well-formed bearer token, in `token`
    malformed,  // a bearer credential was attempted but is not well-formed
  };
  Kind kind = Kind::none;
  std::string_view token;
};

// read_credentials: what the Authorization header presents; a `repeated` one is malformed.
[[nodiscard]] Credentials read_credentials(std::optional<std::string_view> value, bool repeated);

}  // namespace petstore::adapters::http

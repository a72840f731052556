// Fuzzes read_credentials, the Authorization header parser. The first byte says whether the
// header is absent (bit 0) or was sent twice (bit 1); the rest is its value. Oracle: the answer
// equals that of a plain model of RFC 6750 as contract section 4 states it, and a bearer token is
// a non-empty token68 that is the tail of the value itself.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "adapters/http/api/credentials.hpp"

#include "fuzz/fuzz_support.hpp"

namespace {

using petstore::adapters::http::Credentials;
using petstore::tests::fuzz::expect;

bool is_token68(std::string_view text) {
  std::size_t body = 0;
  while (body < text.size()) {
    const char c = text[body];
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~' ||
                         c == '+' || c == '/';
    if (!allowed) {
      break;
    }
    ++body;
  }
  if (body == 0) {
    return false;
  }
  return text.substr(body).find_first_not_of('=') == std::string_view::npos;
}

bool is_bearer_scheme(std::string_view scheme) {
  constexpr std::string_view bearer = "bearer";
  if (scheme.size() != bearer.size()) {
    return false;
  }
  for (std::size_t i = 0; i < bearer.size(); ++i) {
    const char c = scheme[i];
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower != bearer[i]) {
      return false;
    }
  }
  return true;
}

// model: none without a bearer scheme; bearer when one or more spaces and a token68 follow;
// malformed otherwise, and whenever the header was sent twice.
Credentials::Kind model(std::optional<std::string_view> value, bool repeated) {
  if (!value) {
    return Credentials::Kind::none;
  }
  if (repeated) {
    return Credentials::Kind::malformed;
  }
  const std::size_t space = value->find(' ');
  if (!is_bearer_scheme(value->substr(0, space))) {
    return Credentials::Kind::none;
  }
  if (space == std::string_view::npos) {
    return Credentials::Kind::malformed;
  }
  const std::string_view rest = value->substr(space);
  const std::size_t token = rest.find_first_not_of(' ');
  if (token == std::string_view::npos || !is_token68(rest.substr(token))) {
    return Credentials::Kind::malformed;
  }
  return Credentials::Kind::bearer;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const bool absent = (data[0] & 1U) != 0;
  const bool repeated = (data[0] & 2U) != 0;
  const std::string_view text = petstore::tests::fuzz::as_text(data + 1, size - 1);
  const std::optional<std::string_view> value =
      absent ? std::nullopt : std::optional<std::string_view>(text);

  const Credentials credentials = petstore::adapters::http::read_credentials(value, repeated);
  expect(credentials.kind == model(value, repeated), "read_credentials classifies as the model");
  if (credentials.kind != Credentials::Kind::bearer) {
    expect(credentials.token.empty(), "only a bearer credential carries a token");
    return 0;
  }
  const std::string_view token = credentials.token;
  expect(!token.empty() && is_token68(token), "a bearer token is a non-empty token68");
  const bool tail = token.size() < text.size() &&
                    token.data() + token.size() == text.data() + text.size() &&
                    text[text.size() - token.size() - 1] == ' ';
  expect(tail, "a bearer token is the value's tail after the spaces");
  return 0;
}

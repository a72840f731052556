#include "adapters/http/credentials.hpp"

#include <algorithm>
#include <cctype>

#include "adapters/http/ascii.hpp"

namespace petstore::adapters::http {
namespace {

bool is_token68_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.' || c == '_' ||
         c == '~' || c == '+' || c == '/';
}

// token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
bool is_token68(std::string_view text) {
  const auto body_end = std::find_if_not(text.begin(), text.end(), is_token68_char);
  if (body_end == text.begin()) {
    return false;
  }
  return std::all_of(body_end, text.end(), [](char c) { return c == '='; });
}

}  // namespace

Credentials read_credentials(std::optional<std::string_view> value, bool repeated) {
  if (!value) {
    return {};
  }
  if (repeated) {
    return {Credentials::Kind::malformed, {}};
  }
  const std::string_view header = *value;
  const auto scheme_end = header.find(' ');
  const std::string_view scheme = header.substr(0, scheme_end);
  if (!equals_ignoring_case(scheme, "Bearer")) {
    return {};
  }
  if (scheme_end == std::string_view::npos) {
    return {Credentials::Kind::malformed, {}};
  }
  std::string_view token = header.substr(scheme_end);
  token.remove_prefix(std::min(token.find_first_not_of(' '), token.size()));
  if (!is_token68(token)) {
    return {Credentials::Kind::malformed, {}};
  }
  return {Credentials::Kind::bearer, token};
}

}  // namespace petstore::adapters::http

#include "adapters/http/api/credentials.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include "adapters/http/api/ascii.hpp"

namespace petstore::adapters::http {
namespace {

// token68's characters before its padding (RFC 9110 section 11.2): a table, one load a key byte.
constexpr std::array<bool, 256> token68_chars = [] {
  std::array<bool, 256> table{};
  for (std::size_t c = 0; c < table.size(); ++c) {
    table[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
  }
  return table;
}();

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
  // token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
  const auto padding = std::find_if_not(token.begin(), token.end(), [](char c) {
    return token68_chars[static_cast<unsigned char>(c)];
  });
  if (padding == token.begin() ||
      !std::all_of(padding, token.end(), [](char c) { return c == '='; })) {
    return {Credentials::Kind::malformed, {}};
  }
  return {Credentials::Kind::bearer, token};
}

}  // namespace petstore::adapters::http

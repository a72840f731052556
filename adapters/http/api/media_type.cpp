#include "adapters/http/api/media_type.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "adapters/http/api/ascii.hpp"

// No well-kept parser fits: Boost 1.81 has none for media types, and Beast's param_list (made for
// Transfer-Encoding) accepts a parameter without a value and cannot tell a malformed list from its
// end. The grammar is small; tests/adapters/http/api/media_type_test.cpp holds it to the RFC. Each
// take_ function consumes what it reads from the front of `rest`.

namespace petstore::adapters::http {
namespace {

void skip_whitespace(std::string_view& rest) {
  rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
}

bool take(std::string_view& rest, char c) {
  if (!rest.starts_with(c)) {
    return false;
  }
  rest.remove_prefix(1);
  return true;
}

// take_token: one or more tchars; empty when there is none.
std::string_view take_token(std::string_view& rest) {
  const auto length =
      static_cast<std::size_t>(std::find_if_not(rest.begin(), rest.end(), is_tchar) - rest.begin());
  const std::string_view token = rest.substr(0, length);
  rest.remove_prefix(length);
  return token;
}

// take_quoted_string: the value of the quoted-string (section 5.6.4) `rest` starts with, its
// quoted-pairs unescaped; nullopt when it is not closed or holds a control character.
std::optional<std::string> take_quoted_string(std::string_view& rest) {
  std::string value;
  for (std::size_t at = 1; at < rest.size(); ++at) {  // after the opening quote
    const char c = rest[at];
    if (c == '"') {
      rest.remove_prefix(at + 1);
      return value;
    }
    if (c == '\\') {
      if (++at == rest.size()) {
        return std::nullopt;
      }
      value.push_back(rest[at]);
    } else if (c == '\t' || (static_cast<unsigned char>(c) >= 0x20 && c != 0x7F)) {
      value.push_back(c);  // qdtext, obs-text included
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

JsonMediaType classify_json_media_type(std::string_view content_type) {
  if (content_type == "application/json") {
    return JsonMediaType::json;  // what nearly every client sends: no parse
  }
  std::string_view rest = content_type;
  skip_whitespace(rest);
  if (!equals_ignoring_case(take_token(rest), "application") || !take(rest, '/') ||
      !equals_ignoring_case(take_token(rest), "json")) {
    return JsonMediaType::not_json;
  }
  bool utf8 = true;
  for (;;) {
    skip_whitespace(rest);
    if (rest.empty()) {
      return utf8 ? JsonMediaType::json : JsonMediaType::other_charset;
    }
    if (!take(rest, ';')) {
      return JsonMediaType::not_json;
    }
    skip_whitespace(rest);
    if (rest.empty() || rest.starts_with(';')) {
      continue;  // an empty parameter, which section 5.6.6 allows
    }
    const std::string_view name = take_token(rest);
    if (name.empty() || !take(rest, '=')) {
      return JsonMediaType::not_json;
    }
    std::optional<std::string> value;
    if (rest.starts_with('"')) {
      value = take_quoted_string(rest);
    } else if (const std::string_view token = take_token(rest); !token.empty()) {
      value = std::string(token);
    }
    if (!value) {
      return JsonMediaType::not_json;
    }
    if (equals_ignoring_case(name, "charset") && !equals_ignoring_case(*value, "utf-8")) {
      utf8 = false;
    }
  }
}

}  // namespace petstore::adapters::http

#include "adapters/http/api/media_type.hpp"

#include <optional>
#include <string>

#include "adapters/http/api/ascii.hpp"

// No well-kept parser fits: Boost 1.81 has none for media types, and Beast's param_list (made for
// Transfer-Encoding) accepts a parameter without a value and cannot tell a malformed list from its
// end. The grammar is small; tests/adapters/http/api/media_type_test.cpp holds it to the RFC.

namespace petstore::adapters::http {
namespace {

// Reader: the unread rest of a field value, consumed from the front.
class Reader {
 public:
  explicit Reader(std::string_view text) : rest_(text) {}

  [[nodiscard]] bool at_end() const { return rest_.empty(); }

  void skip_whitespace() {
    while (!rest_.empty() && (rest_.front() == ' ' || rest_.front() == '\t')) {
      rest_.remove_prefix(1);
    }
  }

  bool take(char c) {
    if (rest_.empty() || rest_.front() != c) {
      return false;
    }
    rest_.remove_prefix(1);
    return true;
  }

  [[nodiscard]] bool next_is(char c) const { return !rest_.empty() && rest_.front() == c; }

  // token: one or more tchars; nullopt when there is none.
  std::optional<std::string_view> token() {
    std::size_t length = 0;
    while (length < rest_.size() && is_tchar(rest_[length])) {
      ++length;
    }
    if (length == 0) {
      return std::nullopt;
    }
    const std::string_view taken = rest_.substr(0, length);
    rest_.remove_prefix(length);
    return taken;
  }

  // quoted_string: the value of a quoted-string (section 5.6.4), its quoted-pairs unescaped;
  // nullopt when it is not one or is not closed.
  std::optional<std::string> quoted_string() {
    if (!take('"')) {
      return std::nullopt;
    }
    std::string value;
    while (!rest_.empty()) {
      const char c = rest_.front();
      rest_.remove_prefix(1);
      if (c == '"') {
        return value;
      }
      if (c == '\\') {
        if (rest_.empty()) {
          return std::nullopt;
        }
        value.push_back(rest_.front());
        rest_.remove_prefix(1);
      } else if (c == '\t' || (static_cast<unsigned char>(c) >= 0x20 && c != 0x7F)) {
        value.push_back(c);  // qdtext, obs-text included
      } else {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

 private:
  std::string_view rest_;
};

}  // namespace

JsonMediaType classify_json_media_type(std::string_view content_type) {
  if (content_type == "application/json") {
    return JsonMediaType::json;  // what nearly every client sends: no parse
  }
  Reader reader(content_type);
  reader.skip_whitespace();
  const auto type = reader.token();
  if (!type || !reader.take('/')) {
    return JsonMediaType::not_json;
  }
  const auto subtype = reader.token();
  if (!subtype || !equals_ignoring_case(*type, "application") ||
      !equals_ignoring_case(*subtype, "json")) {
    return JsonMediaType::not_json;
  }
  bool utf8 = true;
  for (;;) {
    reader.skip_whitespace();
    if (reader.at_end()) {
      return utf8 ? JsonMediaType::json : JsonMediaType::other_charset;
    }
    if (!reader.take(';')) {
      return JsonMediaType::not_json;
    }
    reader.skip_whitespace();
    if (reader.at_end() || reader.next_is(';')) {
      continue;  // an empty parameter, which section 5.6.6 allows
    }
    const auto name = reader.token();
    if (!name || !reader.take('=')) {
      return JsonMediaType::not_json;
    }
    std::optional<std::string> value;
    if (reader.next_is('"')) {
      value = reader.quoted_string();
    } else if (const auto token = reader.token()) {
      value = std::string(*token);
    }
    if (!value) {
      return JsonMediaType::not_json;
    }
    if (equals_ignoring_case(*name, "charset") && !equals_ignoring_case(*value, "utf-8")) {
      utf8 = false;
    }
  }
}

}  // namespace petstore::adapters::http

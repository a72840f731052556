#include "bootstrap/config_toml_values.hpp"

#include <cctype>
#include <charconv>

namespace petstore::bootstrap {
namespace {

bool is_digit(char c, int base) {
  const auto u = static_cast<unsigned char>(c);
  return base == 16 ? std::isxdigit(u) != 0 : (c >= '0' && c < static_cast<char>('0' + base));
}

// digits: one or more digits of `base` from `i`, an `_` only between two of them (TOML's rule),
// appended to `out` without the underscores.
bool digits(std::string_view s, std::size_t& i, int base, std::string& out) {
  const std::size_t start = i;
  for (; i < s.size() && (is_digit(s[i], base) || s[i] == '_'); ++i) {
    if (s[i] == '_' && (i == start || i + 1 == s.size() || !is_digit(s[i + 1], base))) {
      return false;
    }
    if (s[i] != '_') {
      out += s[i];
    }
  }
  return i > start;
}

}  // namespace

std::optional<std::string> toml_number(std::string_view token) {
  std::string out;
  std::size_t i = 0;
  if (!token.empty() && (token[0] == '+' || token[0] == '-')) {
    out = token[0] == '-' ? "-" : "";
    ++i;
  }
  if (token.substr(i) == "inf" || token.substr(i) == "nan") {
    return out + std::string(token.substr(i));
  }
  if (i == 0 && token.size() > 2 && token[0] == '0' &&
      std::string_view("xob").find(token[1]) != std::string_view::npos) {
    const int base = token[1] == 'x' ? 16 : token[1] == 'o' ? 8 : 2;
    std::string plain;
    i = 2;
    std::uint64_t value = 0;
    if (!digits(token, i, base, plain) || i != token.size() ||
        std::from_chars(plain.data(), plain.data() + plain.size(), value, base).ec != std::errc{}) {
      return std::nullopt;
    }
    return std::to_string(value);
  }
  const std::size_t integer_start = out.size();
  if (!digits(token, i, 10, out) || (out[integer_start] == '0' && out.size() > integer_start + 1)) {
    return std::nullopt;  // no digits, or a leading zero
  }
  if (i < token.size() && token[i] == '.') {
    out += token[i++];
    if (!digits(token, i, 10, out)) {
      return std::nullopt;
    }
  }
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    out += token[i++];
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) {
      out += token[i++];
    }
    if (!digits(token, i, 10, out)) {
      return std::nullopt;
    }
  }
  return i == token.size() ? std::optional(out) : std::nullopt;
}

namespace {

void append_utf8(std::string& out, std::uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6U));
    out += static_cast<char>(0x80 | (c & 0x3FU));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12U));
    out += static_cast<char>(0x80 | ((c >> 6U) & 0x3FU));
    out += static_cast<char>(0x80 | (c & 0x3FU));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18U));
    out += static_cast<char>(0x80 | ((c >> 12U) & 0x3FU));
    out += static_cast<char>(0x80 | ((c >> 6U) & 0x3FU));
    out += static_cast<char>(0x80 | (c & 0x3FU));
  }
}

// read_escape: the escape after a backslash at text[pos].
std::optional<std::string> read_escape(std::string_view text, std::size_t& pos, std::string& out) {
  const char c = pos < text.size() ? text[pos] : '\0';
  ++pos;
  const std::string_view simple = "b\bt\tn\nf\fr\r\"\"\\\\";
  for (std::size_t i = 0; i < simple.size(); i += 2) {
    if (simple[i] == c) {
      out += simple[i + 1];
      return std::nullopt;
    }
  }
  const std::size_t length = c == 'u' ? 4 : c == 'U' ? 8 : 0;
  std::uint32_t code = 0;
  const char* first = text.data() + pos;
  if (length == 0 || pos + length > text.size() ||
      std::from_chars(first, first + length, code, 16).ptr != first + length ||
      (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) {
    return "an unknown escape in a string: \\" + std::string(1, c);
  }
  pos += length;
  append_utf8(out, code);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> read_toml_string(std::string_view text, std::size_t& pos,
                                            std::string& out) {
  const char quote = text[pos++];
  const auto at = [&text, &pos](std::size_t ahead) {
    return pos + ahead < text.size() ? text[pos + ahead] : '\0';
  };
  if (at(0) == quote && at(1) == quote) {
    return "a multi-line string is not taken";
  }
  for (;;) {
    const char c = at(0);
    if (pos == text.size() || c == '\n' || (c == '\r' && at(1) == '\n')) {
      return std::string("the string is not closed by ") + quote + " on its line";
    }
    ++pos;
    if (c == quote) {
      return std::nullopt;
    }
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == '\x7f') {
      return "a control character in a string (escape it)";
    }
    if (c == '\\' && quote == '"') {
      if (auto why = read_escape(text, pos, out)) {
        return why;
      }
    } else {
      out += c;
    }
  }
}

}  // namespace petstore::bootstrap

#include "domain/unicode.hpp"

#include <cstdint>

namespace petstore::domain::unicode {
namespace {

bool is_continuation(unsigned char byte) noexcept { return (byte & 0xC0U) == 0x80U; }

// escaped_unit: the UTF-16 unit of the \uXXXX escape at the start of `text`, or -1.
int escaped_unit(std::string_view text) noexcept {
  if (text.size() < 6 || text[0] != '\\' || text[1] != 'u') {
    return -1;
  }
  int unit = 0;
  for (std::size_t i = 2; i < 6; ++i) {
    const int digit = hex_digit(text[i]);
    if (digit < 0) {
      return -1;
    }
    unit = unit * 16 + digit;
  }
  return unit;
}

}  // namespace

std::size_t valid_utf8_prefix(std::string_view text) noexcept {
  const std::size_t size = text.size();
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t before = rest.size();
    if (!decode_next(rest)) {
      return size - before;
    }
  }
  return size;
}

int hex_digit(char c) noexcept {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

std::size_t lone_high_surrogate_escape_end(std::string_view json_text) noexcept {
  std::size_t at = json_text.find('\\');
  while (at != std::string_view::npos) {
    const int unit = escaped_unit(json_text.substr(at));
    if (unit < 0) {
      at = json_text.find('\\', at + 2);  // \" \\ \n and the like
      continue;
    }
    at += 6;
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      const int next = escaped_unit(json_text.substr(at));
      if (next < 0xDC00 || next > 0xDFFF) {
        return at;
      }
      at += 6;
    }
    at = json_text.find('\\', at);
  }
  return std::string_view::npos;
}

std::optional<char32_t> decode_next(std::string_view& text) noexcept {
  const auto lead = static_cast<unsigned char>(text.front());
  std::size_t length = 0;
  char32_t code_point = 0;
  char32_t smallest = 0;  // below this the encoding is overlong
  if (lead < 0x80U) {
    text.remove_prefix(1);
    return lead;
  }
  if ((lead & 0xE0U) == 0xC0U) {
    length = 2;
    code_point = lead & 0x1FU;
    smallest = 0x80;
  } else if ((lead & 0xF0U) == 0xE0U) {
    length = 3;
    code_point = lead & 0x0FU;
    smallest = 0x800;
  } else if ((lead & 0xF8U) == 0xF0U) {
    length = 4;
    code_point = lead & 0x07U;
    smallest = 0x10000;
  } else {
    return std::nullopt;
  }
  if (text.size() < length) {
    return std::nullopt;
  }
  for (std::size_t i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (!is_continuation(byte)) {
      return std::nullopt;
    }
    code_point = (code_point << 6U) | (byte & 0x3FU);
  }
  const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
  if (code_point < smallest || code_point > 0x10FFFF || surrogate) {
    return std::nullopt;
  }
  text.remove_prefix(length);
  return code_point;
}

}  // namespace petstore::domain::unicode

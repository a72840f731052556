#pragma once
// ASCII helpers for HTTP tokens, which are case-insensitive and never localised, and for the
// decimal numbers written into headers and bodies.

#include <algorithm>
#include <array>
#include <charconv>
#include <concepts>
#include <string>
#include <string_view>

#include "domain/whole_number.hpp"

namespace petstore::adapters::http {

using domain::parse_whole;

[[nodiscard]] constexpr char ascii_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

[[nodiscard]] constexpr bool equals_ignoring_case(std::string_view a, std::string_view b) noexcept {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

// is_tchar: a character of an RFC 9110 token (section 5.6.2).
[[nodiscard]] constexpr bool is_tchar(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// trim_ows: `text` without the spaces and tabs (RFC 9110's optional whitespace) at either end.
[[nodiscard]] constexpr std::string_view trim_ows(std::string_view text) noexcept {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// append_decimal: `value` in decimal, as std::to_string writes it, without a temporary string.
template <std::integral Integer>
void append_decimal(std::string& out, Integer value) {
  std::array<char, 24> digits{};  // every 64-bit integer fits
  const auto written = std::to_chars(digits.data(), digits.data() + digits.size(), value);
  out.append(digits.data(), written.ptr);
}

}  // namespace petstore::adapters::http

#pragma once
// parse_whole: the one way the service reads a number from text (a header, a query parameter, a
// flag, a database field). from_chars takes '-' as its only sign and no whitespace, so only
// digits in `base`, after an optional '-' for a signed Integer, pass; empty text and too large a
// number are refused.

#include <charconv>
#include <concepts>
#include <optional>
#include <string_view>

namespace petstore::domain {

template <std::integral Integer>
[[nodiscard]] std::optional<Integer> parse_whole(std::string_view text, int base = 10) noexcept {
  Integer value{};
  const auto* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value, base);
  if (error != std::errc{} || at != end) {
    return std::nullopt;
  }
  return value;
}

}  // namespace petstore::domain

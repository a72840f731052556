#pragma once
// Table-free text helpers for the domain's name rules and every reader of outside text. Not a
// library: each is a few lines, and the domain may depend on the standard library only.

#include <cstddef>
#include <optional>
#include <string_view>

namespace petstore::domain::unicode {

// decode_next: the code point at the front of `text`, whose bytes are then dropped from `text`;
// nullopt when those bytes are not well-formed UTF-8 (overlong forms, surrogates, values past
// U+10FFFF and truncated sequences are all rejected). REQUIRES: !text.empty().
[[nodiscard]] std::optional<char32_t> decode_next(std::string_view& text) noexcept;

// valid_utf8_prefix: the offset of the first byte decode_next rejects, or text.size().
[[nodiscard]] std::size_t valid_utf8_prefix(std::string_view text) noexcept;

// hex_digit: the value of an ASCII hex digit (either case), or -1 for any other character.
[[nodiscard]] int hex_digit(char c) noexcept;

// lone_high_surrogate_escape_end: the offset just past the first escape of a high surrogate
// (\uD800-\uDBFF) in `json_text` that no escape of a low surrogate follows; npos when there is
// none. Every backslash is taken to begin an escape, which is right for text that is valid JSON
// up to there. Example: "\"\\ud800\"" gives 7.
[[nodiscard]] std::size_t lone_high_surrogate_escape_end(std::string_view json_text) noexcept;

// is_white_space: true for the 25 code points with the Unicode White_Space property. Inline, like
// is_ascii_control, since a name's every code point asks both.
[[nodiscard]] inline bool is_white_space(char32_t c) noexcept {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

// is_ascii_control: U+0000-U+001F and U+007F, the controls the contract forbids in names.
[[nodiscard]] inline bool is_ascii_control(char32_t c) noexcept { return c <= 0x1F || c == 0x7F; }

}  // namespace petstore::domain::unicode

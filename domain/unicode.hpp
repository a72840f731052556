#pragma once
// Small, table-free Unicode helpers the domain's name rule needs. Kept here, not in a library,
// because they are a few lines each and the domain may depend on the standard library only.

#include <optional>
#include <string_view>

namespace petstore::domain::unicode {

// decode_next: the code point at the front of `text`, whose bytes are then dropped from `text`;
// nullopt when those bytes are not well-formed UTF-8 (overlong forms, surrogates, values past
// U+10FFFF and truncated sequences are all rejected). REQUIRES: !text.empty().
[[nodiscard]] std::optional<char32_t> decode_next(std::string_view& text) noexcept;

// is_white_space: true for the 25 code points with the Unicode White_Space property.
[[nodiscard]] bool is_white_space(char32_t code_point) noexcept;

// is_ascii_control: U+0000-U+001F and U+007F, the controls the contract forbids in names.
[[nodiscard]] bool is_ascii_control(char32_t code_point) noexcept;

}  // namespace petstore::domain::unicode

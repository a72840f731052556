#pragma once
// UTF-8 building blocks and rapidcheck generators for the name rule's tests: code points by class
// (visible, white space, control), and byte sequences that are not well-formed UTF-8. Every
// generator draws evenly over its whole range whatever rapidcheck's current size.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <rapidcheck.h>

namespace petstore::tests {

// The 25 code points with the Unicode White_Space property (PropList.txt).
inline constexpr std::array<char32_t, 25> white_space_code_points{
    0x09,   0x0A,   0x0B,   0x0C,   0x0D,   0x20,   0x85,   0xA0,   0x1680,
    0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
    0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000};

// utf8_in: `code_point` in the UTF-8 bit pattern of `length` bytes (1 to 4), whether or not that
// is its shortest form or a scalar value at all: tests build overlong forms and surrogates with it.
std::string utf8_in(std::size_t length, char32_t code_point);

// utf8: the well-formed (shortest) encoding of `code_point`, or of each of `code_points`.
std::string utf8(char32_t code_point);
std::string utf8(const std::vector<char32_t>& code_points);

bool is_listed_white_space(char32_t code_point);
bool is_control(char32_t code_point);  // U+0000-U+001F, U+007F

// A code point that may stand in a name and is not white space, of 1 to 4 UTF-8 bytes alike.
rc::Gen<char32_t> visible_code_point();
// A White_Space code point that is not a control (all 25 but U+0009-U+000D).
rc::Gen<char32_t> blank_code_point();
// A control character: U+0000-U+001F or U+007F.
rc::Gen<char32_t> control_code_point();
// Any code point a name may hold: visible or blank.
rc::Gen<char32_t> allowed_code_point();

// Code points of a valid name of `min` to `max` code points (1 <= min <= max): allowed code
// points with at least one visible among them.
rc::Gen<std::vector<char32_t>> name_code_points(std::size_t min, std::size_t max);

// Bytes that are ill-formed UTF-8 wherever they stand after whole code points: overlong forms,
// surrogates, values past U+10FFFF, truncated sequences, lone continuation and impossible bytes.
rc::Gen<std::string> ill_formed_utf8();

}  // namespace petstore::tests

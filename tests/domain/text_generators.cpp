#include "text_generators.hpp"

#include <algorithm>
#include <iterator>

namespace petstore::tests {
namespace {

// evenly: a value in [min, max], drawn evenly whatever rapidcheck's current size.
template <class T>
rc::Gen<T> evenly(T min, T max) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(min, max + 1));
}

rc::Gen<char32_t> code_point_in(std::uint32_t min, std::uint32_t max) {
  return rc::gen::map(evenly(min, max), [](std::uint32_t value) { return char32_t{value}; });
}

bool is_surrogate(char32_t code_point) { return code_point >= 0xD800 && code_point <= 0xDFFF; }

std::size_t shortest_length(char32_t code_point) {
  if (code_point < 0x80) {
    return 1;
  }
  if (code_point < 0x800) {
    return 2;
  }
  return code_point < 0x10000 ? 3 : 4;
}

}  // namespace

std::string utf8_in(std::size_t length, char32_t code_point) {
  static constexpr std::array<unsigned, 5> lead_bits{0x00, 0x00, 0xC0, 0xE0, 0xF0};
  std::string bytes(length, '\0');
  for (std::size_t i = length - 1; i > 0; --i) {
    bytes[i] = static_cast<char>(0x80U | (code_point & 0x3FU));
    code_point >>= 6U;
  }
  bytes[0] = static_cast<char>(lead_bits[length] | code_point);
  return bytes;
}

std::string utf8(char32_t code_point) { return utf8_in(shortest_length(code_point), code_point); }

std::string utf8(const std::vector<char32_t>& code_points) {
  std::string text;
  for (const char32_t code_point : code_points) {
    text += utf8(code_point);
  }
  return text;
}

bool is_listed_white_space(char32_t code_point) {
  return std::find(white_space_code_points.begin(), white_space_code_points.end(), code_point) !=
         white_space_code_points.end();
}

bool is_control(char32_t code_point) { return code_point <= 0x1F || code_point == 0x7F; }

rc::Gen<char32_t> visible_code_point() {
  const auto visible = [](char32_t code_point) {
    return !is_listed_white_space(code_point) && !is_surrogate(code_point);
  };
  // Look-alikes of white space and controls that the rule lets through: C1 controls, soft
  // hyphen, the Mongolian vowel separator (White_Space until Unicode 6.3), zero-width space,
  // word joiner, byte order mark.
  const std::vector<char32_t> near_misses{0x80, 0x9F, 0xAD, 0x180E, 0x200B, 0x2060, 0xFEFF};
  return rc::gen::oneOf(code_point_in(0x21, 0x7E),
                        rc::gen::suchThat(code_point_in(0x80, 0x7FF), visible),
                        rc::gen::suchThat(code_point_in(0x800, 0xFFFF), visible),
                        code_point_in(0x10000, 0x10FFFF), rc::gen::elementOf(near_misses));
}

rc::Gen<char32_t> blank_code_point() {
  std::vector<char32_t> blanks;
  std::copy_if(white_space_code_points.begin(), white_space_code_points.end(),
               std::back_inserter(blanks), [](char32_t c) { return !is_control(c); });
  return rc::gen::elementOf(blanks);
}

rc::Gen<char32_t> control_code_point() {
  return rc::gen::weightedOneOf<char32_t>(
      {{4, code_point_in(0x00, 0x1F)}, {1, rc::gen::just(char32_t{0x7F})}});
}

rc::Gen<char32_t> allowed_code_point() {
  return rc::gen::weightedOneOf<char32_t>({{3, visible_code_point()}, {1, blank_code_point()}});
}

rc::Gen<std::vector<char32_t>> name_code_points(std::size_t min, std::size_t max) {
  return rc::gen::exec([min, max] {
    const auto count = *evenly(min, max);
    auto code_points = *rc::gen::container<std::vector<char32_t>>(count - 1, allowed_code_point());
    const auto at = static_cast<std::ptrdiff_t>(*evenly<std::size_t>(0, count - 1));
    code_points.insert(code_points.begin() + at, *visible_code_point());
    return code_points;
  });
}

rc::Gen<std::string> ill_formed_utf8() {
  const auto overlong = rc::gen::exec([] {
    const auto length = *evenly<std::size_t>(2, 4);
    const std::uint32_t limit = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
    return utf8_in(length, *code_point_in(0, limit - 1));
  });
  const auto surrogate =
      rc::gen::map(code_point_in(0xD800, 0xDFFF), [](char32_t c) { return utf8_in(3, c); });
  const auto too_big =
      rc::gen::map(code_point_in(0x110000, 0x1FFFFF), [](char32_t c) { return utf8_in(4, c); });
  const auto truncated = rc::gen::exec([] {
    const auto bytes = utf8(*code_point_in(0x80, 0x10FFFF));
    return bytes.substr(0, *evenly<std::size_t>(1, bytes.size() - 1));
  });
  const auto lone_continuation = rc::gen::map(
      code_point_in(0x80, 0xBF), [](char32_t c) { return std::string(1, static_cast<char>(c)); });
  // F5-FF never start a sequence; the continuations after them do not make them whole.
  const auto impossible_lead = rc::gen::map(code_point_in(0xF5, 0xFF), [](char32_t c) {
    return std::string(1, static_cast<char>(c)) + "\x80\x80\x80";
  });
  return rc::gen::oneOf(overlong, surrogate, too_big, truncated, lone_continuation,
                        impossible_lead);
}

}  // namespace petstore::tests

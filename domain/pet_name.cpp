#include "domain/pet_name.hpp"

#include <string>
#include <utility>

#include "domain/unicode.hpp"

namespace petstore::domain {

Result<PetName> PetName::parse(std::string_view text, std::string_view field) {
  const auto invalid = [field](std::string_view rule) -> Error {
    std::string message(field);
    message.append(rule);
    return invalid_argument(std::string(field), std::move(message));
  };
  std::size_t code_points = 0;
  bool has_visible = false;
  for (std::string_view rest = text; !rest.empty();) {
    char32_t code_point = static_cast<unsigned char>(rest.front());
    if (code_point < 0x80) {
      rest.remove_prefix(1);  // ASCII, most names' every byte, needs no decoding
    } else if (const auto decoded = unicode::decode_next(rest)) {
      code_point = *decoded;
    } else {
      return invalid(" must be valid UTF-8");
    }
    if (unicode::is_ascii_control(code_point)) {
      return invalid(" must not contain control characters");
    }
    has_visible = has_visible || !unicode::is_white_space(code_point);
    ++code_points;
  }
  if (code_points == 0) {
    return invalid(" must not be empty");
  }
  if (code_points > max_code_points) {
    return invalid(" must be at most 200 characters");
  }
  if (!has_visible) {
    return invalid(" must contain a character that is not white space");
  }
  return PetName(text);
}

}  // namespace petstore::domain

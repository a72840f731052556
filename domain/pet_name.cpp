#include "domain/pet_name.hpp"

#include "domain/unicode.hpp"

namespace petstore::domain {

Result<PetName> PetName::parse(std::string_view text, std::string_view field) {
  const std::string name(field);
  std::size_t code_points = 0;
  bool has_visible = false;
  for (std::string_view rest = text; !rest.empty();) {
    const auto code_point = unicode::decode_next(rest);
    if (!code_point) {
      return invalid_argument(name, name + " must be valid UTF-8");
    }
    if (unicode::is_ascii_control(*code_point)) {
      return invalid_argument(name, name + " must not contain control characters");
    }
    has_visible = has_visible || !unicode::is_white_space(*code_point);
    ++code_points;
  }
  if (code_points == 0) {
    return invalid_argument(name, name + " must not be empty");
  }
  if (code_points > max_code_points) {
    return invalid_argument(name, name + " must be at most 200 characters");
  }
  if (!has_visible) {
    return invalid_argument(name, name + " must contain a character that is not white space");
  }
  return PetName(text);
}

}  // namespace petstore::domain

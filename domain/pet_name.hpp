#pragma once
// PetName: a pet's name, valid by construction (contract section 5): well-formed UTF-8 of 1 to 200
// code points, at least one of them not Unicode White_Space, none of them a control character
// U+0000-U+001F or U+007F. It is kept exactly as sent.

#include <cstddef>
#include <string>
#include <string_view>

#include "domain/error.hpp"

namespace petstore::domain {

class PetName {
 public:
  static constexpr std::size_t max_code_points = 200;

  // parse: the name if `text` satisfies every rule, else invalid_argument naming `field`. Also
  // re-validates names read back from storage or imported.
  [[nodiscard]] static Result<PetName> parse(std::string_view text,
                                             std::string_view field = "name");

  // trusted: a name this service wrote after parse accepted it, read back with its checksum
  // passed. REQUIRES: parse accepted `text`; anything else (an import, a failed checksum) goes
  // through parse.
  [[nodiscard]] static PetName trusted(std::string_view text) { return PetName(text); }

  [[nodiscard]] const std::string& value() const noexcept { return value_; }

  friend bool operator==(const PetName&, const PetName&) = default;

 private:
  // From a view, not a moved string: moving a short (inline) string copies it, once per pet read.
  explicit PetName(std::string_view text) : value_(text) {}
  std::string value_;
};

}  // namespace petstore::domain

#pragma once
// One pet as one line of JSON Lines, the format of `petstore export` and `import`: the API's Pet
// (docs/decisions/jsonl-format.md). Decoding is as strict as the API's (pet_json reads both) and
// also requires exactly the four members, with id >= 1. It never throws on any input.

#include <cstddef>
#include <string>
#include <string_view>

#include "adapters/pet_json/pet_object_reader.hpp"
#include "domain/error.hpp"
#include "domain/pet.hpp"

namespace petstore::adapters::jsonl {

// The longest line accepted, newline excluded. A valid pet needs well under 1 KiB.
inline constexpr std::size_t max_line_bytes = std::size_t{64} * 1024;

// append_pet_line: the pet's line, newline included, appended to `out`.
void append_pet_line(std::string& out, const domain::Pet& pet);

// PetLineDecoder: decodes lines one after another, reusing its parser's memory. Not thread-safe.
class PetLineDecoder {
 public:
  // decode: the pet `line` (without its newline) holds, or invalid_argument naming the member at
  // fault ("" for syntax). The first problem is reported, in this order: JSON syntax, an unknown
  // member, then id, name, categoryId, status.
  [[nodiscard]] domain::Result<domain::Pet> decode(std::string_view line);

 private:
  pet_json::PetObjectReader reader_{pet_json::JsonText::line};
};

// decode_pet_line: PetLineDecoder().decode(line), for a single line.
[[nodiscard]] domain::Result<domain::Pet> decode_pet_line(std::string_view line);

}  // namespace petstore::adapters::jsonl

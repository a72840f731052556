#pragma once
// One pet as one line of JSON Lines, the format of `petstore export` and `petstore import`:
// `{"id":1,"name":"Rex","categoryId":7,"status":"available"}`, the API's Pet. Decoding is as strict
// as the API's body decoding (UTF-8, no repeated member, integers within int64, no fraction or
// exponent; pet_json reads and writes both) and also requires exactly these four members, with
// id >= 1. It never throws on any input, and its messages never copy input bytes beyond a short,
// plain member name.

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
  // decode: the pet `line` (without its newline) holds, or invalid_argument whose message says
  // why, e.g. "name must not be empty". The field is the member at fault ("" for syntax).
  // Problems are reported in this order: JSON syntax (the first in the text, with its column:
  // "the line is not valid JSON (column 12)"), an unknown member (the first), then id, name,
  // categoryId, status.
  [[nodiscard]] domain::Result<domain::Pet> decode(std::string_view line);

 private:
  pet_json::PetObjectReader reader_{pet_json::JsonText::line};
};

// decode_pet_line: PetLineDecoder().decode(line), for a single line.
[[nodiscard]] domain::Result<domain::Pet> decode_pet_line(std::string_view line);

}  // namespace petstore::adapters::jsonl

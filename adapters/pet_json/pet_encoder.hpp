#pragma once
// The pet's JSON, for the API and the data tools alike:
// `{"id":1,"name":"Rex","categoryId":7,"status":"available"}`. Encoders append to a caller's
// buffer, always produce valid UTF-8 JSON and throw only std::bad_alloc.

#include <span>
#include <string>
#include <string_view>

#include "domain/pet.hpp"

namespace petstore::adapters::pet_json {

// append_json_string: `text` as a JSON string literal, quotes included: `"`, `\` and controls
// escaped, other UTF-8 unchanged, each byte of ill-formed UTF-8 U+FFFD.
void append_json_string(std::string& out, std::string_view text);

// append_pet: the pet object above, always all four members in that order, compact.
void append_pet(std::string& out, const domain::Pet& pet);

// append_pets: a JSON array of append_pet objects, in the order given (`[]` when empty).
void append_pets(std::string& out, std::span<const domain::Pet> pets);

}  // namespace petstore::adapters::pet_json

#pragma once
// The pet's JSON, written: the API's Pet and a page of them, and the data tools' lines, are all
// `{"id":1,"name":"Rex","categoryId":7,"status":"available"}`. Encoders append to a caller's
// buffer, always produce valid UTF-8 JSON and do not throw except std::bad_alloc.

#include <span>
#include <string>
#include <string_view>

#include "domain/pet.hpp"

namespace petstore::adapters::pet_json {

// append_json_string: `text` as a JSON string literal, quotes included. `"`, `\` and the control
// characters U+0000-U+001F and U+007F are escaped; other UTF-8 passes through unchanged, and each
// byte that is not part of well-formed UTF-8 becomes U+FFFD, so the output is always valid JSON.
void append_json_string(std::string& out, std::string_view text);

// append_pet: the pet object above, always all four members in that order, compact.
void append_pet(std::string& out, const domain::Pet& pet);

// append_pets: a JSON array of append_pet objects, in the order given (`[]` when empty).
void append_pets(std::string& out, std::span<const domain::Pet> pets);

}  // namespace petstore::adapters::pet_json

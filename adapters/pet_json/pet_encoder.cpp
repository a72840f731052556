// Straight into the caller's buffer, without a JSON tree: one append per pet.

#include "adapters/pet_json/pet_encoder.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>

#include "domain/unicode.hpp"

namespace petstore::adapters::pet_json {
namespace {

constexpr std::string_view hex_digits = "0123456789abcdef";

void append_escaped_control(std::string& out, unsigned char byte) {
  constexpr std::string_view short_escapes = "btn_fr";  // \b to \r; JSON has no \v
  if (byte >= '\b' && byte <= '\r' && byte != '\v') {
    out += '\\';
    out += short_escapes[byte - '\b'];
    return;
  }
  out += "\\u00";
  out += hex_digits[byte >> 4U];
  out += hex_digits[byte & 0x0FU];
}

// needs_escaping: whether a valid name (no controls) holds '"' or '\\', all JSON escapes in one.
bool needs_escaping(std::string_view name) {
  return std::memchr(name.data(), '"', name.size()) != nullptr ||
         std::memchr(name.data(), '\\', name.size()) != nullptr;
}

char* put(char* at, std::string_view text) { return std::copy(text.begin(), text.end(), at); }

// The member names and two 64-bit integers of a pet object, beside its name and status.
constexpr std::size_t pet_fixed_bytes = 48 + 2 * 20;
// A name of at most 200 code points has at most 4 bytes for each, escaped or not: a valid name
// escapes only '"' and '\\', one byte each, into two.
constexpr std::size_t max_name_bytes = 4 * domain::PetName::max_code_points;
constexpr std::size_t max_pet_bytes = pet_fixed_bytes + max_name_bytes + 16;

// append_pet_object: with `json_name` (the name's JSON string without quotes), built on the stack
// and appended in one piece: listPets' hot path, and an export writes millions.
void append_pet_object(std::string& out, const domain::Pet& pet, std::string_view json_name) {
  std::array<char, max_pet_bytes> text;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  char* const end = text.data() + text.size();
  char* at = put(text.data(), R"({"id":)");
  at = std::to_chars(at, end, pet.id.value).ptr;
  at = put(at, R"(,"name":")");
  at = put(at, json_name);
  at = put(at, R"(","categoryId":)");
  at = std::to_chars(at, end, pet.category_id.value).ptr;
  at = put(at, R"(,"status":")");
  at = put(at, domain::to_string(pet.status));  // a fixed, plain word: nothing to escape
  at = put(at, R"("})");
  out.append(text.data(), at);
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  while (!text.empty()) {
    // Copy the longest run that needs no attention in one append.
    const auto run = static_cast<std::size_t>(
        std::find_if(text.begin(), text.end(),
                     [](char c) {
                       const auto byte = static_cast<unsigned char>(c);
                       return byte < 0x20U || byte >= 0x7FU || byte == '"' || byte == '\\';
                     }) -
        text.begin());
    out.append(text.data(), run);
    text.remove_prefix(run);
    if (text.empty()) {
      break;
    }
    const auto byte = static_cast<unsigned char>(text.front());
    if (byte == '"' || byte == '\\') {
      out += '\\';
      out += static_cast<char>(byte);
      text.remove_prefix(1);
    } else if (byte < 0x20U || byte == 0x7FU) {
      append_escaped_control(out, byte);
      text.remove_prefix(1);
    } else {
      const std::string_view before = text;
      if (domain::unicode::decode_next(text)) {
        out.append(before.data(), before.size() - text.size());
      } else {
        out += "\\ufffd";
        text.remove_prefix(1);
      }
    }
  }
  out += '"';
}

void append_pet(std::string& out, const domain::Pet& pet) {
  const std::string_view name = pet.name.value();
  if (!needs_escaping(name)) {
    append_pet_object(out, pet, name);
    return;
  }
  std::string quoted;
  append_json_string(quoted, name);
  append_pet_object(out, pet, std::string_view(quoted).substr(1, quoted.size() - 2));
}

void append_pets(std::string& out, std::span<const domain::Pet> pets) {
  std::size_t bound = out.size() + 2 + pets.size();  // brackets and commas
  for (const domain::Pet& pet : pets) {
    // At least what append_pet writes for a plain name.
    bound += pet_fixed_bytes + pet.name.value().size() + domain::to_string(pet.status).size();
  }
  out.reserve(bound);  // one allocation for a page of plain names
  out += '[';
  for (const domain::Pet& pet : pets) {
    if (&pet != pets.data()) {
      out += ',';
    }
    append_pet(out, pet);
  }
  out += ']';
}

}  // namespace petstore::adapters::pet_json

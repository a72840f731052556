// The encoders of pet_json.hpp. They write straight into the caller's buffer, without building a
// JSON tree first: a list of 100 pets is one append per member.

#include "adapters/http/pet_json.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>

#include "domain/unicode.hpp"

namespace petstore::adapters::http {
namespace {

constexpr std::string_view hex_digits = "0123456789abcdef";

void append_escaped_control(std::string& out, unsigned char byte) {
  switch (byte) {
    case '\b':
      out += "\\b";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      out += "\\u00";
      out += hex_digits[byte >> 4U];
      out += hex_digits[byte & 0x0FU];
      return;
  }
}

template <class Integer>
void append_integer(std::string& out, Integer value) {
  std::array<char, 24> digits{};
  const auto [end, error] = std::to_chars(digits.data(), digits.data() + digits.size(), value);
  (void)error;  // 24 characters hold every 64-bit integer
  out.append(digits.data(), end);
}

}  // namespace

std::string_view to_code(BodyProblem problem) noexcept {
  return problem == BodyProblem::invalid_json ? "invalid_json" : "validation_failed";
}

void throw_exception_from_error(const DecodeError& error, const boost::source_location& /*where*/) {
  throw std::invalid_argument(error.message);
}

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  while (!text.empty()) {
    // Copy the longest run that needs no attention in one append.
    std::size_t run = 0;
    while (run < text.size()) {
      const auto byte = static_cast<unsigned char>(text[run]);
      if (byte < 0x20U || byte >= 0x7FU || byte == '"' || byte == '\\') {
        break;
      }
      ++run;
    }
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

namespace {

// needs_escaping: whether any byte of `text` is outside printable ASCII or is '"' or '\\'.
bool needs_escaping(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20U || byte >= 0x7FU || byte == '"' || byte == '\\') {
      return true;
    }
  }
  return false;
}

char* put(char* at, std::string_view text) { return std::copy(text.begin(), text.end(), at); }

// append_plain_pet: append_pet for a name that needs no escaping, the common case, written into
// the buffer in one piece (a page of pets is the hot path of listPets).
void append_plain_pet(std::string& out, const domain::Pet& pet) {
  const std::string_view name = pet.name.value();
  const std::string_view status = domain::to_string(pet.status);
  constexpr std::size_t fixed = 48 + 2 * 20;  // the member names and two 64-bit integers
  const std::size_t start = out.size();
  out.resize(start + fixed + name.size() + status.size());
  char* const end = out.data() + out.size();
  char* at = put(out.data() + start, R"({"id":)");
  at = std::to_chars(at, end, pet.id.value).ptr;
  at = put(at, R"(,"name":")");
  at = put(at, name);
  at = put(at, R"(","categoryId":)");
  at = std::to_chars(at, end, pet.category_id.value).ptr;
  at = put(at, R"(,"status":")");
  at = put(at, status);
  at = put(at, R"("})");
  out.resize(static_cast<std::size_t>(at - out.data()));
}

}  // namespace

void append_pet(std::string& out, const domain::Pet& pet) {
  if (!needs_escaping(pet.name.value())) {
    append_plain_pet(out, pet);
    return;
  }
  out += R"({"id":)";
  append_integer(out, pet.id.value);
  out += R"(,"name":)";
  append_json_string(out, pet.name.value());
  out += R"(,"categoryId":)";
  append_integer(out, pet.category_id.value);
  out += R"(,"status":")";
  out += domain::to_string(pet.status);  // a fixed, plain word: nothing to escape
  out += R"("})";
}

void append_pets(std::string& out, std::span<const domain::Pet> pets) {
  out += '[';
  bool first = true;
  for (const domain::Pet& pet : pets) {
    if (!first) {
      out += ',';
    }
    first = false;
    append_pet(out, pet);
  }
  out += ']';
}

std::string encode_error(std::string_view code, std::string_view message, int status) {
  std::string out;
  out.reserve(48 + code.size() + message.size());
  out += R"({"code":)";
  append_json_string(out, code);
  out += R"(,"message":)";
  append_json_string(out, message);
  out += R"(,"status":)";
  append_integer(out, status);
  out += '}';
  return out;
}

}  // namespace petstore::adapters::http

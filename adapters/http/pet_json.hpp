#pragma once
// The JSON codec of the HTTP adapter: a NewPet read from a request body (contract sections 2-5)
// and Pets and Error bodies written into responses. Decoding never throws on any input; messages
// name the offending member and never copy request bytes beyond a short, plain member name.
// Encoders append to a caller's buffer, always produce valid UTF-8 JSON and do not throw except
// std::bad_alloc.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <boost/system/result.hpp>

#include "domain/pet.hpp"

namespace petstore::adapters::http {

// BodyProblem: which 400 a rejected body earns; to_code gives the contract's `code` for it.
enum class BodyProblem : std::uint8_t {
  invalid_json,       // not UTF-8 JSON, not an object, a repeated member name, too deeply nested
  validation_failed,  // a well-formed object that breaks a NewPet rule
};

// to_code: "invalid_json" or "validation_failed".
[[nodiscard]] std::string_view to_code(BodyProblem problem) noexcept;

// DecodeError: the problem and a message for the Error body, e.g. `categoryId must be an integer
// within int64`. The message is printable ASCII.
struct DecodeError {
  BodyProblem problem = BodyProblem::invalid_json;
  std::string message;

  friend bool operator==(const DecodeError&, const DecodeError&) = default;
};

// Found by argument-dependent lookup from DecodeResult::value(); throws std::invalid_argument.
[[noreturn]] void throw_exception_from_error(const DecodeError& error,
                                             const boost::source_location& where);

// DecodeResult: either the NewPet or why the body was refused.
using DecodeResult = boost::system::result<domain::NewPet, DecodeError>;

// max_json_depth: the deepest nesting of arrays and objects a body may have (the NewPet itself
// needs 1); deeper bodies are invalid_json.
inline constexpr std::size_t max_json_depth = 32;

// decode_new_pet: the NewPet that `body` describes. The whole body must be one JSON object (white
// space around it allowed). invalid_json problems are reported first, the first one in the text;
// then validation problems in this order: an unknown member (the first one in the text; `id` has
// its own message), name, categoryId, status. A missing status means available.
// Example: decode_new_pet(R"({"name":"Rex","categoryId":7})") holds {Rex, 7, available}.
[[nodiscard]] DecodeResult decode_new_pet(std::string_view body);

// append_json_string: `text` as a JSON string literal, quotes included. `"`, `\` and the control
// characters U+0000-U+001F and U+007F are escaped; other UTF-8 passes through unchanged, and each
// byte that is not part of well-formed UTF-8 becomes U+FFFD, so the output is always valid JSON.
void append_json_string(std::string& out, std::string_view text);

// append_pet: `{"id":1,"name":"Rex","categoryId":7,"status":"available"}`, always all four members.
void append_pet(std::string& out, const domain::Pet& pet);

// append_pets: a JSON array of append_pet objects, in the order given (`[]` when empty).
void append_pets(std::string& out, std::span<const domain::Pet> pets);

// encode_error: the contract's Error body, `{"code":"...","message":"...","status":N}`.
[[nodiscard]] std::string encode_error(std::string_view code, std::string_view message, int status);

}  // namespace petstore::adapters::http

#pragma once
// The HTTP adapter's own JSON: a NewPet read from a request body (contract sections 2-5) and the
// Error body. Decoding never throws on any input; messages name the offending member and never
// copy request bytes beyond a short, plain member name. Pets are written by adapters/pet_json.

#include <cstddef>
#include <cstdint>
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

using DecodeResult = boost::system::result<domain::NewPet, DecodeError>;

// decode_new_pet: the NewPet that `body` describes. The whole body must be one JSON object (white
// space around it allowed). invalid_json problems are reported first, the first one in the text
// and where it is (pet_json::PetObjectReader); then validation problems in this order: an unknown
// member (the first one in the text; `id` has its own message), name, categoryId, status. A missing
// status means available. Example: decode_new_pet(R"({"name":"Rex","categoryId":7})") holds {Rex,
// 7, available}.
[[nodiscard]] DecodeResult decode_new_pet(std::string_view body);

// encode_error: the contract's Error body, `{"code":"...","message":"...","status":N}`.
[[nodiscard]] std::string encode_error(std::string_view code, std::string_view message, int status);

}  // namespace petstore::adapters::http

#pragma once
// The HTTP adapter's own JSON: a NewPet read from a request body (contract sections 2-5) and the
// Error body. Decoding never throws; messages name the offending member. Pets: adapters/pet_json.

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

// DecodeError: the problem and a printable ASCII message for the Error body.
struct DecodeError {
  BodyProblem problem = BodyProblem::invalid_json;
  std::string message;

  friend bool operator==(const DecodeError&, const DecodeError&) = default;
};

// Found by argument-dependent lookup from DecodeResult::value(); throws std::invalid_argument.
[[noreturn]] void throw_exception_from_error(const DecodeError& error,
                                             const boost::source_location& where);

using DecodeResult = boost::system::result<domain::NewPet, DecodeError>;

// decode_new_pet: the NewPet that `body`, one JSON object, describes. The first problem is
// reported: invalid_json (pet_json::PetObjectReader), then an unknown member (`id` has its own
// message), name, categoryId, status. A missing status means available.
[[nodiscard]] DecodeResult decode_new_pet(std::string_view body);

// encode_error: the contract's Error body, `{"code":"...","message":"...","status":N}`.
[[nodiscard]] std::string encode_error(std::string_view code, std::string_view message, int status);

}  // namespace petstore::adapters::http

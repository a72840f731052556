// The Error body and the codes of pet_json.hpp.

#include "adapters/http/api/pet_json.hpp"

#include <stdexcept>

#include "adapters/http/api/ascii.hpp"
#include "adapters/pet_json/pet_encoder.hpp"

namespace petstore::adapters::http {

std::string_view to_code(BodyProblem problem) noexcept {
  return problem == BodyProblem::invalid_json ? "invalid_json" : "validation_failed";
}

void throw_exception_from_error(const DecodeError& error, const boost::source_location& /*where*/) {
  throw std::invalid_argument(error.message);
}

std::string encode_error(std::string_view code, std::string_view message, int status) {
  std::string out;
  out.reserve(48 + code.size() + message.size());
  out += R"({"code":)";
  pet_json::append_json_string(out, code);
  out += R"(,"message":)";
  pet_json::append_json_string(out, message);
  out += R"(,"status":)";
  append_decimal(out, status);
  out += '}';
  return out;
}

}  // namespace petstore::adapters::http

#pragma once
// The contract's Error responses (section 3): `{"code","message","status"}` with the matching HTTP
// status. This is the one place that maps the core's error vocabulary to HTTP.

#include <string_view>

#include "adapters/http/http_message.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::http {

// error_response: a response with status `status` whose body is the Error object.
[[nodiscard]] HttpResponse error_response(unsigned status, std::string_view code,
                                          std::string_view message);

// error_response: the response for a core error. invalid_argument becomes 400 with
// `invalid_argument_code` (validation_failed or invalid_parameter, depending on where it arose).
[[nodiscard]] HttpResponse error_response(const domain::Error& error,
                                          std::string_view invalid_argument_code);

// unauthorized: 401 with the WWW-Authenticate challenge of RFC 6750; `key_presented` adds
// error="invalid_token".
[[nodiscard]] HttpResponse unauthorized(bool key_presented);

}  // namespace petstore::adapters::http

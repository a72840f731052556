#pragma once
// The contract's Error responses (section 3): `{"code","message","status"}` with the matching HTTP
// status. This is the one place that maps the core's error vocabulary to HTTP.

#include <string_view>

#include "adapters/http/api/http_message.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::http {

// unavailable_retry_after_seconds: the Retry-After of every 503 (contract section 11): a 503's
// cause clears within seconds or outlasts any wait (docs/decisions/retry-after-on-503.md).
inline constexpr int unavailable_retry_after_seconds = 1;

// error_response: `status` with the Error object. Every 503 is made here, with its Retry-After.
[[nodiscard]] HttpResponse error_response(unsigned status, std::string_view code,
                                          std::string_view message);

// error_response: the response for a core error. invalid_argument becomes 400 with
// `invalid_argument_code` (validation_failed or invalid_parameter, depending on where it arose);
// unauthenticated, 401 with RFC 6750's WWW-Authenticate challenge.
[[nodiscard]] HttpResponse error_response(const domain::Error& error,
                                          std::string_view invalid_argument_code);

// refusal: an Error response with the /v1 headers, for a request refused before routing (it may
// have been meant for /v1).
[[nodiscard]] HttpResponse refusal(unsigned status, std::string_view code,
                                   std::string_view message);

}  // namespace petstore::adapters::http

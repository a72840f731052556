#pragma once
// The responses the session itself gives when a request cannot be read (Beast's read errors).

#include <optional>
#include <string_view>

#include <boost/system/error_code.hpp>

#include "adapters/http/api/http_message.hpp"

namespace petstore::adapters::http {

// refusal: an Error response the session sends itself, with the headers every /v1 response has
// (a request refused before routing may have been meant for /v1).
[[nodiscard]] HttpResponse refusal(unsigned status, std::string_view code,
                                   std::string_view message);

// response_to_read_error: the answer to a request that failed to be read with `error` (431, 413
// or 400), or nullopt when the client is gone or too slow and deserves no answer.
[[nodiscard]] std::optional<HttpResponse> response_to_read_error(
    const boost::system::error_code& error);

}  // namespace petstore::adapters::http

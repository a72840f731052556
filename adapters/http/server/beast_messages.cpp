#include "adapters/http/server/beast_messages.hpp"

#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http/error.hpp>

#include "adapters/http/api/ascii.hpp"
#include "adapters/http/api/error_response.hpp"
#include "adapters/http/server/request_framing.hpp"

namespace petstore::adapters::http {
namespace bhttp = boost::beast::http;
void take_first(std::optional<std::string_view>& taken, bool* repeated, std::string_view value) {
  if (!taken) {
    taken = value;
  } else if (repeated != nullptr) {
    *repeated = true;
  }
}

// One pass over the fields in the order they came, rather than a lookup per field of interest:
// a request has few fields, and this runs for every request.
HttpRequest to_http_request(const BeastRequest& request) {
  HttpRequest converted;
  converted.method = request.method_string();
  converted.target = request.target();
  converted.body = request.body();
  for (const auto& field : request) {
    const std::string_view value = field.value();
    switch (field.name()) {
      case bhttp::field::authorization:
        take_first(converted.authorization, &converted.authorization_repeated, value);
        break;
      case bhttp::field::content_type:
        take_first(converted.content_type, &converted.content_type_repeated, value);
        break;
      case bhttp::field::content_encoding:
        take_first(converted.content_encoding, nullptr, value);
        break;
      case bhttp::field::if_none_match:
        take_first(converted.if_none_match, nullptr, value);
        break;
      case bhttp::field::accept_encoding:
        take_first(converted.accept_encoding, nullptr, value);
        break;
      case bhttp::field::origin:
        take_first(converted.origin, nullptr, value);
        break;
      case bhttp::field::access_control_request_method:
        take_first(converted.access_control_request_method, nullptr, value);
        break;
      case bhttp::field::unknown:
        if (equals_ignoring_case(field.name_string(), "X-Forwarded-For")) {
          converted.forwarded_for.append(converted.forwarded_for.empty() ? "" : ",").append(value);
        } else if (equals_ignoring_case(field.name_string(), "Idempotency-Key")) {
          take_first(converted.idempotency_key, &converted.idempotency_key_repeated, value);
        }
        break;
      default:
        break;
    }
  }
  return converted;
}

HttpResponse refusal(unsigned status, std::string_view code, std::string_view message) {
  HttpResponse response = error_response(status, code, message);
  response.set_header("Cache-Control", "no-store");
  response.set_header("X-Content-Type-Options", "nosniff");
  return response;
}

std::optional<HttpResponse> response_to_read_error(const boost::system::error_code& error) {
  if (error == bhttp::error::header_limit) {
    return refusal(431, "request_header_fields_too_large",
                   "the request headers (or a chunked body's trailer fields) are larger than the "
                   "server accepts");
  }
  if (error == bhttp::error::body_limit) {
    return refusal(413, "payload_too_large", "the request body is larger than the server accepts");
  }
  if (error == bhttp::error::bad_chunk || error == bhttp::error::bad_chunk_extension) {
    return refusal(400, "invalid_parameter",
                   "the chunked body is malformed, or a chunk-size line is longer than " +
                       std::to_string(max_chunk_line_bytes) + " bytes");
  }
  if (error.category() == bhttp::make_error_code(bhttp::error::bad_method).category() &&
      error != bhttp::error::end_of_stream && error != bhttp::error::partial_message) {
    return refusal(400, "invalid_parameter", "the request is not valid HTTP/1.1");
  }
  return std::nullopt;
}

}  // namespace petstore::adapters::http

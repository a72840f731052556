#include "adapters/http/server/beast_messages.hpp"

#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http/error.hpp>

#include "adapters/http/api/error_response.hpp"
#include "adapters/http/server/request_framing.hpp"

namespace petstore::adapters::http {
namespace bhttp = boost::beast::http;

HttpResponse refusal(unsigned status, std::string_view code, std::string_view message) {
  HttpResponse response = error_response(status, code, message);
  response.v1_fields = true;
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

#include "adapters/http/beast_messages.hpp"

#include <string>

#include <boost/beast/http/error.hpp>

#include "adapters/http/error_response.hpp"
#include "adapters/http/request_framing.hpp"

namespace petstore::adapters::http {
namespace bhttp = boost::beast::http;
HttpRequest to_http_request(const BeastRequest& request) {
  HttpRequest converted;
  converted.method = request.method_string();
  converted.target = request.target();
  converted.body = request.body();
  if (const auto found = request.find(bhttp::field::authorization); found != request.end()) {
    converted.authorization = found->value();
    converted.authorization_repeated = request.count(bhttp::field::authorization) > 1;
  }
  if (const auto found = request.find(bhttp::field::content_type); found != request.end()) {
    converted.content_type = found->value();
    converted.content_type_repeated = request.count(bhttp::field::content_type) > 1;
  }
  if (const auto found = request.find(bhttp::field::content_encoding); found != request.end()) {
    converted.content_encoding = found->value();
  }
  const auto [first, last] = request.equal_range("X-Forwarded-For");
  for (auto field = first; field != last; ++field) {
    converted.forwarded_for.append(converted.forwarded_for.empty() ? "" : ",")
        .append(field->value());
  }
  if (const auto found = request.find(bhttp::field::if_none_match); found != request.end()) {
    converted.if_none_match = found->value();
  }
  if (const auto found = request.find(bhttp::field::accept_encoding); found != request.end()) {
    converted.accept_encoding = found->value();
  }
  if (const auto found = request.find("Idempotency-Key"); found != request.end()) {
    converted.idempotency_key = found->value();
    converted.idempotency_key_repeated = request.count("Idempotency-Key") > 1;
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

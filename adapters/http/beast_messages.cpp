#include "adapters/http/beast_messages.hpp"

#include <boost/beast/http/error.hpp>

#include "adapters/http/error_response.hpp"

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
  }
  if (const auto found = request.find("Idempotency-Key"); found != request.end()) {
    converted.idempotency_key = found->value();
    converted.idempotency_key_repeated = request.count("Idempotency-Key") > 1;
  }
  return converted;
}

std::optional<HttpResponse> response_to_read_error(const boost::system::error_code& error) {
  std::optional<HttpResponse> response;
  if (error == bhttp::error::header_limit) {
    response = error_response(431, "request_header_fields_too_large",
                              "the request headers are larger than the server accepts");
  } else if (error == bhttp::error::body_limit) {
    response = error_response(413, "payload_too_large",
                              "the request body is larger than the server accepts");
  } else if (error.category() == bhttp::make_error_code(bhttp::error::bad_method).category() &&
             error != bhttp::error::end_of_stream && error != bhttp::error::partial_message) {
    response = error_response(400, "invalid_parameter", "the request is not valid HTTP/1.1");
  }
  if (response) {
    response->set_header("Cache-Control", "no-store");
    response->set_header("X-Content-Type-Options", "nosniff");
  }
  return response;
}

}  // namespace petstore::adapters::http

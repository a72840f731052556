#include "adapters/http/beast_messages.hpp"

#include <chrono>
#include <ctime>
#include <string>

#include <boost/beast/http/error.hpp>

#include "adapters/http/error_response.hpp"

namespace petstore::adapters::http {
namespace bhttp = boost::beast::http;
namespace {

// The IMF-fixdate of now, formatted at most once a second per thread.
const std::string& http_date_now() {
  thread_local std::time_t cached_second = 0;
  thread_local std::string cached;
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  if (now != cached_second) {
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[64];
    const auto length = std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &utc);
    cached.assign(text, length);
    cached_second = now;
  }
  return cached;
}

}  // namespace

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

BeastResponse to_beast_response(HttpResponse response, unsigned version, bool keep_alive) {
  BeastResponse message{static_cast<bhttp::status>(response.status), version};
  message.set(bhttp::field::date, http_date_now());
  if (!response.body.empty() && !response.header("Content-Type")) {
    message.set(bhttp::field::content_type, "application/json");
  }
  for (auto& [name, value] : response.headers) {
    message.insert(name, value);
  }
  message.body() = std::move(response.body);
  message.keep_alive(keep_alive);
  message.prepare_payload();
  return message;
}

void omit_body_keeping_length(BeastResponse& response) {
  const auto length = response.body().size();
  response.body().clear();
  response.content_length(length);
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

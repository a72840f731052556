#include "adapters/http/api/error_response.hpp"

#include <algorithm>
#include <string>

#include "adapters/http/api/pet_json.hpp"

namespace petstore::adapters::http {
namespace {

// fault_words: what the log says of a failure: its message, then the adapter's detail if any.
std::string fault_words(const domain::Error& error) {
  return error.detail.empty() ? error.message : error.message + ": " + error.detail;
}

}  // namespace

HttpResponse error_response(unsigned status, std::string_view code, std::string_view message) {
  HttpResponse response;
  response.status = status;
  response.body = encode_error(code, message, static_cast<int>(status));
  if (status == 503) {
    response.set_header("Retry-After", std::to_string(unavailable_retry_after_seconds));
  }
  return response;
}

HttpResponse refusal(unsigned status, std::string_view code, std::string_view message) {
  HttpResponse response = error_response(status, code, message);
  response.v1_fields = true;
  return response;
}

HttpResponse unanswered() {
  HttpResponse response =
      refusal(500, "internal_error", "the server failed to answer this request");
  response.fault = "the request's reply was dropped without an answer";
  return response;
}

HttpResponse error_response(const domain::Error& error, std::string_view invalid_argument_code) {
  using domain::ErrorCode;
  switch (error.code) {
    case ErrorCode::invalid_argument:
      return error_response(400, invalid_argument_code, error.message);
    case ErrorCode::not_found:
      return error_response(404, "not_found", error.message);
    case ErrorCode::unauthenticated: {
      // A presented key was refused: error="invalid_token" (RFC 6750 section 3).
      const bool presented = !error.field.empty();
      HttpResponse response =
          error_response(401, "unauthorized",
                         presented ? "the API key in the Authorization header is not accepted"
                                   : "an API key is required: send Authorization: Bearer <key>");
      response.set_header("WWW-Authenticate",
                          presented ? R"(Bearer realm="petstore", error="invalid_token")"
                                    : R"(Bearer realm="petstore")");
      return response;
    }
    case ErrorCode::permission_denied:
      return error_response(403, "forbidden", error.message);
    case ErrorCode::conflict:
      // The one conflict under /v1: the core says which rule, the words are HTTP's.
      return error_response(422, "idempotency_key_reused",
                            "Idempotency-Key was already used with a different body");
    case ErrorCode::resource_exhausted: {
      HttpResponse response = error_response(429, "too_many_requests", error.message);
      response.set_header("Retry-After",
                          std::to_string(std::max<std::int64_t>(1, error.retry_after_seconds)));
      return response;
    }
    case ErrorCode::unavailable: {
      HttpResponse response = error_response(503, "unavailable", error.message);
      response.fault = fault_words(error);
      return response;
    }
    case ErrorCode::unimplemented:
      return error_response(501, "not_implemented", error.message);
    case ErrorCode::internal:
      break;
  }
  // An internal error's message may carry details meant for logs, never for clients.
  HttpResponse response =
      error_response(500, "internal_error", "the server failed to answer this request");
  response.fault = fault_words(error);
  return response;
}

}  // namespace petstore::adapters::http

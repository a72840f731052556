#include "application/authenticate.hpp"

namespace petstore::application {

domain::Result<ports::Principal> Authenticate::operator()(const Credential& credential) const {
  const bool presented = credential.bearer_token || credential.malformed;
  if (credential.bearer_token) {
    auto principal = keys_.verify(*credential.bearer_token);
    if (principal || principal.error().code != domain::ErrorCode::unauthenticated) {
      return principal;  // accepted, or the verifier failed: not the client's fault
    }
  }
  if (const auto wait = throttle_.record_failure(credential.client_address); wait.count() > 0) {
    auto error = domain::make_error(domain::ErrorCode::resource_exhausted, "Authorization",
                                    "too many failed authentications from this address");
    error.retry_after_seconds = wait.count();
    return error;
  }
  if (!presented) {
    return domain::make_error(domain::ErrorCode::unauthenticated, "",
                              "an API key is required: send Authorization: Bearer <key>");
  }
  return domain::make_error(domain::ErrorCode::unauthenticated, "token",
                            "the API key in the Authorization header is not accepted");
}

}  // namespace petstore::application

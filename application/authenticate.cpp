#include "application/authenticate.hpp"

#include <cstdint>

namespace petstore::application {

domain::Result<void> authorize_write(const ports::Principal& principal) {
  if (principal.access == ports::KeyAccess::read_only) {
    return domain::make_error(domain::ErrorCode::permission_denied, "",
                              "this API key is read-only: it may list and get pets, not create");
  }
  return {};
}

domain::Result<ports::Principal> Authenticate::operator()(const Credential& credential,
                                                          AcceptedKeyMemo* memo) const {
  const bool presented = credential.bearer_token || credential.malformed;
  if (credential.bearer_token) {
    // Read before verifying: a reload in between leaves the memo stale, never wrongly fresh.
    const std::uint64_t key_set_version = keys_.key_set_version();
    if (memo != nullptr) {
      if (const ports::Principal* known = memo->recall(*credential.bearer_token, key_set_version)) {
        return *known;
      }
    }
    auto principal = keys_.verify(*credential.bearer_token);
    if (principal && memo != nullptr) {
      memo->remember(*credential.bearer_token, key_set_version, *principal);
    }
    if (principal || principal.error().code != domain::ErrorCode::unauthenticated) {
      return principal;  // accepted, or the verifier failed: not the client's fault
    }
  }
  if (const auto wait = throttle_.record_failure(credential.client_address); wait.count() > 0) {
    auto error = domain::make_error(domain::ErrorCode::resource_exhausted, "credential",
                                    "too many failed authentications from this address");
    error.retry_after_seconds = wait.count();
    return error;
  }
  if (!presented) {
    return domain::make_error(domain::ErrorCode::unauthenticated, "", "an API key is required");
  }
  return domain::make_error(domain::ErrorCode::unauthenticated, "token",
                            "the API key is not accepted");
}

}  // namespace petstore::application

#include "application/authenticate.hpp"

namespace petstore::application {

domain::Result<ports::Principal> Authenticate::operator()(
    std::optional<std::string_view> bearer_token) const {
  if (!bearer_token) {
    return domain::make_error(domain::ErrorCode::unauthenticated, "",
                              "an API key is required: send Authorization: Bearer <key>");
  }
  auto principal = keys_.verify(*bearer_token);
  if (!principal && principal.error().code != domain::ErrorCode::unauthenticated) {
    return principal;  // the verifier failed: not the client's fault, so not a 401
  }
  if (!principal) {
    return domain::make_error(domain::ErrorCode::unauthenticated, "token",
                              "the API key is not accepted");
  }
  return principal;
}

}  // namespace petstore::application

#include "adapters/http/api/cors_headers.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace petstore::adapters::http {
namespace {

// listed_origin: the request's Origin when `policy` lists it. Origin is a single value (RFC 6454
// section 7.3); a browser never sends two, so a second one is a forgery or a proxy's mistake and
// neither is believed.
std::optional<std::string_view> listed_origin(const CorsPolicy& policy,
                                              const HttpRequest& request) {
  if (!request.origin || request.origin_repeated || !policy.allows(*request.origin)) {
    return std::nullopt;
  }
  return request.origin;
}

}  // namespace

std::optional<HttpResponse> answer_preflight(const CorsPolicy& policy, const HttpRequest& request,
                                             const Route& route) {
  if (request.method != "OPTIONS" || !request.access_control_request_method ||
      !listed_origin(policy, request)) {
    return std::nullopt;
  }
  HttpResponse response;
  response.status = 204;
  response.set_header("Access-Control-Allow-Methods", route.allow());
  response.set_header("Access-Control-Allow-Headers", std::string(CorsPolicy::allowed_headers));
  response.set_header("Access-Control-Max-Age", std::to_string(CorsPolicy::max_age_seconds));
  return response;
}

void add_cors_headers(const CorsPolicy& policy, const HttpRequest& request,
                      HttpResponse& response) {
  if (!policy.enabled()) {
    return;
  }
  response.set_header("Vary", "Origin");
  if (const auto origin = listed_origin(policy, request)) {
    response.set_header("Access-Control-Allow-Origin", std::string(*origin));
    response.set_header("Access-Control-Expose-Headers", std::string(CorsPolicy::exposed_headers));
  }
}

}  // namespace petstore::adapters::http

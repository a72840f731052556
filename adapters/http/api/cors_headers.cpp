#include "adapters/http/api/cors_headers.hpp"

#include <string>

namespace petstore::adapters::http {

std::optional<HttpResponse> answer_preflight(const CorsPolicy& policy, const HttpRequest& request,
                                             const Route& route) {
  if (request.method != "OPTIONS" || !request.origin || !request.access_control_request_method ||
      !policy.allows(*request.origin)) {
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
  if (request.origin && policy.allows(*request.origin)) {
    response.set_header("Access-Control-Allow-Origin", std::string(*request.origin));
    response.set_header("Access-Control-Expose-Headers", std::string(CorsPolicy::exposed_headers));
  }
}

}  // namespace petstore::adapters::http

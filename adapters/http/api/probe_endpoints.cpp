#include "adapters/http/api/probe_endpoints.hpp"

#include "adapters/http/api/error_response.hpp"

namespace petstore::adapters::http {
namespace {

HttpResponse metrics_response(const RouterOptions& options) {
  HttpResponse response;
  response.body = options.metrics();
  response.set_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
  response.set_header("Cache-Control", "no-store");
  return response;
}

HttpResponse health_response(Endpoint endpoint, const RouterOptions& options) {
  HttpResponse response;
  if (endpoint == Endpoint::health) {
    response.body = R"({"status":"ok"})";
  } else {
    switch (options.readiness()) {
      case Readiness::ready:
        response.body = R"({"status":"ready"})";
        break;
      case Readiness::not_serving:
        response = error_response(503, "unavailable", "the service is starting or shutting down");
        break;
      case Readiness::storage_unavailable:
        response = error_response(503, "unavailable", "the storage is unavailable");
        break;
    }
  }
  response.set_header("Cache-Control", "no-store");
  return response;
}

}  // namespace

HttpResponse probe_response(Endpoint endpoint, const RouterOptions& options) {
  return endpoint == Endpoint::metrics ? metrics_response(options)
                                       : health_response(endpoint, options);
}

}  // namespace petstore::adapters::http

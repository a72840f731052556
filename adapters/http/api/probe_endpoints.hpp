#pragma once
// The operational endpoints, outside /v1 and unauthenticated, none storage-bound: GET /healthz
// (the process answers), GET /readyz (what RouterOptions::readiness says) and GET /metrics
// (RouterOptions::metrics's Prometheus text). Never cached.

#include "adapters/http/api/http_message.hpp"
#include "adapters/http/api/router.hpp"
#include "adapters/http/api/routes.hpp"

namespace petstore::adapters::http {

// probe_response: the answer to GET on `endpoint`.
// REQUIRES: `endpoint` is health, readiness or metrics (with options.metrics set).
[[nodiscard]] HttpResponse probe_response(Endpoint endpoint, const RouterOptions& options);

}  // namespace petstore::adapters::http

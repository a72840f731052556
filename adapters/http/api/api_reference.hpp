#pragma once
// The API reference, outside /v1 and unauthenticated: GET /openapi.json (the OpenAPI document of
// /v1), GET /docs (a page that renders it) and GET /docs/redoc.standalone.js (the renderer that
// page loads). All three are compiled in (api_document.hpp). The page's Content-Security-Policy
// lets it load nothing but these, so it works, and stays safe, with no network.

#include "adapters/http/api/http_message.hpp"
#include "adapters/http/api/routes.hpp"

namespace petstore::adapters::http {

// api_reference_response: the answer to GET on `endpoint`: 200 with its Content-Type (gzipped for
// a client that accepts it), or 304 to a matching If-None-Match (static_asset.hpp).
// REQUIRES: `endpoint` is api_document, docs_page or docs_script.
[[nodiscard]] HttpResponse api_reference_response(Endpoint endpoint, const HttpRequest& request);

}  // namespace petstore::adapters::http

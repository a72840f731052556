#pragma once
// The API reference, outside /v1 and unauthenticated: GET /openapi.json (the OpenAPI document of
// /v1), GET /docs (a page that renders it) and GET /docs/redoc.standalone.js (the renderer that
// page loads). All three are compiled in (api_document.hpp). The page's Content-Security-Policy
// lets it load nothing but these, so it works, and stays safe, with no network.

#include <string_view>

#include "adapters/http/http_message.hpp"

namespace petstore::adapters::http {

// is_api_reference_path: true for the three paths above, compared as sent.
[[nodiscard]] bool is_api_reference_path(std::string_view path) noexcept;

// api_reference_response: the 200 answer to GET `path`, with its Content-Type.
// REQUIRES: is_api_reference_path(path).
[[nodiscard]] HttpResponse api_reference_response(std::string_view path);

}  // namespace petstore::adapters::http

#include "adapters/http/api_reference.hpp"

#include <string>

#include "adapters/http/api_document.hpp"

namespace petstore::adapters::http {
namespace {

constexpr std::string_view document_path = "/openapi.json";
constexpr std::string_view page_path = "/docs";
constexpr std::string_view renderer_path = "/docs/redoc.standalone.js";

// Same origin only. Redoc injects its styles (styled-components) and runs its search index in a
// worker made from a blob: URL, hence 'unsafe-inline' for styles and blob: for workers.
constexpr std::string_view page_policy =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

HttpResponse static_response(std::string_view content_type, std::string_view body) {
  HttpResponse response;
  response.body = std::string(body);
  response.set_header("Content-Type", std::string(content_type));
  // The content changes only with the binary; revalidating each time keeps an upgrade visible.
  response.set_header("Cache-Control", "no-cache");
  response.set_header("X-Content-Type-Options", "nosniff");
  return response;
}

}  // namespace

bool is_api_reference_path(std::string_view path) noexcept {
  return path == document_path || path == page_path || path == renderer_path;
}

HttpResponse api_reference_response(std::string_view path) {
  if (path == document_path) {
    return static_response("application/json", openapi_json());
  }
  if (path == renderer_path) {
    return static_response("text/javascript; charset=utf-8", redoc_js());
  }
  HttpResponse response = static_response("text/html; charset=utf-8", docs_html());
  response.set_header("Content-Security-Policy", std::string(page_policy));
  return response;
}

}  // namespace petstore::adapters::http

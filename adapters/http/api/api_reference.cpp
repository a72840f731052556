#include "adapters/http/api/api_reference.hpp"

#include <string>

#include "adapters/http/api/api_document.hpp"
#include "adapters/http/api/static_asset.hpp"

namespace petstore::adapters::http {
namespace {

// Same origin only. Redoc injects its styles (styled-components) and runs its search index in a
// worker made from a blob: URL, hence 'unsafe-inline' for styles and blob: for workers.
constexpr std::string_view page_policy =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

}  // namespace

HttpResponse api_reference_response(Endpoint endpoint, const HttpRequest& request) {
  // Made on first use, once: each hashes its bytes and gzips them.
  static const StaticAsset document("application/json", openapi_json());
  static const StaticAsset script("text/javascript; charset=utf-8", redoc_js());
  static const StaticAsset page("text/html; charset=utf-8", docs_html());
  if (endpoint == Endpoint::api_document) {
    return document.respond(request.if_none_match, request.accept_encoding);
  }
  if (endpoint == Endpoint::docs_script) {
    return script.respond(request.if_none_match, request.accept_encoding);
  }
  HttpResponse response = page.respond(request.if_none_match, request.accept_encoding);
  response.set_header("Content-Security-Policy", std::string(page_policy));
  return response;
}

}  // namespace petstore::adapters::http

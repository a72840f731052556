#pragma once
// StaticAsset: bytes compiled into the binary (the API document and the /docs page and script),
// served as a careful static file server would: a strong ETag from a hash of the content, 304 Not
// Modified to a matching If-None-Match (RFC 9110 section 13.1.2), and the gzip form (made once)
// to a client whose Accept-Encoding takes it, with Vary: Accept-Encoding.

#include <optional>
#include <string>
#include <string_view>

#include "adapters/http/api/accept_encoding.hpp"  // accepts_gzip, which respond() applies
#include "adapters/http/api/http_message.hpp"
#include "adapters/http/api/routes.hpp"

namespace petstore::adapters::http {

class StaticAsset {
 public:
  // `bytes` must outlive the asset (they are of static storage).
  StaticAsset(std::string_view content_type, std::string_view bytes);

  // respond: 200 with the bytes (gzipped when `accept_encoding` takes gzip), or 304 when
  // `if_none_match` names the representation's ETag. Thread-safe.
  [[nodiscard]] HttpResponse respond(std::optional<std::string_view> if_none_match,
                                     std::optional<std::string_view> accept_encoding) const;

 private:
  std::string_view content_type_;
  std::string_view bytes_;
  std::string etag_;       // of the bytes as they are
  std::string gzipped_;    // empty when compressing failed or did not pay
  std::string gzip_etag_;  // of the gzip form: another representation, another tag
};

// matches_etag: whether an If-None-Match value names `etag` ("*", or a list compared weakly).
[[nodiscard]] bool matches_etag(std::string_view if_none_match, std::string_view etag);

// api_reference_response: the API reference, outside /v1 and unauthenticated: GET /openapi.json
// (the OpenAPI document of /v1), GET /docs (a page that renders it) and GET
// /docs/redoc.standalone.js (the renderer that page loads), all three compiled in
// (api_document.hpp). The page's Content-Security-Policy lets it load nothing but these, so it
// works, and stays safe, with no network.
// REQUIRES: `endpoint` is api_document, docs_page or docs_script.
[[nodiscard]] HttpResponse api_reference_response(Endpoint endpoint, const HttpRequest& request);

}  // namespace petstore::adapters::http

#pragma once
// StaticAsset: bytes compiled into the binary, served with a strong ETag, 304 to a matching
// If-None-Match and a gzip form made once (docs/decisions/docs-etag-and-gzip.md).

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

  // respond: 200 with the bytes (gzipped where accepted), or 304. Thread-safe.
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

// api_reference_response: /openapi.json, /docs and the script /docs loads (api_document.hpp),
// outside /v1 and unauthenticated. The page's Content-Security-Policy lets it load nothing else,
// so it works, and stays safe, with no network.
// REQUIRES: `endpoint` is api_document, docs_page or docs_script.
[[nodiscard]] HttpResponse api_reference_response(Endpoint endpoint, const HttpRequest& request);

}  // namespace petstore::adapters::http

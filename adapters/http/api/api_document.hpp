#pragma once
// The API document and its reference page, embedded by embed_files.cmake at build time from
// docs/openapi.json, docs_page.html and third_party/redoc. Views of static storage; no file is
// read at run time.

#include <string_view>

namespace petstore::adapters::http {

// openapi_json: the OpenAPI 3.1 document of /v1, byte for byte as in docs/openapi.json.
[[nodiscard]] std::string_view openapi_json() noexcept;

// docs_html: the /docs page, which loads redoc_js and renders /openapi.json with it.
[[nodiscard]] std::string_view docs_html() noexcept;

// redoc_js: the vendored Redoc standalone bundle (MIT; third_party/redoc/LICENSE).
[[nodiscard]] std::string_view redoc_js() noexcept;

}  // namespace petstore::adapters::http

#include "adapters/http/api/static_asset.hpp"

#include <array>
#include <cstdint>
#include <zlib.h>

#include "adapters/http/api/api_document.hpp"
#include "adapters/http/api/ascii.hpp"

namespace petstore::adapters::http {
namespace {

// content_tag: a quoted hex FNV-1a 64 of `bytes`; enough to tell two builds' assets apart.
std::string content_tag(std::string_view bytes, std::string_view suffix) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : bytes) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  }
  constexpr std::string_view digits = "0123456789abcdef";
  std::string tag = "\"";
  for (int shift = 60; shift >= 0; shift -= 4) {
    tag += digits[(hash >> static_cast<unsigned>(shift)) & 0xFU];
  }
  return tag.append(suffix).append("\"");
}

// gzip: `bytes` in gzip format at the best compression, or empty on failure.
std::string gzip(std::string_view bytes) {
  z_stream stream{};
  constexpr int gzip_window = 15 + 16;  // zlib's way of asking for a gzip header
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, gzip_window, 9, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return {};
  }
  std::string out(deflateBound(&stream, static_cast<uLong>(bytes.size())), '\0');
  // zlib's interface is not const-correct; it only reads the input.
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return result == Z_STREAM_END ? out : std::string();
}

// Same origin only. Redoc injects its styles (styled-components) and runs its search index in a
// worker made from a blob: URL, hence 'unsafe-inline' for styles and blob: for workers.
constexpr std::string_view page_policy =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

}  // namespace

bool matches_etag(std::string_view if_none_match, std::string_view etag) {
  if (trim_ows(if_none_match) == "*") {
    return true;
  }
  for (std::size_t at = 0; at <= if_none_match.size();) {
    const auto end = std::min(if_none_match.find(',', at), if_none_match.size());
    std::string_view tag = trim_ows(if_none_match.substr(at, end - at));
    if (tag.starts_with("W/")) {
      tag.remove_prefix(2);  // weak comparison, as RFC 9110 section 13.1.2 asks for GET
    }
    if (tag == etag) {
      return true;
    }
    at = end + 1;
  }
  return false;
}

StaticAsset::StaticAsset(std::string_view content_type, std::string_view bytes)
    : content_type_(content_type),
      bytes_(bytes),
      etag_(content_tag(bytes, "")),
      gzipped_(gzip(bytes)),
      gzip_etag_(content_tag(bytes, "-gzip")) {
  if (gzipped_.size() >= bytes_.size()) {
    gzipped_.clear();  // a tiny asset gains nothing
  }
}

HttpResponse StaticAsset::respond(std::optional<std::string_view> if_none_match,
                                  std::optional<std::string_view> accept_encoding) const {
  const bool compressed = !gzipped_.empty() && accept_encoding && accepts_gzip(*accept_encoding);
  const std::string& etag = compressed ? gzip_etag_ : etag_;
  HttpResponse response;
  if (if_none_match && matches_etag(*if_none_match, etag)) {
    response.status = 304;
  } else {
    response.body = compressed ? gzipped_ : std::string(bytes_);
    response.set_header("Content-Type", std::string(content_type_));
    if (compressed) {
      response.set_header("Content-Encoding", "gzip");
    }
  }
  response.set_header("ETag", etag);
  // The content changes only with the binary: revalidating costs a 304 and shows an upgrade.
  response.set_header("Cache-Control", "no-cache");
  if (!gzipped_.empty()) {
    response.set_header("Vary", "Accept-Encoding");
  }
  response.set_header("X-Content-Type-Options", "nosniff");
  return response;
}

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

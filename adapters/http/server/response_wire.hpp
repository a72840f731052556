#pragma once
// A response's fields and content as either transport sends them, and its HTTP/1.1 wire form in
// one buffer for one write, without Beast's serializer (docs/decisions/response-wire.md).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/http/api/http_message.hpp"

namespace petstore::adapters::http {

// gzip_threshold_bytes: larger bodies go out gzipped (zlib's fastest level) where Accept-Encoding
// takes it; smaller ones gain little for a compressor's set-up (docs/decisions/gzip-responses.md).
inline constexpr std::size_t gzip_threshold_bytes = 1024;

// compressible: a body over the threshold, with content, and no Content-Encoding or ETag of its
// own (the /docs assets gzip themselves, once, and tag each form).
[[nodiscard]] bool compressible(const HttpResponse& response);

struct ResponseFraming {
  unsigned version = 11;   // the request's: 10 or 11, or 20 from HTTP/2 (no status line)
  bool keep_alive = true;  // false: the connection closes after this response
  bool head = false;       // a response to HEAD: the body's length, not its bytes
  // The request's Accept-Encoding, read only when the response is large enough to gzip.
  std::optional<std::string_view> accept_encoding;
  // The X-Request-Id to send, after the response's own fields; none when empty.
  std::string_view request_id;
  // The traceresponse to send (W3C Trace Context Level 2: the request's trace id and the
  // service's span id), after X-Request-Id; none when empty.
  std::string_view traceresponse{};
};

// SentContent: a response's content as sent. `vary`: the response is compressible, so it varies
// with Accept-Encoding whether or not it was gzipped.
struct SentContent {
  std::string_view bytes;
  bool vary = false;
  bool gzipped = false;
};

// sent_content: `response`'s content for a client that sent `accept_encoding`; a gzipped body is
// valid until the calling thread's next call.
[[nodiscard]] SentContent sent_content(const HttpResponse& response,
                                       std::optional<std::string_view> accept_encoding);

// http_date_now: the IMF-fixdate of now (RFC 9110 section 5.6.7), made at most once a second per
// thread; valid until the calling thread's next call.
[[nodiscard]] std::string_view http_date_now();

// for_each_response_field: the fields a response carries on either transport, in order; not the
// framing of one transport (Connection, Content-Length).
template <class Field>
void for_each_response_field(const HttpResponse& response, const SentContent& content,
                             const ResponseFraming& framing, Field&& field) {
  field("Date", http_date_now());
  if (!response.body.empty() && !response.header("Content-Type")) {
    field("Content-Type", "application/json");
  }
  for (const auto& [name, value] : response.headers) {
    field(name.text(), value);
  }
  if (response.v1_fields) {
    field("Cache-Control", "no-store");
    field("X-Content-Type-Options", "nosniff");
  }
  if (!framing.request_id.empty()) {
    field("X-Request-Id", framing.request_id);
  }
  if (!framing.traceresponse.empty()) {
    field("traceresponse", framing.traceresponse);
  }
  if (content.gzipped) {
    field("Content-Encoding", "gzip");
  }
  if (content.vary) {
    field("Vary", "Accept-Encoding");
  }
}

// has_content_length: not for 1xx, 204 or 304 (RFC 9110 section 8.6).
[[nodiscard]] constexpr bool has_content_length(unsigned status) noexcept {
  return status >= 200 && status != 204 && status != 304;
}

// write_response: replaces `out` (keeping its capacity) with `response` as sent, the content left
// out for HEAD. Returns the body bytes sent, for logs and metrics.
std::size_t write_response(std::string& out, const HttpResponse& response,
                           const ResponseFraming& framing);

}  // namespace petstore::adapters::http

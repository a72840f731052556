#pragma once
// A response's fields and content as either transport sends them, and its HTTP/1.1 wire form in
// one buffer sent with a single write. Serialising here rather than through Beast's serializer
// keeps the write path to one copy into a reused buffer, with no per-response field container.
// HTTP/2 (h2_protocol.hpp) sends the same fields in lower case.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/http/api/http_message.hpp"

namespace petstore::adapters::http {

// gzip for large responses: a body over gzip_threshold_bytes goes out gzipped, with zlib at its
// fastest level, to a client whose Accept-Encoding takes gzip (accept_encoding.hpp), and with
// Vary: Accept-Encoding whether or not it was. Smaller bodies (an error, a pet, a short page) are
// left alone: a few hundred bytes gain little and would cost a compressor's set-up each time.
inline constexpr std::size_t gzip_threshold_bytes = 1024;

// compressible: whether the server may gzip `response`: a body over the threshold, with a status
// that has content, and not already the sender's own representation (a Content-Encoding or an
// ETag: the /docs assets gzip themselves, once, and tag each form).
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

// SentContent: the content a response sends: its body, gzipped when the response is compressible
// and the client's Accept-Encoding takes gzip. `vary`: the response is compressible, so it varies
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

// has_content_length: RFC 9110 section 8.6: no Content-Length in a 1xx or 204 response, nor in a
// 304.
[[nodiscard]] constexpr bool has_content_length(unsigned status) noexcept {
  return status >= 200 && status != 204 && status != 304;
}

// write_response: replaces `out` (keeping its capacity) with `response` as sent: the status line;
// the fields of for_each_response_field; Connection as `framing` asks; Content-Length; then the
// content (sent_content), unless `framing.head` (a HEAD response gets the same fields). Returns
// the body bytes sent, for logs and metrics (none for HEAD).
std::size_t write_response(std::string& out, const HttpResponse& response,
                           const ResponseFraming& framing);

}  // namespace petstore::adapters::http

#include "adapters/http/server/response_wire.hpp"

#include <chrono>
#include <ctime>

#include <boost/beast/http/status.hpp>

#include "adapters/http/api/accept_encoding.hpp"
#include "adapters/http/api/ascii.hpp"
#include "adapters/http/server/response_gzip.hpp"

namespace petstore::adapters::http {
namespace {

// The IMF-fixdate of now, formatted at most once a second per thread.
const std::string& http_date_now() {
  thread_local std::time_t cached_second = 0;
  thread_local std::string cached;
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  if (now != cached_second) {
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[64];
    const auto length = std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &utc);
    cached.assign(text, length);
    cached_second = now;
  }
  return cached;
}

void append_field(std::string& out, std::string_view name, std::string_view value) {
  out.append(name).append(": ").append(value).append("\r\n");
}

// RFC 9110 §8.6: no Content-Length in a 1xx or 204 response, nor in a 304.
bool has_content_length(unsigned status) { return status >= 200 && status != 204 && status != 304; }

// write_head: the status line and fields, with `extra_fields` (whole lines) before Connection,
// and a Content-Length of `content_length`.
void write_head(std::string& out, const HttpResponse& response, const ResponseFraming& framing,
                std::size_t content_length, std::string_view extra_fields) {
  out.clear();
  out.append(framing.version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ");
  append_decimal(out, response.status);
  out.append(" ");
  // Beast's table of reason phrases: text for humans, ignored by clients (RFC 9112 §4).
  out.append(boost::beast::http::obsolete_reason(
      static_cast<boost::beast::http::status>(response.status)));
  out.append("\r\n");
  append_field(out, "Date", http_date_now());
  if (!response.body.empty() && !response.header("Content-Type")) {
    append_field(out, "Content-Type", "application/json");
  }
  for (const auto& [name, value] : response.headers) {
    append_field(out, name.text(), value);
  }
  out.append(extra_fields);
  if (framing.version == 10 && framing.keep_alive) {
    append_field(out, "Connection", "keep-alive");
  } else if (framing.version != 10 && !framing.keep_alive) {
    append_field(out, "Connection", "close");
  }
  if (has_content_length(response.status)) {
    out.append("Content-Length: ");
    append_decimal(out, content_length);
    out.append("\r\n");
  }
  out.append("\r\n");
}

// write_compressible: a response gzip applies to, gzipped when the client takes it.
std::size_t write_compressible(std::string& out, const HttpResponse& response,
                               const ResponseFraming& framing) {
  std::string_view body = response.body;
  std::string_view fields = "Vary: Accept-Encoding\r\n";
  if (framing.accept_encoding && accepts_gzip(*framing.accept_encoding)) {
    if (const std::string_view gzipped = gzip_fast(body); !gzipped.empty()) {
      body = gzipped;
      fields = "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n";
    }
  }
  write_head(out, response, framing, body.size(), fields);
  if (framing.head) {
    return 0;
  }
  out.append(body);
  return body.size();
}

}  // namespace

std::size_t write_response(std::string& out, const HttpResponse& response,
                           const ResponseFraming& framing) {
  if (response.body.size() > gzip_threshold_bytes && compressible(response)) {
    return write_compressible(out, response, framing);
  }
  write_head(out, response, framing, response.body.size(), {});
  if (framing.head) {
    return 0;
  }
  out.append(response.body);
  return response.body.size();
}

}  // namespace petstore::adapters::http

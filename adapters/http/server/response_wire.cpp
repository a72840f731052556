#include "adapters/http/server/response_wire.hpp"

#include <algorithm>
#include <array>
#include <ctime>
#include <zlib.h>

#include <boost/beast/http/status.hpp>

#include "adapters/http/api/accept_encoding.hpp"
#include "adapters/http/api/ascii.hpp"

namespace petstore::adapters::http {

// The coarse clock (a few milliseconds old at most) is enough for a whole second, and cheaper.
std::string_view http_date_now() {
  thread_local std::time_t cached_second = 0;
  thread_local std::array<char, 64> cached{};
  thread_local std::size_t cached_size = 0;
  timespec coarse{};
  clock_gettime(CLOCK_REALTIME_COARSE, &coarse);
  const std::time_t now = coarse.tv_sec;
  if (now != cached_second) {
    std::tm utc{};
    gmtime_r(&now, &utc);
    cached_size = std::strftime(cached.data(), cached.size(), "%a, %d %b %Y %H:%M:%S GMT", &utc);
    cached_second = now;
  }
  return {cached.data(), cached_size};
}

namespace {

// StatusLines: every status line of HTTP/1.1, made once (the reason phrases are Beast's table:
// text for humans, ignored by clients, RFC 9112 §4); an HTTP/1.0 response patches the version.
class StatusLines {
 public:
  StatusLines() {
    for (unsigned status = 0; status < lines_.size(); ++status) {
      append_line(lines_[status], status);
    }
  }

  void append(std::string& out, unsigned version, unsigned status) const {
    const std::size_t start = out.size();
    if (status < lines_.size()) {
      out.append(lines_[status]);
    } else {
      append_line(out, status);
    }
    if (version == 10) {
      out[start + 7] = '0';  // "HTTP/1.0"
    }
  }

 private:
  static void append_line(std::string& out, unsigned status) {
    out.append("HTTP/1.1 ");
    append_decimal(out, status);
    out.append(" ")
        .append(
            boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(status)))
        .append("\r\n");
  }

  std::array<std::string, 600> lines_;
};

// One deflate stream per thread (about 260 KiB), reset for each body: deflateInit2 allocates its
// window and hash tables, which would otherwise be most of the cost of a page.
class ThreadCompressor {
 public:
  ThreadCompressor() {
    constexpr int gzip_window = 15 + 16;  // zlib's way of asking for a gzip header
    constexpr int memory_level = 8;       // zlib's default
    ready_ = deflateInit2(&stream_, Z_BEST_SPEED, Z_DEFLATED, gzip_window, memory_level,
                          Z_DEFAULT_STRATEGY) == Z_OK;
  }
  ThreadCompressor(const ThreadCompressor&) = delete;
  ThreadCompressor& operator=(const ThreadCompressor&) = delete;
  ~ThreadCompressor() {
    if (ready_) {
      deflateEnd(&stream_);
    }
  }

  std::string_view compress(std::string_view bytes) {
    if (!ready_ || deflateReset(&stream_) != Z_OK) {
      return {};
    }
    out_.resize(deflateBound(&stream_, static_cast<uLong>(bytes.size())));
    // zlib's interface is not const-correct; it only reads the input.
    stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream_.avail_in = static_cast<uInt>(bytes.size());
    stream_.next_out = reinterpret_cast<Bytef*>(out_.data());
    stream_.avail_out = static_cast<uInt>(out_.size());
    if (deflate(&stream_, Z_FINISH) != Z_STREAM_END) {
      return {};
    }
    return {out_.data(), stream_.total_out};
  }

 private:
  z_stream stream_{};
  bool ready_ = false;
  std::string out_;  // kept for the thread's next body
};

}  // namespace

bool compressible(const HttpResponse& response) {
  return response.body.size() > gzip_threshold_bytes && has_content_length(response.status) &&
         !response.header("Content-Encoding") && !response.header("ETag");
}

SentContent sent_content(const HttpResponse& response,
                         std::optional<std::string_view> accept_encoding) {
  if (!compressible(response)) {
    return SentContent{response.body, false, false};
  }
  if (accept_encoding && accepts_gzip(*accept_encoding)) {
    thread_local ThreadCompressor compressor;
    if (const std::string_view gzipped = compressor.compress(response.body); !gzipped.empty()) {
      return SentContent{gzipped, true, true};
    }
  }
  return SentContent{response.body, true, false};
}

std::size_t write_response(std::string& out, const HttpResponse& response,
                           const ResponseFraming& framing) {
  static const StatusLines status_lines;
  const SentContent content = sent_content(response, framing.accept_encoding);
  out.clear();
  status_lines.append(out, framing.version, response.status);
  // Each field sized once: "name: value\r\n".
  for_each_response_field(response, content, framing,
                          [&out](std::string_view name, std::string_view value) {
                            const std::size_t start = out.size();
                            out.resize(start + name.size() + value.size() + 4);
                            char* at = std::copy_n(name.data(), name.size(), out.data() + start);
                            at = std::copy_n(": ", 2, at);
                            at = std::copy_n(value.data(), value.size(), at);
                            std::copy_n("\r\n", 2, at);
                          });
  if (framing.version == 10 && framing.keep_alive) {
    out.append("Connection: keep-alive\r\n");
  } else if (framing.version != 10 && !framing.keep_alive) {
    out.append("Connection: close\r\n");
  }
  if (has_content_length(response.status)) {
    out.append("Content-Length: ");
    append_decimal(out, content.bytes.size());
    out.append("\r\n");
  }
  out.append("\r\n");
  if (framing.head) {
    return 0;
  }
  out.append(content.bytes);
  return content.bytes.size();
}

}  // namespace petstore::adapters::http

#include "adapters/http/server/response_gzip.hpp"

#include <string>
#include <zlib.h>

namespace petstore::adapters::http {
namespace {

// One deflate stream per thread, made on first use and reset for each body: deflateInit2
// allocates its window and hash tables, which would otherwise be most of the cost of a page.
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
  if (response.body.size() <= gzip_threshold_bytes || response.status < 200 ||
      response.status == 204 || response.status == 304) {
    return false;
  }
  for (const auto& [name, value] : response.headers) {
    if (name.text() == "Content-Encoding" || name.text() == "ETag") {
      return false;
    }
  }
  return true;
}

std::string_view gzip_fast(std::string_view bytes) {
  thread_local ThreadCompressor compressor;
  return compressor.compress(bytes);
}

}  // namespace petstore::adapters::http

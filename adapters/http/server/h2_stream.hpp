#pragma once
// Http2Protocol::Stream, shared by h2_requests.cpp (which reads it) and h2_protocol.cpp (answers).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <nghttp2/nghttp2.h>
#include <optional>
#include <string>

#include "adapters/http/api/router.hpp"
#include "adapters/http/server/h2_protocol.hpp"
#include "adapters/http/server/http_observer.hpp"
#include "adapters/http/server/request_parser.hpp"
#include "adapters/http/server/response_slot.hpp"
#include "ports/trace_context.hpp"

namespace petstore::adapters::http {

// Stream: one request and its response. Held by the protocol while nghttp2 holds it open and by
// its waiting coroutine while storage does, so that the request's views stay valid until answered,
// though the client reset the stream.
struct Http2Protocol::Stream {
  explicit Stream(std::int32_t stream_id) : id(stream_id), parser(arena) {}

  std::int32_t id;
  Clock::time_point began = Clock::now();
  std::pmr::monotonic_buffer_resource arena;
  RequestParser parser;
  std::string method;
  std::string target;
  std::size_t header_bytes = 0;  // as RFC 9113 section 6.5.2 counts them: name, value, 32
  std::optional<std::uint64_t> content_length;
  bool refused = false;      // answered at once (a limit passed, malformed): the rest ignored
  bool malformed = false;    // a field RFC 9113 section 8.2.1 forbids (nghttp2 drops it): 400
  bool head_done = false;    // its header section ended (what follows is body and trailers)
  bool ended = false;        // the client's END_STREAM came
  bool open = true;          // nghttp2 holds the stream
  bool answered = false;     // its response was given
  bool reset_after = false;  // answered before the client finished: RST_STREAM(NO_ERROR) after
  HttpRequest request;
  ports::TraceContext trace;
  std::string request_id;
  RequestFacts facts;
  std::optional<ExchangeWatch> watch;
  std::shared_ptr<ResponseSlot> slot;
  std::string content;  // the response's content as sent (a gzipped body lives only till the next)
  std::size_t sent = 0;
  Clock::time_point answered_at;

  // read_content: nghttp2's data source over `content`, the stream in `source->ptr`.
  static ssize_t read_content(nghttp2_session* /*session*/, std::int32_t /*stream_id*/,
                              std::uint8_t* buffer, std::size_t length, std::uint32_t* data_flags,
                              nghttp2_data_source* source, void* /*user_data*/) {
    auto& stream = *static_cast<Stream*>(source->ptr);
    const std::size_t size = std::min(length, stream.content.size() - stream.sent);
    std::copy_n(stream.content.data() + stream.sent, size, buffer);
    stream.sent += size;
    if (stream.sent == stream.content.size()) {
      *data_flags |= NGHTTP2_DATA_FLAG_EOF;
    }
    return static_cast<ssize_t>(size);
  }
};

}  // namespace petstore::adapters::http

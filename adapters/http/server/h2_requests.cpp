#include <memory>
#include <string_view>

#include <boost/beast/http/error.hpp>

#include "adapters/http/api/ascii.hpp"
#include "adapters/http/api/error_response.hpp"
#include "adapters/http/server/h2_protocol.hpp"
#include "adapters/http/server/h2_stream.hpp"
#include "adapters/http/server/nghttp2_bytes.hpp"
#include "adapters/http/server/request_framing.hpp"

// Http2Protocol's reading half: nghttp2's callbacks, from frames to requests.

namespace petstore::adapters::http {
namespace {

namespace bhttp = boost::beast::http;

// too_large: what HTTP/1.1 answers for the same limits.
HttpResponse too_large(bool body) {
  return *response_to_read_error(body ? bhttp::error::body_limit : bhttp::error::header_limit);
}

}  // namespace

struct Http2Protocol::Callbacks {
  static Http2Protocol& self(void* user_data) { return *static_cast<Http2Protocol*>(user_data); }

  // begin_frame: nghttp2 drops a HEADERS frame for a passed identifier of no stream held here
  // (forgiving what RFC 9113 section 5.1.1 forbids); its HPACK decoding still costs, so it spends
  // the idle-frame budget.
  static int begin_frame(nghttp2_session* session, const nghttp2_frame_hd* header,
                         void* user_data) {
    Http2Protocol& protocol = self(user_data);
    if (header->type == NGHTTP2_HEADERS &&
        header->stream_id <= nghttp2_session_get_last_proc_stream_id(session) &&
        protocol.find(header->stream_id) == nullptr) {
      protocol.spend_idle_frame();
    }
    return 0;
  }

  static int begin_headers(nghttp2_session* /*session*/, const nghttp2_frame* frame,
                           void* user_data) {
    if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST) {
      Http2Protocol& protocol = self(user_data);
      protocol.streams_.emplace(frame->hd.stream_id, std::make_shared<Stream>(frame->hd.stream_id));
      protocol.served_one_ = true;
    }
    return 0;
  }

  static int header(nghttp2_session* /*session*/, const nghttp2_frame* frame,
                    const std::uint8_t* name_bytes, std::size_t name_size,
                    const std::uint8_t* value_bytes, std::size_t value_size, std::uint8_t /*flags*/,
                    void* user_data) {
    Http2Protocol& protocol = self(user_data);
    Stream* stream = protocol.find(frame->hd.stream_id);
    if (stream == nullptr || stream->refused) {
      return 0;
    }
    stream->header_bytes += name_size + value_size + 32;  // a trailer section's too, as HTTP/1.1
    if (stream->header_bytes > protocol.context_.limits.header_bytes) {
      stream->refused = true;
      return 0;
    }
    if (stream->head_done) {
      return 0;  // a trailer section is never merged into the header section (RFC 9110 6.5)
    }
    const std::string_view name = nghttp2_text(name_bytes, name_size);
    const std::string_view value = nghttp2_text(value_bytes, value_size);
    if (name == ":method") {
      stream->method = value;
    } else if (name == ":path") {
      stream->target = value;
    } else if (name == "content-length") {
      if (const auto length = parse_whole<std::uint64_t>(value)) {
        stream->content_length = *length;
      }
    } else if (!name.starts_with(':')) {
      stream->parser.take_field(name, value);
    }
    return 0;
  }

  // invalid_header: nghttp2 would drop the field; a request that lost one (an Idempotency-Key
  // ending in a space) must not be served as if it had none.
  static int invalid_header(nghttp2_session* /*session*/, const nghttp2_frame* frame,
                            const std::uint8_t* /*name*/, std::size_t /*name_size*/,
                            const std::uint8_t* /*value*/, std::size_t /*value_size*/,
                            std::uint8_t /*flags*/, void* user_data) {
    Stream* stream = self(user_data).find(frame->hd.stream_id);
    if (stream != nullptr && !stream->head_done) {
      stream->malformed = true;
    }
    return 0;
  }

  static int data_chunk(nghttp2_session* /*session*/, std::uint8_t /*flags*/,
                        std::int32_t stream_id, const std::uint8_t* data, std::size_t size,
                        void* user_data) {
    Http2Protocol& protocol = self(user_data);
    Stream* stream = protocol.find(stream_id);
    if (stream == nullptr || stream->refused) {
      return 0;
    }
    if (stream->parser.body().size() + size > protocol.context_.limits.body_bytes) {
      protocol.refuse(*stream, too_large(true));
      return 0;
    }
    stream->parser.take_body(nghttp2_text(data, size));
    return 0;
  }

  static int frame_received(nghttp2_session* /*session*/, const nghttp2_frame* frame,
                            void* user_data) {
    Http2Protocol& protocol = self(user_data);
    const bool ends_stream = (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
    const bool ack = (frame->hd.flags & NGHTTP2_FLAG_ACK) != 0;
    switch (frame->hd.type) {
      case NGHTTP2_HEADERS:
        if (Stream* stream = protocol.find(frame->hd.stream_id); stream != nullptr) {
          if (frame->headers.cat == NGHTTP2_HCAT_REQUEST) {
            protocol.end_of_headers(*stream, ends_stream);
          } else if (ends_stream) {  // a trailer section ends the request
            protocol.end_of_headers(*stream, true);
          }
        }
        return 0;
      case NGHTTP2_DATA:
        if (Stream* stream = protocol.find(frame->hd.stream_id); stream != nullptr && ends_stream) {
          protocol.end_of_headers(*stream, true);
        } else if (frame->hd.length == 0) {
          protocol.spend_idle_frame();
        }
        return 0;
      case NGHTTP2_PING:
      case NGHTTP2_SETTINGS:
        if (!ack) {
          protocol.spend_idle_frame();
        }
        return 0;
      case NGHTTP2_RST_STREAM:
      case NGHTTP2_PRIORITY:
      case NGHTTP2_WINDOW_UPDATE:
        protocol.spend_idle_frame();
        return 0;
      default:
        return 0;
    }
  }

  static int frame_sent(nghttp2_session* session, const nghttp2_frame* frame, void* user_data) {
    if ((frame->hd.flags & NGHTTP2_FLAG_END_STREAM) == 0) {
      return 0;
    }
    Stream* stream = self(user_data).find(frame->hd.stream_id);
    if (stream != nullptr && stream->reset_after) {
      // The response is whole; what the client still sends is not wanted (RFC 9113 8.1).
      nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, stream->id, NGHTTP2_NO_ERROR);
    }
    return 0;
  }

  static int stream_closed(nghttp2_session* /*session*/, std::int32_t stream_id,
                           std::uint32_t /*error_code*/, void* user_data) {
    Http2Protocol& protocol = self(user_data);
    if (const auto found = protocol.streams_.find(stream_id); found != protocol.streams_.end()) {
      found->second->open = false;
      protocol.streams_.erase(found);
    }
    if (protocol.streams_.empty()) {
      protocol.idle_since_ = Clock::now();
    }
    return 0;
  }
};

void Http2Protocol::set_callbacks(nghttp2_session_callbacks* callbacks) {
  nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks, &Callbacks::begin_frame);
  nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &Callbacks::begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &Callbacks::header);
  nghttp2_session_callbacks_set_on_invalid_header_callback(callbacks, &Callbacks::invalid_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &Callbacks::data_chunk);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &Callbacks::frame_received);
  nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, &Callbacks::frame_sent);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Callbacks::stream_closed);
}

Http2Protocol::Stream* Http2Protocol::find(std::int32_t id) {
  const auto found = streams_.find(id);
  return found == streams_.end() ? nullptr : found->second.get();
}

void Http2Protocol::end_of_headers(Stream& stream, bool ends_stream) {
  stream.head_done = true;
  if (stream.answered) {
    return;
  }
  if (stream.refused && !stream.ended) {  // the head passed the limit: 431, body unread
    stream.ended = ends_stream;
    refuse(stream, too_large(false));
    return;
  }
  if (stream.malformed) {  // RFC 9113 section 8.1.1: answered, then reset if the client still sends
    stream.ended = ends_stream;
    refuse(stream, refusal(400, "invalid_parameter",
                           "the request is not valid HTTP/2: a field's name or value holds what "
                           "RFC 9113 section 8.2.1 forbids (white space at either end of a value, "
                           "a control character)"));
    return;
  }
  if (!ends_stream) {
    if (stream.content_length && *stream.content_length > context_.limits.body_bytes) {
      refuse(stream, too_large(true));
    }
    return;
  }
  stream.ended = true;
  if (stream.refused) {
    return;  // answered as it passed the limit
  }
  if (waiting_.size() >= h2_max_concurrent_streams) {
    // Streams the client reset still hold storage: this one may be retried (RFC 9113 8.7).
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream.id, NGHTTP2_REFUSED_STREAM);
    stream.answered = true;
    stream.answered_at = Clock::now();
    spend_idle_frame();
    return;
  }
  dispatch(streams_.at(stream.id));
}

}  // namespace petstore::adapters::http

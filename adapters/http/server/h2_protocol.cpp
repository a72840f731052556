#include "adapters/http/server/h2_protocol.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <memory_resource>
#include <utility>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/error.hpp>

#include "adapters/http/api/ascii.hpp"
#include "adapters/http/api/trace_context.hpp"
#include "adapters/http/server/beast_messages.hpp"
#include "adapters/http/server/exchange_watch.hpp"
#include "adapters/http/server/nghttp2_bytes.hpp"
#include "adapters/http/server/request_id.hpp"
#include "adapters/http/server/request_parser.hpp"
#include "adapters/http/server/response_slot.hpp"
#include "adapters/http/server/response_wire.hpp"

namespace petstore::adapters::http {

// Stream: one request and its response. Held by the protocol while nghttp2 holds the stream open
// and by its waiting coroutine while storage holds it, so that the request's views (into `parser`)
// stay valid until it is answered, though the client reset the stream meanwhile.
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
};

namespace {

namespace bhttp = boost::beast::http;

// too_large: the answers an HTTP/1.1 request gets for the same limits (413 for the body, 431).
HttpResponse too_large(bool body) {
  return *response_to_read_error(body ? bhttp::error::body_limit : bhttp::error::header_limit);
}

// A response's status and fields as nghttp2 takes them: names in lower case (RFC 9113 section
// 8.2.1), values copied where they would not outlive the submit.
class ResponseFields {
 public:
  ResponseFields(const HttpResponse& response, const SentContent& content,
                 const ResponseFraming& framing) {
    append_decimal(status_, response.status);
    for_each_response_field(
        response, content, framing,
        [this](std::string_view name, std::string_view value) { add(name, value); });
    if (has_content_length(response.status)) {
      append_decimal(length_, content.bytes.size());
      add("content-length", length_);
    }
  }

  // fields: valid while this lives; nghttp2_submit_response copies them.
  std::vector<nghttp2_nv>& fields() {
    nv_.clear();
    nv_.push_back(nghttp2_field(":status", status_));
    for (const auto& [name, value] : text_) {
      nv_.push_back(nghttp2_field(name, value));
    }
    return nv_;
  }

 private:
  void add(std::string_view name, std::string_view value) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return ascii_lower(c); });
    text_.emplace_back(std::move(lower), std::string(value));
  }

  std::string status_;
  std::string length_;
  std::vector<std::pair<std::string, std::string>> text_;
  std::vector<nghttp2_nv> nv_;
};

}  // namespace

// Callbacks: nghttp2's callbacks, each a static function over the protocol in `user_data`.
struct Http2Protocol::Callbacks {
  static Http2Protocol& self(void* user_data) { return *static_cast<Http2Protocol*>(user_data); }

  // begin_frame: a HEADERS frame on an identifier the client has passed, of no stream held here,
  // is dropped by nghttp2 (RFC 9113 section 5.1.1 would end the connection; nghttp2 forgives it,
  // since a client may send trailers on a stream the server has reset). It still costs its HPACK
  // decoding and gives the client nothing, so it spends the idle-frame budget.
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
      self(user_data).begin_stream(frame->hd.stream_id);
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
      std::uint64_t length = 0;
      const auto [end, failed] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (failed == std::errc() && end == value.data() + value.size()) {
        stream->content_length = length;
      }
    } else if (!name.starts_with(':')) {
      stream->parser.take_field(name, value);
    }
    return 0;
  }

  // invalid_header: nghttp2 would drop the field and go on; a request that lost a field its
  // client sent (an Idempotency-Key with a space at its end) must not be served as if it had none.
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
      stream->refused = true;
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

std::shared_ptr<Http2Protocol> Http2Protocol::start(boost::asio::any_io_executor executor,
                                                    ConnectionState& state,
                                                    const SessionContext& context,
                                                    std::function<void()> wake) {
  return std::shared_ptr<Http2Protocol>(
      new Http2Protocol(std::move(executor), state, context, std::move(wake)));
}

Http2Protocol::Http2Protocol(boost::asio::any_io_executor executor, ConnectionState& state,
                             const SessionContext& context, std::function<void()> wake)
    : executor_(std::move(executor)),
      state_(state),
      context_(context),
      wake_(std::move(wake)),
      idle_since_(Clock::now()),
      budget_checked_(idle_since_) {
  nghttp2_session_callbacks* callbacks = nullptr;
  nghttp2_session_callbacks_new(&callbacks);
  nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks, &Callbacks::begin_frame);
  nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &Callbacks::begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &Callbacks::header);
  nghttp2_session_callbacks_set_on_invalid_header_callback(callbacks, &Callbacks::invalid_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &Callbacks::data_chunk);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &Callbacks::frame_received);
  nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, &Callbacks::frame_sent);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Callbacks::stream_closed);
  nghttp2_option* options = nullptr;
  nghttp2_option_new(&options);
  nghttp2_option_set_max_deflate_dynamic_table_size(options, h2_header_table_bytes);
  nghttp2_option_set_max_continuations(options, 8);
  nghttp2_option_set_max_settings(options, 32);
  nghttp2_option_set_max_outbound_ack(options, 1000);
  // nghttp2's own bound on streams reset (its code: INTERNAL_ERROR), a backstop behind the idle
  // frame budget, which counts each RST_STREAM as well and so ends a rapid reset first.
  nghttp2_option_set_stream_reset_rate_limit(
      options, static_cast<std::uint64_t>(2 * h2_idle_frame_burst),
      static_cast<std::uint64_t>(2 * h2_idle_frames_a_second));
  nghttp2_session_server_new2(&session_, callbacks, this, options);
  nghttp2_option_del(options);
  nghttp2_session_callbacks_del(callbacks);
  const std::array<nghttp2_settings_entry, 3> settings{{
      {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, h2_max_concurrent_streams},
      {NGHTTP2_SETTINGS_HEADER_TABLE_SIZE, h2_header_table_bytes},
      {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE,
       static_cast<std::uint32_t>(context.limits.header_bytes)},
  }};
  nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings.data(), settings.size());
}

Http2Protocol::~Http2Protocol() { nghttp2_session_del(session_); }

bool Http2Protocol::receive(std::string_view bytes) {
  in_receive_ = true;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): nghttp2 reads bytes
  const auto read = nghttp2_session_mem_recv(
      session_, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  in_receive_ = false;
  if (read < 0) {
    // A connection error nghttp2 has not answered itself (a bad preface, a flood): GOAWAY.
    nghttp2_session_terminate_session(
        session_, read == NGHTTP2_ERR_FLOODED ? NGHTTP2_ENHANCE_YOUR_CALM : NGHTTP2_PROTOCOL_ERROR);
    return false;
  }
  return true;
}

bool Http2Protocol::produce(std::string& out, std::size_t most) {
  while (out.size() < most) {
    const std::uint8_t* data = nullptr;
    const auto size = nghttp2_session_mem_send(session_, &data);
    if (size < 0) {
      return false;
    }
    if (size == 0) {
      break;
    }
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): nghttp2 hands out bytes
    out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
  }
  return true;
}

bool Http2Protocol::wants_read() const { return nghttp2_session_want_read(session_) != 0; }

bool Http2Protocol::wants_write() const { return nghttp2_session_want_write(session_) != 0; }

std::optional<Http2Protocol::Clock::time_point> Http2Protocol::deadline() const {
  const HttpLimits& limits = context_.limits;
  std::optional<Clock::time_point> earliest;
  const auto consider = [&earliest](Clock::time_point due) {
    earliest = earliest ? std::min(*earliest, due) : due;
  };
  for (const auto& [id, stream] : streams_) {
    if (!stream->ended && !stream->refused) {
      consider(stream->began + limits.body_timeout);
    } else if (stream->answered) {
      consider(stream->answered_at + limits.write_timeout);
    }
  }
  if (streams_.empty() && waiting_.empty()) {
    consider(idle_since_ + (served_one_ ? limits.idle_timeout : limits.header_timeout));
  }
  return earliest;
}

void Http2Protocol::detach() {
  detached_ = true;
  wake_ = nullptr;
  state_.streams = nullptr;
}

void Http2Protocol::drain() {
  if (!detached_) {
    nghttp2_submit_goaway(session_, NGHTTP2_FLAG_NONE,
                          nghttp2_session_get_last_proc_stream_id(session_), NGHTTP2_NO_ERROR,
                          nullptr, 0);
    wake_writer();
  }
}

void Http2Protocol::refuse_waiting() {
  for (const auto& [id, stream] : waiting_) {
    stream->slot->refuse_for_stop();
  }
  drain();
}

Http2Protocol::Stream* Http2Protocol::find(std::int32_t id) {
  const auto found = streams_.find(id);
  return found == streams_.end() ? nullptr : found->second.get();
}

void Http2Protocol::begin_stream(std::int32_t id) {
  streams_.emplace(id, std::make_shared<Stream>(id));
  served_one_ = true;
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
    stream.refused = true;
    stream.ended = ends_stream;
    refuse(stream, refusal(400, "invalid_parameter",
                           "the request is not valid HTTP/2: a field's name or value holds what "
                           "RFC 9113 section 8.2.1 forbids (white space at either end of a value, "
                           "a control character)"));
    return;
  }
  if (!ends_stream) {
    if (stream.content_length && *stream.content_length > context_.limits.body_bytes) {
      stream.refused = true;
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

void Http2Protocol::dispatch(const std::shared_ptr<Stream>& stream) {
  const auto now = Clock::now();
  stream->watch.emplace(context_.observer, now);
  stream->parser.take_request_line(stream->method, stream->target);
  HttpRequest& request = stream->request;
  request = stream->parser.request();
  request.client_address = state_.client_address;
  request.accepted_key = &accepted_key_;
  request.storage_deadline = now + context_.limits.storage_timeout;
  const TraceFields& trace = stream->parser.framing().trace;
  stream->trace = trace_request(trace.traceparent, trace.traceparent_repeated, trace.tracestate);
  request.trace = &stream->trace;
  stream->slot = std::make_shared<ResponseSlot>();
  {
    const ResponseSlot::Answering answering(*stream->slot);
    stream->facts = context_.router.handle(request, stream->slot->responder());
  }
  if (auto answered = stream->slot->take_answered()) {
    answer(*stream, std::move(*answered));
    return;
  }
  if (context_.registry.refusing()) {
    stream->slot->refuse_for_stop();
  }
  waiting_.emplace(stream->id, stream);
  boost::asio::co_spawn(executor_, await_answer(shared_from_this(), stream), boost::asio::detached);
}

boost::asio::awaitable<void> Http2Protocol::await_answer(std::shared_ptr<Http2Protocol> self,
                                                         std::shared_ptr<Stream> stream) {
  boost::asio::steady_timer timer(self->executor_);
  HttpResponse response = co_await stream->slot->wait(timer, stream->request.storage_deadline);
  self->waiting_.erase(stream->id);
  self->answer(*stream, std::move(response));
  if (self->streams_.empty() && self->waiting_.empty()) {
    self->idle_since_ = Clock::now();
  }
  self->wake_writer();
}

void Http2Protocol::refuse(Stream& stream, HttpResponse response) {
  stream.watch.emplace(context_.observer, Clock::now());
  stream.facts.client_address = state_.client_address;
  stream.reset_after = !stream.ended;
  answer(stream, std::move(response));
}

void Http2Protocol::answer(Stream& stream, HttpResponse response) {
  stream.answered = true;
  stream.answered_at = Clock::now();
  context_.router.add_cors_headers(stream.request, response);
  const TraceFields& trace = stream.parser.framing().trace;
  if (!stream.request.trace) {  // refused before dispatch: a trace of its own for the record
    stream.trace = trace_request(trace.traceparent, trace.traceparent_repeated, trace.tracestate);
  }
  assign_request_id(stream.request_id, stream.parser.framing().request_id);
  const bool head = stream.method == "HEAD";
  const ResponseFraming framing{
      20, true, head, stream.request.accept_encoding, stream.request_id, stream.trace.parent()};
  const SentContent content = sent_content(response, framing.accept_encoding);
  const std::size_t body_bytes = head ? 0 : content.bytes.size();
  if (stream.open && !detached_) {
    ResponseFields fields(response, content, framing);
    if (!head) {
      stream.content.assign(content.bytes);
    }
    nghttp2_data_provider provider{};
    provider.source.ptr = &stream;
    provider.read_callback = &Callbacks::read_content;
    auto& nv = fields.fields();
    nghttp2_submit_response(session_, stream.id, nv.data(), nv.size(),
                            stream.content.empty() ? nullptr : &provider);
    if (!in_receive_) {
      wake_writer();
    }
  }
  stream.watch->finished(stream.request_id, stream.trace, stream.method, "HTTP/2", stream.facts,
                         response, body_bytes, Clock::now());
}

bool Http2Protocol::spend_idle_frame() {
  const auto now = Clock::now();
  const std::chrono::duration<double> elapsed = now - budget_checked_;
  budget_checked_ = now;
  idle_frame_budget_ =
      std::min(h2_idle_frame_burst, idle_frame_budget_ + elapsed.count() * h2_idle_frames_a_second);
  idle_frame_budget_ -= 1;
  if (idle_frame_budget_ >= 0) {
    return true;
  }
  nghttp2_session_terminate_session(session_, NGHTTP2_ENHANCE_YOUR_CALM);
  return false;
}

void Http2Protocol::wake_writer() const {
  if (wake_) {
    wake_();
  }
}

}  // namespace petstore::adapters::http

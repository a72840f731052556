#include "adapters/http/server/h2_protocol.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>

#include "adapters/http/api/ascii.hpp"
#include "adapters/http/api/trace_context.hpp"
#include "adapters/http/server/h2_stream.hpp"
#include "adapters/http/server/nghttp2_bytes.hpp"
#include "adapters/http/server/response_wire.hpp"

namespace petstore::adapters::http {
namespace {

// submit_response: `response`'s status and fields as nghttp2 takes them (and copies): names in
// lower case (RFC 9113 section 8.2.1), values where they are.
void submit_response(nghttp2_session* session, std::int32_t stream_id, const HttpResponse& response,
                     const SentContent& content, const ResponseFraming& framing,
                     const nghttp2_data_provider* provider) {
  std::string status;
  std::string length;
  append_decimal(status, response.status);
  std::vector<std::pair<std::string, std::string_view>> fields;
  for_each_response_field(response, content, framing,
                          [&fields](std::string_view name, std::string_view value) {
                            std::string lower(name);
                            std::transform(lower.begin(), lower.end(), lower.begin(), ascii_lower);
                            fields.emplace_back(std::move(lower), value);
                          });
  if (has_content_length(response.status)) {
    append_decimal(length, content.bytes.size());
    fields.emplace_back("content-length", length);
  }
  std::vector<nghttp2_nv> nv{nghttp2_field(":status", status)};
  for (const auto& [name, value] : fields) {
    nv.push_back(nghttp2_field(name, value));
  }
  nghttp2_submit_response(session, stream_id, nv.data(), nv.size(), provider);
}

}  // namespace

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
  set_callbacks(callbacks);
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

void Http2Protocol::dispatch(const std::shared_ptr<Stream>& stream) {
  const auto now = Clock::now();
  stream->watch.emplace(context_.observer, now);
  stream->parser.take_request_line(stream->method, stream->target);
  HttpRequest& request = stream->request;
  request = stream->parser.request();
  request.client_address = state_.client_address;
  request.accepted_key = &accepted_key_;
  request.storage_deadline = now + context_.limits.storage_timeout;
  stream->trace = trace_request(stream->parser.framing().trace);
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
  stream.refused = true;
  stream.watch.emplace(context_.observer, Clock::now());
  stream.facts.client_address = state_.client_address;
  stream.reset_after = !stream.ended;
  answer(stream, std::move(response));
}

void Http2Protocol::answer(Stream& stream, HttpResponse response) {
  stream.answered = true;
  stream.answered_at = Clock::now();
  context_.router.add_cors_headers(stream.request, response);
  if (!stream.request.trace) {  // refused before dispatch: a trace of its own for the record
    stream.trace = trace_request(stream.parser.framing().trace);
  }
  assign_request_id(stream.request_id, stream.parser.framing().request_id);
  const bool head = stream.method == "HEAD";
  const ResponseFraming framing{
      20, true, head, stream.request.accept_encoding, stream.request_id, stream.trace.parent()};
  const SentContent content = sent_content(response, framing.accept_encoding);
  const std::size_t body_bytes = head ? 0 : content.bytes.size();
  if (stream.open && !detached_) {
    if (!head) {
      stream.content.assign(content.bytes);
    }
    nghttp2_data_provider provider{};
    provider.source.ptr = &stream;
    provider.read_callback = &Stream::read_content;
    submit_response(session_, stream.id, response, content, framing,
                    stream.content.empty() ? nullptr : &provider);
    if (!in_receive_) {
      wake_writer();
    }
  }
  stream.watch->finished(stream.request_id, stream.trace, stream.method, "HTTP/2", stream.facts,
                         response, body_bytes, Clock::now());
}

void Http2Protocol::spend_idle_frame() {
  const auto now = Clock::now();
  const std::chrono::duration<double> elapsed = now - budget_checked_;
  budget_checked_ = now;
  idle_frame_budget_ =
      std::min(h2_idle_frame_burst, idle_frame_budget_ + elapsed.count() * h2_idle_frames_a_second);
  idle_frame_budget_ -= 1;
  if (idle_frame_budget_ < 0) {
    nghttp2_session_terminate_session(session_, NGHTTP2_ENHANCE_YOUR_CALM);
  }
}

void Http2Protocol::wake_writer() const {
  if (wake_) {
    wake_();
  }
}

}  // namespace petstore::adapters::http

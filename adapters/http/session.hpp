#pragma once
// serve_connection: one HTTP/1.1 connection as a coroutine, generic over the stream so that a
// TLS stream can reuse it. Requests are read and answered one at a time, in order, which makes
// pipelining safe and bounds what a connection buffers to one request and one response.
// Every read has a deadline: idle keep-alive, headers, body; every write too.

#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/read_size.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/write.hpp>

#include "adapters/http/beast_messages.hpp"
#include "adapters/http/connection_registry.hpp"
#include "adapters/http/http_server.hpp"
#include "adapters/http/request_framing.hpp"
#include "adapters/http/request_id.hpp"
#include "adapters/http/response_slot.hpp"
#include "adapters/http/response_wire.hpp"
#include "application/accepted_key_memo.hpp"

namespace petstore::adapters::http {

struct SessionContext {
  const Router& router;
  const HttpLimits& limits;
  ConnectionRegistry& registry;
  HttpObserver* observer = nullptr;
};

// ConnectionState: what the session shares with close_if_idle, touched on the connection's
// executor only (one thread).
struct ConnectionState {
  bool idle = true;
  std::string client_address;  // set once, before the session starts
};

namespace session_detail {

// The coroutines of this file called by serve_connection take their parameters by reference, and
// none co_awaits inside a conditional expression: g++ 12 mishandles both.
inline constexpr auto use_tuple = boost::asio::as_tuple(boost::asio::use_awaitable);

// The bytes a connection keeps for its requests' fields and body: a usual request (a few fields
// and a small body) fits, so it costs no heap allocation; a larger one takes the rest from the
// heap, given back when it has been answered.
inline constexpr std::size_t request_arena_bytes = 2048;

// Past this, a connection's response buffer is given back after the write (a /docs script, say)
// rather than kept for the rest of the connection.
inline constexpr std::size_t kept_response_buffer = std::size_t{64} * 1024;

// write_bytes: sends `bytes` within the write timeout. Not a coroutine itself (Asio's write is
// the one awaited), so a response nests one coroutine frame less: with the answer's and the
// write's frames alone alive, Asio's per-thread cache of two freed frames serves every request.
template <class Stream>
boost::asio::awaitable<std::tuple<boost::system::error_code, std::size_t>> write_bytes(
    Stream& stream, const SessionContext& context, const std::string& bytes) {
  boost::beast::get_lowest_layer(stream).expires_after(context.limits.write_timeout);
  return boost::asio::async_write(stream, boost::asio::buffer(bytes), use_tuple);
}

// release_large: gives back a response buffer past kept_response_buffer once it has been sent.
inline void release_large(std::string& bytes) {
  if (bytes.capacity() > kept_response_buffer) {
    std::string().swap(bytes);
  }
}

// send_continue: the interim 100 response of a client that waits for it before sending its body
// (HTTP/1.1 only: RFC 9110 section 10.1.1 forbids it to an HTTP/1.0 client).
template <class Stream>
boost::asio::awaitable<bool> send_continue(Stream& stream, const SessionContext& context) {
  namespace bhttp = boost::beast::http;
  bhttp::response<bhttp::empty_body> interim{bhttp::status::continue_, 11};
  boost::beast::get_lowest_layer(stream).expires_after(context.limits.write_timeout);
  const auto [error, written] = co_await bhttp::async_write(stream, interim, use_tuple);
  co_return !error;
}

// ExchangeWatch: times one request and tells the observer when it started and how it ended.
class ExchangeWatch {
 public:
  explicit ExchangeWatch(HttpObserver* observer)
      : observer_(observer), started_(std::chrono::steady_clock::now()) {
    if (observer_ != nullptr) {
      observer_->request_started();
    }
  }

  // finished: `facts` are what the router found of the request (for a request refused before
  // routing, only its client address: the peer's).
  void finished(std::string_view request_id, std::string_view method, const RequestFacts& facts,
                const HttpResponse& sent, std::size_t bytes) const {
    if (observer_ != nullptr) {
      observer_->request_finished(ExchangeRecord{
          request_id, method, facts.route, facts.operation, facts.client_address, facts.principal,
          sent.status, std::chrono::steady_clock::now() - started_, bytes});
    }
  }

 private:
  HttpObserver* observer_;
  std::chrono::steady_clock::time_point started_;
};

// read_request: feeds `parser` what `buffer` already holds and reads more from `stream` only when
// that is not enough, until the head is parsed (whole_message false) or the whole request.
// Beast's async_read does the same, but completes through the scheduler even when the request
// was already buffered, the common case on a kept-alive connection; this answers at once then.
// The buffer never grows past its max_size (see feed_parser).
// Errors are Beast's: end_of_stream, partial_message, header_limit, body_limit, bad_*, timeout.
template <class Stream>
boost::asio::awaitable<boost::system::error_code> read_request(Stream& stream,
                                                               const SessionContext& context,
                                                               boost::beast::flat_buffer& buffer,
                                                               RequestParser& parser,
                                                               bool whole_message) {
  namespace bhttp = boost::beast::http;
  for (;;) {
    const auto fed = feed_parser(parser, buffer, whole_message, context.limits.header_bytes);
    if (fed != bhttp::error::need_more) {
      co_return fed;
    }
    const std::size_t room = boost::beast::read_size(buffer, read_chunk_bytes);
    if (room == 0) {
      co_return bhttp::error::buffer_overflow;  // unreachable while feed_parser bounds lines
    }
    const auto [error, read] = co_await stream.async_read_some(buffer.prepare(room), use_tuple);
    if (error == boost::asio::error::eof) {
      if (!parser.got_some()) {
        co_return bhttp::error::end_of_stream;
      }
      boost::system::error_code incomplete;
      parser.put_eof(incomplete);  // partial_message: every request states its length
      co_return incomplete;
    }
    if (error) {
      co_return error;
    }
    buffer.commit(read);
  }
}

// await_request: waits until the first byte of a request is buffered (empty lines before it are
// dropped); false when the connection should end instead: closed, timed out, or draining.
template <class Stream>
boost::asio::awaitable<bool> await_request(Stream& stream, ConnectionState& state,
                                           const SessionContext& context,
                                           boost::beast::flat_buffer& buffer,
                                           const bool& first_request) {
  // A new connection owes its first request at once: it waits under the header timeout, so a
  // silent connection holds a slot 10 s, not the 60 s a kept-alive client may rest.
  const auto timeout = first_request ? context.limits.header_timeout : context.limits.idle_timeout;
  for (;;) {
    skip_empty_lines(buffer);
    if (buffer.size() > 0) {
      state.idle = false;
      co_return true;
    }
    state.idle = true;
    if (context.registry.draining()) {
      co_return false;
    }
    boost::beast::get_lowest_layer(stream).expires_after(timeout);
    const auto [error, read] = co_await stream.async_read_some(buffer.prepare(4096), use_tuple);
    if (error) {
      co_return false;
    }
    buffer.commit(read);
  }
}

// RequestRead: how reading one request ended.
struct RequestRead {
  boost::system::error_code error;  // it could not be read (answered when the error says so)
  // What its head decided (check_head's verdict; with Expect: 100-continue, a refusal may also be
  // the router's screen_head). Default (no request id, no keep-alive) when no head was read.
  HeadVerdict head;
};

// read_checked_request: the head, checked (check_head; with Expect: 100-continue also the
// router's screen_head before the body is invited), then the body, without its trailer fields.
template <class Stream>
boost::asio::awaitable<RequestRead> read_checked_request(
    Stream& stream, const SessionContext& context, boost::beast::flat_buffer& buffer,
    RequestParser& parser, const ConnectionState& state,
    application::AcceptedKeyMemo& accepted_key) {
  auto& socket_layer = boost::beast::get_lowest_layer(stream);
  socket_layer.expires_after(context.limits.header_timeout);
  RequestRead read;
  // The head and the body are usually buffered already: parsed here, no coroutine frame is
  // allocated for read_request.
  read.error = feed_parser(parser, buffer, false, context.limits.header_bytes);
  if (read.error == boost::beast::http::error::need_more) {
    read.error = co_await read_request(stream, context, buffer, parser, false);
  }
  if (read.error) {
    co_return read;
  }
  read.head = check_head(parser.get());
  if (read.head.refusal || parser.is_done()) {
    co_return read;
  }
  if (read.head.expects_continue) {
    HttpRequest head = to_http_request(parser.get());
    head.client_address = state.client_address;
    head.accepted_key = &accepted_key;
    read.head.refusal = context.router.screen_head(head);
    if (read.head.refusal) {
      co_return read;
    }
    const bool continued = co_await send_continue(stream, context);
    if (!continued) {
      read.error = boost::asio::error::connection_reset;
      co_return read;
    }
  }
  const std::size_t head_fields = field_count(parser.get());
  socket_layer.expires_after(context.limits.body_timeout);
  read.error = feed_parser(parser, buffer, true, context.limits.header_bytes);
  if (read.error == boost::beast::http::error::need_more) {
    read.error = co_await read_request(stream, context, buffer, parser, true);
  }
  if (!read.error && drop_trailer_fields(parser.get(), head_fields) > context.limits.header_bytes) {
    read.error = boost::beast::http::error::header_limit;
  }
  co_return read;
}

// send_final: writes `response`, the last on this connection, and reports it. `request` is the
// head it answers, or null when none can be (`read` still has the client's request id when the
// head was read and the body was not).
template <class Stream>
boost::asio::awaitable<void> send_final(Stream& stream, const SessionContext& context,
                                        const ConnectionState& state, std::string& wire,
                                        HttpResponse& response, const BeastRequest* request,
                                        const RequestRead& read) {
  const ExchangeWatch watch(context.observer);
  const std::string_view request_id =
      response.set_header("X-Request-Id", request_id_for(read.head.request_id));
  const bool head = request != nullptr && request->method() == boost::beast::http::verb::head;
  const ResponseFraming framing{request != nullptr ? request->version() : 11U, false, head, {}};
  const std::size_t body_bytes = write_response(wire, response, framing);
  co_await write_bytes(stream, context, wire);
  release_large(wire);
  RequestFacts facts;
  facts.client_address = state.client_address;
  watch.finished(request_id, request != nullptr ? request->method_string() : "", facts, response,
                 body_bytes);
}

// answer: routes `request`, waits for its response in a slot of its own (at most the storage
// timeout), and writes it; true when the connection may carry another request (`read` says
// whether the client wants that and whether the framing allows it).
template <class Stream>
boost::asio::awaitable<bool> answer(Stream& stream, const SessionContext& context,
                                    std::string& wire, const BeastRequest& request,
                                    const ConnectionState& state,
                                    application::AcceptedKeyMemo& accepted_key,
                                    std::shared_ptr<ResponseSlot>& spare_slot,
                                    boost::asio::steady_timer& storage_timer,
                                    const RequestRead& read) {
  const ExchangeWatch watch(context.observer);
  // The client owes nothing while its request is answered (storage has a deadline of its own).
  boost::beast::get_lowest_layer(stream).expires_never();
  HttpRequest plain = to_http_request(request);
  plain.client_address = state.client_address;
  plain.accepted_key = &accepted_key;
  plain.storage_deadline = std::chrono::steady_clock::now() + context.limits.storage_timeout;
  const auto slot = ResponseSlot::take_or_make(spare_slot);
  const RequestFacts facts = context.router.handle(plain, slot->responder());
  HttpResponse response;
  if (auto answered = slot->take_answered()) {
    response = std::move(*answered);
  } else {
    response = co_await slot->wait(storage_timer, plain.storage_deadline);
  }
  context.router.add_cors_headers(plain, response);
  const bool keep_alive =
      !read.head.close_after && read.head.keep_alive && !context.registry.draining();
  const std::string_view request_id =
      response.set_header("X-Request-Id", request_id_for(read.head.request_id));
  // RFC 9110 section 9.3.2: a HEAD response has no content, but the length a GET's would have.
  const ResponseFraming framing{request.version(), keep_alive,
                                request.method() == boost::beast::http::verb::head,
                                plain.accept_encoding};
  const std::size_t body_bytes = write_response(wire, response, framing);
  const auto [write_error, written_bytes] = co_await write_bytes(stream, context, wire);
  release_large(wire);
  const bool written = !write_error;
  watch.finished(request_id, request.method_string(), facts, response, body_bytes);
  const bool go_on = written && keep_alive;
  co_return go_on;
}

}  // namespace session_detail

// serve_connection: answers requests on `stream` until the client closes, a deadline passes, a
// request cannot be read, or the server drains. The caller closes the stream afterwards (a TLS
// stream sends close_notify first).
template <class Stream>
boost::asio::awaitable<void> serve_connection(Stream& stream, ConnectionState& state,
                                              SessionContext context) {
  boost::beast::flat_buffer buffer{read_buffer_ceiling(context.limits.header_bytes)};
  std::string wire;  // each response's bytes, in a buffer the connection reuses
  std::shared_ptr<ResponseSlot> spare_slot;  // the last request's slot, reused once released
  boost::asio::steady_timer storage_timer(co_await boost::asio::this_coro::executor);
  application::AcceptedKeyMemo accepted_key;
  alignas(std::max_align_t) std::array<std::byte, session_detail::request_arena_bytes> arena_bytes;
  bool first_request = true;
  for (;;) {
    const bool arrived =
        co_await session_detail::await_request(stream, state, context, buffer, first_request);
    if (!arrived) {
      break;
    }
    first_request = false;
    std::pmr::monotonic_buffer_resource arena(arena_bytes.data(), arena_bytes.size());
    RequestParser parser = request_parser(arena);
    parser.header_limit(static_cast<std::uint32_t>(context.limits.header_bytes));
    parser.body_limit(context.limits.body_bytes);
    auto read = co_await session_detail::read_checked_request(stream, context, buffer, parser,
                                                              state, accepted_key);
    if (read.error) {
      if (auto answer = response_to_read_error(read.error)) {
        co_await session_detail::send_final(stream, context, state, wire, *answer, nullptr, read);
      }
      break;
    }
    const BeastRequest& request = parser.get();
    if (read.head.refusal) {
      co_await session_detail::send_final(stream, context, state, wire, *read.head.refusal,
                                          &request, read);
      break;
    }
    const bool keep_alive = co_await session_detail::answer(
        stream, context, wire, request, state, accepted_key, spare_slot, storage_timer, read);
    if (!keep_alive) {
      break;
    }
  }
}

}  // namespace petstore::adapters::http

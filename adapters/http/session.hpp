#pragma once
// serve_connection: one HTTP/1.1 connection as a coroutine, generic over the stream so that a
// TLS stream can reuse it. Requests are read and answered one at a time, in order, which makes
// pipelining safe and bounds what a connection buffers to one request and one response.
// Every read has a deadline: idle keep-alive, headers, body; every write too.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
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

#include "adapters/http/ascii.hpp"
#include "adapters/http/beast_messages.hpp"
#include "adapters/http/connection_registry.hpp"
#include "adapters/http/deferred_response.hpp"
#include "adapters/http/http_server.hpp"
#include "adapters/http/request_id.hpp"
#include "adapters/http/response_wire.hpp"
#include "application/accepted_key_memo.hpp"

namespace petstore::adapters::http {

struct SessionContext {
  const Router& router;
  const HttpLimits& limits;
  ConnectionRegistry& registry;
  HttpObserver* observer = nullptr;
};

// ConnectionState: what the session shares with close_if_idle, touched on the strand only.
struct ConnectionState {
  bool idle = true;
  std::string client_address;  // set once, before the session starts
};

namespace session_detail {

inline constexpr auto use_tuple = boost::asio::as_tuple(boost::asio::use_awaitable);

// Past this, a connection's response buffer is given back after the write (a /docs script, say)
// rather than kept for the rest of the connection.
inline constexpr std::size_t kept_response_buffer = std::size_t{64} * 1024;

// write_bytes: sends `bytes` within the write timeout; false when the client is gone.
// (Parameters are references: g++ 12 mishandles by-value coroutine parameters and co_await inside
// conditional expressions, so this file avoids both.)
template <class Stream>
boost::asio::awaitable<bool> write_bytes(Stream& stream, const SessionContext& context,
                                         std::string& bytes) {
  boost::beast::get_lowest_layer(stream).expires_after(context.limits.write_timeout);
  const auto [error, written] =
      co_await boost::asio::async_write(stream, boost::asio::buffer(bytes), use_tuple);
  if (bytes.capacity() > kept_response_buffer) {
    std::string().swap(bytes);
  }
  co_return !error;
}

template <class Stream>
boost::asio::awaitable<bool> send_continue_if_expected(Stream& stream,
                                                       const SessionContext& context,
                                                       const BeastRequest& request) {
  namespace bhttp = boost::beast::http;
  const auto expect = request.find(bhttp::field::expect);
  if (expect == request.end() || !equals_ignoring_case(expect->value(), "100-continue")) {
    co_return true;
  }
  bhttp::response<bhttp::empty_body> interim{bhttp::status::continue_, request.version()};
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

  void finished(std::string_view request_id, std::string_view method, const HttpResponse& sent,
                std::size_t bytes) const {
    if (observer_ != nullptr) {
      observer_->request_finished(ExchangeRecord{request_id, method, sent.route, sent.status,
                                                 std::chrono::steady_clock::now() - started_,
                                                 bytes});
    }
  }

 private:
  HttpObserver* observer_;
  std::chrono::steady_clock::time_point started_;
};

using RequestParser = boost::beast::http::request_parser<boost::beast::http::string_body>;

// read_request: feeds `parser` what `buffer` already holds and reads more from `stream` only when
// that is not enough, until the header is parsed (whole_message false) or the whole request.
// Beast's async_read does the same, but completes through the scheduler even when the request
// was already buffered, the common case on a kept-alive connection; this answers at once then.
// Errors are Beast's: end_of_stream, partial_message, header_limit, body_limit, bad_*, timeout.
template <class Stream>
boost::asio::awaitable<boost::system::error_code> read_request(Stream& stream,
                                                               boost::beast::flat_buffer& buffer,
                                                               RequestParser& parser,
                                                               bool whole_message) {
  namespace bhttp = boost::beast::http;
  constexpr std::size_t read_chunk = 65536;  // Beast's own read size
  parser.eager(whole_message);
  for (;;) {
    while (buffer.size() > 0 && !(whole_message ? parser.is_done() : parser.is_header_done())) {
      boost::system::error_code error;
      const std::size_t used = parser.put(buffer.data(), error);
      buffer.consume(used);
      if (error == bhttp::error::need_more || (!error && used == 0)) {
        break;
      }
      if (error) {
        co_return error;
      }
    }
    if (whole_message ? parser.is_done() : parser.is_header_done()) {
      co_return boost::system::error_code{};
    }
    const auto [error, read] = co_await stream.async_read_some(
        buffer.prepare(boost::beast::read_size(buffer, read_chunk)), use_tuple);
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

// sent_request_id: the first X-Request-Id field of `request`, if any.
inline std::optional<std::string_view> sent_request_id(const BeastRequest& request) {
  const auto found = request.find("X-Request-Id");
  if (found == request.end()) {
    return std::nullopt;
  }
  return std::string_view(found->value());
}

}  // namespace session_detail

// serve_connection: answers requests on `stream` until the client closes, a deadline passes, a
// request cannot be read, or the server drains. The caller closes the stream afterwards (a TLS
// stream sends close_notify first).
template <class Stream>
boost::asio::awaitable<void> serve_connection(Stream& stream, ConnectionState& state,
                                              SessionContext context) {
  namespace bhttp = boost::beast::http;
  using session_detail::use_tuple;
  auto& socket_layer = boost::beast::get_lowest_layer(stream);
  const auto executor = co_await boost::asio::this_coro::executor;
  boost::beast::flat_buffer buffer;
  std::string wire;  // each response's bytes, in a buffer the connection reuses
  const auto deferred = std::make_shared<DeferredResponse>(executor);
  const Respond respond_later = deferred->responder();
  application::AcceptedKeyMemo accepted_key;
  // A new connection owes its first request at once: it waits under the header timeout, so a
  // silent connection holds a slot 10 s, not the 60 s a kept-alive client may rest between
  // requests.
  bool first_request = true;
  for (;;) {
    if (buffer.size() == 0) {
      state.idle = true;
      if (context.registry.draining()) {
        break;
      }
      socket_layer.expires_after(first_request ? context.limits.header_timeout
                                               : context.limits.idle_timeout);
      const auto [error, read] = co_await stream.async_read_some(buffer.prepare(4096), use_tuple);
      if (error) {
        break;
      }
      buffer.commit(read);
    }
    state.idle = false;
    first_request = false;
    session_detail::RequestParser parser;
    parser.header_limit(static_cast<std::uint32_t>(context.limits.header_bytes));
    parser.body_limit(context.limits.body_bytes);
    socket_layer.expires_after(context.limits.header_timeout);
    auto error = co_await session_detail::read_request(stream, buffer, parser, false);
    if (!error && !parser.is_done()) {
      const bool continued =
          co_await session_detail::send_continue_if_expected(stream, context, parser.get());
      if (!continued) {
        break;
      }
      socket_layer.expires_after(context.limits.body_timeout);
      error = co_await session_detail::read_request(stream, buffer, parser, true);
    }
    if (error) {
      if (auto answer = response_to_read_error(error)) {
        const session_detail::ExchangeWatch watch(context.observer);
        const std::string request_id = new_request_id();
        answer->set_header("X-Request-Id", request_id);
        write_response(wire, *answer, ResponseFraming{11, false, false});
        co_await session_detail::write_bytes(stream, context, wire);
        watch.finished(request_id, "", *answer, answer->body.size());
      }
      break;
    }
    const BeastRequest& request = parser.get();
    const session_detail::ExchangeWatch watch(context.observer);
    HttpRequest plain = to_http_request(request);
    plain.client_address = state.client_address;
    plain.accepted_key = &accepted_key;
    auto immediate = context.router.handle(plain, respond_later);
    HttpResponse response;
    if (immediate) {
      response = std::move(*immediate);
    } else {
      response = co_await deferred->wait();
    }
    const bool keep_alive = request.keep_alive() && !context.registry.draining();
    response.set_header("X-Request-Id", request_id_for(session_detail::sent_request_id(request)));
    const std::string_view request_id = response.headers.back().second;
    // RFC 9110 §9.3.2: a HEAD response has no content, but the length the GET would have.
    const ResponseFraming framing{request.version(), keep_alive,
                                  request.method() == bhttp::verb::head};
    write_response(wire, response, framing);
    const bool written = co_await session_detail::write_bytes(stream, context, wire);
    watch.finished(request_id, request.method_string(), response,
                   body_bytes_sent(response, framing));
    if (!written || !keep_alive) {
      break;
    }
  }
}

}  // namespace petstore::adapters::http

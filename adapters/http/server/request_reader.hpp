#pragma once
// RequestReader: a connection's read side: the read buffer (which outlives each request, since a
// pipelining client sends the next one early) and reads under HttpLimits' deadlines. Generic over
// the stream so that TLS reuses it. Connection's executor only.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/read_size.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/http/error.hpp>

#include "adapters/http/server/connection_registry.hpp"
#include "adapters/http/server/http_server.hpp"
#include "adapters/http/server/request_framing.hpp"

namespace petstore::adapters::http {

// The coroutines of the session take their parameters by reference, and none co_awaits inside a
// conditional expression: g++ 12 mishandles both.
inline constexpr auto use_tuple = boost::asio::as_tuple(boost::asio::use_awaitable);

// WakeClock: the steady clock read at most once per wake-up of a connection's coroutine: between
// suspensions only microseconds pass, and a read of the clock is not free. forget() after every
// co_await that may have suspended.
class WakeClock {
 public:
  using Clock = std::chrono::steady_clock;

  [[nodiscard]] Clock::time_point now() {
    if (!known_) {
      reading_ = Clock::now();
      known_ = true;
    }
    return reading_;
  }
  void forget() { known_ = false; }

 private:
  Clock::time_point reading_;
  bool known_ = false;
};

template <class Stream>
class RequestReader {
 public:
  RequestReader(Stream& stream, const HttpLimits& limits)
      : stream_(stream), limits_(limits), buffer_{read_buffer_ceiling(limits.header_bytes)} {}

  // await_request: waits until the first byte of a request is buffered (empty lines before it
  // are dropped); false when the connection should end instead: closed, timed out, or draining.
  // `idle` is true while it waits, for the registry's close_if_idle to read.
  boost::asio::awaitable<bool> await_request(const ConnectionRegistry& registry, bool& idle) {
    // A new connection owes its first request at once: the header timeout, not the idle one
    // (docs/decisions/first-request-deadline.md).
    const auto timeout = first_request_ ? limits_.header_timeout : limits_.idle_timeout;
    first_request_ = false;
    for (;;) {
      skip_empty_lines(buffer_);
      if (buffer_.size() > 0) {
        idle = false;
        co_return true;
      }
      idle = true;
      if (registry.draining()) {
        co_return false;
      }
      boost::beast::get_lowest_layer(stream_).expires_at(clock_.now() + timeout);
      const auto [error, read] = co_await stream_.async_read_some(buffer_.prepare(4096), use_tuple);
      clock_.forget();
      if (error) {
        co_return false;
      }
      buffer_.commit(read);
    }
  }

  // await_h2_preface: when the connection begins with HTTP/2's preface (RFC 9113 section 3.4:
  // prior knowledge), read under the header timeout, all that is buffered, taken out for HTTP/2 to
  // go on from; else empty. Called at the first request only.
  boost::asio::awaitable<std::string> await_h2_preface() {
    constexpr std::string_view preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    for (;;) {
      const std::string_view buffered(static_cast<const char*>(buffer_.data().data()),
                                      buffer_.size());
      const std::size_t compared = std::min(buffered.size(), preface.size());
      if (buffered.substr(0, compared) != preface.substr(0, compared)) {
        co_return std::string();
      }
      if (compared == preface.size()) {
        std::string taken(buffered);
        buffer_.consume(buffer_.size());
        co_return taken;
      }
      start_head();
      const auto [error, read] = co_await stream_.async_read_some(buffer_.prepare(4096), use_tuple);
      clock_.forget();
      if (error) {
        co_return std::string();
      }
      buffer_.commit(read);
    }
  }

  // start_head and start_body: the deadline for what follows (the head, then the body).
  void start_head() {
    boost::beast::get_lowest_layer(stream_).expires_at(clock_.now() + limits_.header_timeout);
  }
  void start_body() {
    boost::beast::get_lowest_layer(stream_).expires_at(clock_.now() + limits_.body_timeout);
  }

  // clock: the connection's clock, which the reads keep current (see WakeClock).
  WakeClock& clock() { return clock_; }

  // parse_buffered: feeds `parser` what is already buffered, not a coroutine, so that a request
  // that arrived whole (the usual case) costs no coroutine frame. need_more asks for read_more.
  [[nodiscard]] boost::system::error_code parse_buffered(RequestParser& parser,
                                                         bool whole_message) {
    return feed_parser(parser, buffer_, whole_message, limits_.header_bytes);
  }

  // read_more: reads until the head (whole_message false) or the whole request is parsed; the
  // buffer never grows past its ceiling. Errors are Beast's: end_of_stream, partial_message,
  // header_limit, body_limit, bad_*, timeout.
  boost::asio::awaitable<boost::system::error_code> read_more(RequestParser& parser,
                                                              bool whole_message) {
    namespace bhttp = boost::beast::http;
    for (;;) {
      const auto fed = parse_buffered(parser, whole_message);
      if (fed != bhttp::error::need_more) {
        co_return fed;
      }
      const std::size_t room = boost::beast::read_size(buffer_, read_chunk_bytes);
      if (room == 0) {
        co_return bhttp::error::buffer_overflow;  // unreachable while feed_parser bounds lines
      }
      const auto [error, read] = co_await stream_.async_read_some(buffer_.prepare(room), use_tuple);
      clock_.forget();
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
      buffer_.commit(read);
    }
  }

 private:
  Stream& stream_;
  const HttpLimits& limits_;
  boost::beast::flat_buffer buffer_;
  WakeClock clock_;
  bool first_request_ = true;
};

}  // namespace petstore::adapters::http

#pragma once
// Session: one HTTP/1.1 connection: an object holding its state, whose member coroutines are its
// steps. Generic over the stream so that TLS reuses it. Requests are read and answered one at a
// time, in order: pipelining is safe and a connection buffers one request and one response. Every
// read and write has a deadline.

#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include "adapters/http/api/trace_context.hpp"
#include "adapters/http/server/connection_registry.hpp"
#include "adapters/http/server/http_observer.hpp"
#include "adapters/http/server/request_framing.hpp"
#include "adapters/http/server/request_reader.hpp"
#include "adapters/http/server/response_slot.hpp"
#include "adapters/http/server/response_wire.hpp"
#include "application/accepted_key_memo.hpp"

namespace petstore::adapters::http {

template <class Stream>
class Session {
 public:
  // Session: serves `stream`, which, like `state` and what `context` names, outlives it.
  Session(Stream& stream, ConnectionState& state, const SessionContext& context)
      : stream_(stream),
        state_(state),
        context_(context),
        reader_(stream, context.limits),
        storage_timer_(stream.get_executor()) {}

  // run: answers requests until the client closes, a deadline passes, a read fails or the server
  // drains. The caller then closes the stream, unless h2_preface() has the connection's bytes.
  boost::asio::awaitable<void> run() {
    for (bool first = true;; first = false) {
      const bool arrived = co_await reader_.await_request(context_.registry, state_.idle);
      if (!arrived) {
        break;
      }
      if (first && context_.http2) {
        h2_received_ = co_await reader_.await_h2_preface();
        if (!h2_received_.empty()) {
          break;
        }
      }
      std::pmr::monotonic_buffer_resource arena(arena_bytes_.data(), arena_bytes_.size());
      RequestParser parser(arena);
      parser.header_limit(static_cast<std::uint32_t>(context_.limits.header_bytes));
      parser.body_limit(context_.limits.body_bytes);
      HeadVerdict head = co_await read_checked_request(parser);
      if (read_error_) {
        if (auto answer = response_to_read_error(read_error_)) {
          co_await send_final(*answer, nullptr, head);
        }
        break;
      }
      if (head.refusal) {
        co_await send_final(*head.refusal, &parser, head);
        break;
      }
      const bool keep_alive = co_await answer(parser, head);
      if (!keep_alive) {
        break;
      }
    }
  }

  // h2_preface: when run() ended on HTTP/2's connection preface (prior knowledge, h2c), the bytes
  // read so far, the preface first, for Http2Session to go on from; empty otherwise.
  [[nodiscard]] std::string h2_preface() && { return std::move(h2_received_); }

 private:
  // A usual request's fields and body fit: no heap allocation.
  static constexpr std::size_t request_arena_bytes = 2048;

  // Past this, the response buffer is given back after the write (a /docs script, say).
  static constexpr std::size_t kept_response_buffer = std::size_t{64} * 1024;

  // read_checked_request: the head, checked (with Expect: 100-continue also by screen_head before
  // the body is invited), then the body. Sets read_error_ when the request could not be read; the
  // verdict is default (no request id, no keep-alive) when no head was read.
  boost::asio::awaitable<HeadVerdict> read_checked_request(RequestParser& parser) {
    namespace bhttp = boost::beast::http;
    reader_.start_head();
    // Usually buffered already: parsed here, with no coroutine frame for read_more.
    read_error_ = reader_.parse_buffered(parser, false);
    if (read_error_ == bhttp::error::need_more) {
      read_error_ = co_await reader_.read_more(parser, false);
    }
    if (read_error_) {
      co_return HeadVerdict{};
    }
    HeadVerdict head = check_head(parser);
    if (head.refusal || parser.is_done()) {
      co_return head;
    }
    if (head.expects_continue) {
      head.refusal = context_.router.screen_head(plain_request(parser));
      if (head.refusal) {
        co_return head;
      }
      const bool continued = co_await send_continue();
      if (!continued) {
        read_error_ = boost::asio::error::connection_reset;
        co_return head;
      }
    }
    reader_.start_body();
    read_error_ = reader_.parse_buffered(parser, true);
    if (read_error_ == bhttp::error::need_more) {
      read_error_ = co_await reader_.read_more(parser, true);
    }
    if (!read_error_ && parser.trailer_bytes() > context_.limits.header_bytes) {
      read_error_ = bhttp::error::header_limit;
    }
    co_return head;
  }

  // answer: routes `request`, waits for its response (at most the storage timeout) and writes it;
  // true when the connection may carry another request.
  boost::asio::awaitable<bool> answer(const RequestParser& request, const HeadVerdict& head) {
    WakeClock& clock = reader_.clock();
    const ExchangeWatch watch(context_.observer, clock.now());
    // The client owes nothing while its request is answered (storage has a deadline of its own).
    boost::beast::get_lowest_layer(stream_).expires_never();
    HttpRequest& plain = plain_;
    plain = plain_request(request);
    plain.storage_deadline = clock.now() + context_.limits.storage_timeout;
    trace_ = trace_request(head.trace);
    plain.trace = &trace_;
    const auto slot = ResponseSlot::take_or_make(spare_slot_);
    RequestFacts facts;
    {
      const ResponseSlot::Answering answering(*slot);
      facts = context_.router.handle(plain, slot->responder());
    }
    HttpResponse response;
    if (auto answered = slot->take_answered()) {
      response = std::move(*answered);
    } else {
      state_.waiting = slot.get();
      if (context_.registry.refusing()) {
        slot->refuse_for_stop();  // the server stopped waiting before this request began to
      }
      response = co_await slot->wait(storage_timer_, plain.storage_deadline);
      state_.waiting = nullptr;
      clock.forget();
    }
    context_.router.add_cors_headers(plain, response);
    const bool keep_alive = !head.close_after && head.keep_alive && !context_.registry.draining();
    // RFC 9110 section 9.3.2: a HEAD response has no content, but the length a GET's would have.
    const ResponseFraming framing{request.version(),
                                  keep_alive,
                                  request.method() == boost::beast::http::verb::head,
                                  plain.accept_encoding,
                                  {}};
    const std::size_t body_bytes = serialize(response, framing, head);
    const auto [write_error, written_bytes] = co_await write_wire();
    clock.forget();
    release_large_wire();
    watch.finished(request_id_, trace_, request.method_string(), protocol_name(request.version()),
                   facts, response, body_bytes, clock.now());
    const bool go_on = !write_error && keep_alive;
    co_return go_on;
  }

  // send_final: writes `response`, the last on this connection, and reports it. `request` is the
  // head it answers, or null when none was read.
  boost::asio::awaitable<void> send_final(HttpResponse& response, const RequestParser* request,
                                          const HeadVerdict& head) {
    WakeClock& clock = reader_.clock();
    const ExchangeWatch watch(context_.observer, clock.now());
    const bool is_head = request != nullptr && request->method() == boost::beast::http::verb::head;
    const ResponseFraming framing{
        request != nullptr ? request->version() : 11U, false, is_head, {}, {}};
    trace_ = trace_request(head.trace);  // a new trace when no head was read
    const std::size_t body_bytes = serialize(response, framing, head);
    co_await write_wire();
    clock.forget();
    release_large_wire();
    RequestFacts facts;
    facts.client_address = state_.client_address;
    watch.finished(request_id_, trace_, request != nullptr ? request->method_string() : "",
                   protocol_name(framing.version), facts, response, body_bytes, clock.now());
  }

  static std::string_view protocol_name(unsigned version) {
    return version == 10 ? "HTTP/1.0" : "HTTP/1.1";
  }

  // send_continue: the interim 100 response of a client that waits for it before sending its
  // body (HTTP/1.1 only: RFC 9110 section 10.1.1 forbids it to an HTTP/1.0 client).
  boost::asio::awaitable<bool> send_continue() {
    static constexpr std::string_view interim = "HTTP/1.1 100 Continue\r\n\r\n";
    WakeClock& clock = reader_.clock();
    boost::beast::get_lowest_layer(stream_).expires_at(clock.now() + context_.limits.write_timeout);
    const auto [error, written] =
        co_await boost::asio::async_write(stream_, boost::asio::buffer(interim), use_tuple);
    clock.forget();
    co_return !error;
  }

  // serialize: `response`'s bytes into wire_, with its X-Request-Id (into request_id_) and
  // traceresponse; the body bytes sent.
  std::size_t serialize(const HttpResponse& response, ResponseFraming framing,
                        const HeadVerdict& head) {
    assign_request_id(request_id_, head.request_id);
    framing.request_id = request_id_;
    framing.traceresponse = trace_.parent();
    return write_response(wire_, response, framing);
  }

  // write_wire: sends wire_ within the write timeout. Not a coroutine itself, so that Asio's cache
  // of two freed frames a thread serves every request. Forget the clock once it is awaited.
  boost::asio::awaitable<std::tuple<boost::system::error_code, std::size_t>> write_wire() {
    boost::beast::get_lowest_layer(stream_).expires_at(reader_.clock().now() +
                                                       context_.limits.write_timeout);
    return boost::asio::async_write(stream_, boost::asio::buffer(wire_), use_tuple);
  }

  void release_large_wire() {
    if (wire_.capacity() > kept_response_buffer) {
      std::string().swap(wire_);
    }
  }

  HttpRequest plain_request(const RequestParser& request) {
    HttpRequest plain = request.request();
    plain.client_address = state_.client_address;
    plain.accepted_key = &accepted_key_;
    return plain;
  }

  Stream& stream_;
  ConnectionState& state_;
  const SessionContext context_;
  RequestReader<Stream> reader_;
  boost::system::error_code read_error_;  // how the last request's read ended
  std::string h2_received_;               // see h2_preface()
  std::string wire_;           // each response's bytes, in a buffer the connection reuses
  std::string request_id_;     // each response's X-Request-Id, likewise
  ports::TraceContext trace_;  // each request's trace context, likewise
  // The request being answered. A member, not a local of answer(): asio recycles a coroutine's
  // frame only up to 1,020 bytes (docs/benchmarks.md, "Two cores, against the last landed commit").
  HttpRequest plain_;
  std::shared_ptr<ResponseSlot> spare_slot_;  // the last request's slot, reused once released
  boost::asio::steady_timer storage_timer_;   // the slot's wait, reused by every request
  application::AcceptedKeyMemo accepted_key_;
  alignas(std::max_align_t) std::array<std::byte, request_arena_bytes> arena_bytes_;
};

}  // namespace petstore::adapters::http

#pragma once
// Http2Session: one HTTP/2 connection's I/O, over a plain or a TLS stream. HTTP/2 is full duplex,
// so a read loop feeding Http2Protocol and a write loop (woken when storage answers) run at once;
// the connection's one deadline is whatever the protocol or a pending write owes soonest.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/stream_traits.hpp>

#include "adapters/http/server/connection_registry.hpp"
#include "adapters/http/server/h2_protocol.hpp"
#include "adapters/http/server/request_reader.hpp"

namespace petstore::adapters::http {

template <class Stream>
class Http2Session {
 public:
  using Clock = std::chrono::steady_clock;

  // Http2Session: serves `stream`, which, like `state` and what `context` names, outlives it.
  Http2Session(Stream& stream, ConnectionState& state, const SessionContext& context)
      : stream_(stream), state_(state), context_(context), wake_timer_(stream.get_executor()) {}
  Http2Session(const Http2Session&) = delete;
  Http2Session& operator=(const Http2Session&) = delete;
  ~Http2Session() {
    if (protocol_) {
      protocol_->detach();
    }
  }

  // run: serves until the connection ends. `received`: bytes HTTP/1.1 read already (the preface).
  boost::asio::awaitable<void> run(std::string received) {
    using namespace boost::asio::experimental::
        awaitable_operators;  // NOLINT(google-build-using-namespace)
    protocol_ = std::make_shared<Http2Protocol>(stream_.get_executor(), state_, context_,
                                                [this] { wake(); });
    state_.streams = protocol_.get();
    state_.idle = false;
    if (!received.empty() && !protocol_->receive(received)) {
      reading_done_ = true;
    }
    co_await (read_loop() && write_loop());
    protocol_->detach();
  }

 private:
  static constexpr std::size_t read_bytes = 16384;
  // The most frames gathered for one write: a few DATA frames of the usual maximum size.
  static constexpr std::size_t write_bytes = 65536;

  boost::asio::awaitable<void> read_loop() {
    std::vector<char> buffer(read_bytes);
    while (!reading_done_ && protocol_->wants_read()) {
      refresh_deadline();
      const auto [error, read] =
          co_await stream_.async_read_some(boost::asio::buffer(buffer), use_tuple);
      if (error || !protocol_->receive({buffer.data(), read})) {
        break;
      }
      wake();
    }
    reading_done_ = true;
    wake();
  }

  boost::asio::awaitable<void> write_loop() {
    for (;;) {
      out_.clear();
      if (!protocol_->produce(out_, write_bytes)) {
        break;
      }
      if (!out_.empty()) {
        write_started_ = Clock::now();
        refresh_deadline();
        const auto [error, written] =
            co_await boost::asio::async_write(stream_, boost::asio::buffer(out_), use_tuple);
        write_started_.reset();
        if (error) {
          break;
        }
        continue;
      }
      if (reading_done_ || (!protocol_->wants_read() && !protocol_->wants_write())) {
        break;
      }
      refresh_deadline();
      if (!woken_) {
        wake_timer_.expires_at(Clock::time_point::max());
        co_await wake_timer_.async_wait(use_tuple);
      }
      woken_ = false;
    }
    // The connection is over: a read still waiting is cancelled.
    reading_done_ = true;
    boost::system::error_code ignored;
    boost::beast::get_lowest_layer(stream_).socket().cancel(ignored);
  }

  void wake() {
    woken_ = true;
    wake_timer_.cancel();
  }

  void refresh_deadline() {
    std::optional<Clock::time_point> due = protocol_->deadline();
    if (write_started_) {
      const auto write_due = *write_started_ + context_.limits.write_timeout;
      due = due ? std::min(*due, write_due) : write_due;
    }
    auto& lowest = boost::beast::get_lowest_layer(stream_);
    if (due) {
      lowest.expires_at(*due);
    } else {
      lowest.expires_never();
    }
  }

  Stream& stream_;
  ConnectionState& state_;
  const SessionContext context_;
  std::shared_ptr<Http2Protocol> protocol_;
  boost::asio::steady_timer wake_timer_;
  std::string out_;
  std::optional<Clock::time_point> write_started_;
  bool reading_done_ = false;
  bool woken_ = false;
};

}  // namespace petstore::adapters::http

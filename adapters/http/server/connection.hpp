#pragma once
// One accepted connection's objects, used by http_server.cpp alone.
// DeadlineStream: a TCP socket closed when its deadline passes (a pending read or write then
// fails), like Beast's tcp_stream without a timer operation per read and write: a later deadline
// is a store, only an earlier one re-arms the one watchdog (docs/decisions/deadline-stream.md).
// The deadline runs between operations too: expires_never() lifts it while the client owes
// nothing. Connection's executor only.
// Connection: the registry's asks (ConnectionControl) come from any thread and are carried out on
// the connection's own executor, where its session runs.

#include <chrono>
#include <memory>
#include <utility>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/system/error_code.hpp>

#include "adapters/http/server/connection_registry.hpp"
#include "adapters/http/server/h2_protocol.hpp"
#include "adapters/http/server/response_slot.hpp"

namespace petstore::adapters::http {

class DeadlineStream {
 public:
  // Asio's names: what its stream concepts and asio::ssl::stream ask of the layer below.
  using executor_type = boost::asio::any_io_executor;  // NOLINT(readability-identifier-naming)
  using lowest_layer_type = DeadlineStream;            // NOLINT(readability-identifier-naming)
  using Clock = std::chrono::steady_clock;

  explicit DeadlineStream(boost::asio::ip::tcp::socket socket)
      : state_(std::make_shared<State>(std::move(socket))) {}

  DeadlineStream(const DeadlineStream&) = delete;
  DeadlineStream& operator=(const DeadlineStream&) = delete;
  DeadlineStream(DeadlineStream&&) = delete;
  DeadlineStream& operator=(DeadlineStream&&) = delete;
  ~DeadlineStream() { state_->watchdog.cancel(); }

  executor_type get_executor() { return state_->socket.get_executor(); }
  boost::asio::ip::tcp::socket& socket() { return state_->socket; }
  lowest_layer_type& lowest_layer() { return *this; }

  // expires_after: what the client owes must come (or be taken) within `timeout`, or it closes.
  void expires_after(Clock::duration timeout) { expires_at(Clock::now() + timeout); }

  // expires_at: for a caller that has read the clock already.
  void expires_at(Clock::time_point deadline) {
    State& state = *state_;
    state.deadline = deadline;
    if (!state.watching || state.deadline < state.watchdog.expiry()) {
      watch(state_);  // the watchdog would wake too late for this deadline
    }
  }

  // expires_never: no deadline until the next expires_after (an armed watchdog finds none due).
  void expires_never() { state_->deadline = Clock::time_point::max(); }

  void close() {
    shut(*state_);
    state_->watchdog.cancel();
    state_->watching = false;
  }

  template <class MutableBuffers, class Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return state_->socket.async_read_some(buffers, std::forward<Token>(token));
  }

  template <class ConstBuffers, class Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    return state_->socket.async_write_some(buffers, std::forward<Token>(token));
  }

 private:
  // State: held by the watchdog's handler by a weak reference: a wait that has already expired
  // cannot be cancelled, and its handler may run after the stream is gone.
  struct State {
    explicit State(boost::asio::ip::tcp::socket socket_to_own)
        : socket(std::move(socket_to_own)), watchdog(socket.get_executor()) {}
    boost::asio::ip::tcp::socket socket;
    boost::asio::steady_timer watchdog;
    Clock::time_point deadline = Clock::time_point::max();
    bool watching = false;  // a wait of the watchdog is pending
  };

  // shut: shutdown, then close: under Asio's io_uring backend a pending read keeps the file open
  // past close(2), and the client would hear nothing until its next bytes.
  static void shut(State& state) {
    boost::system::error_code ignored;
    state.socket.shutdown(boost::asio::socket_base::shutdown_both, ignored);
    state.socket.close(ignored);
  }

  static void watch(const std::shared_ptr<State>& state) {
    state->watchdog.expires_at(state->deadline);
    state->watchdog.async_wait(
        [weak = std::weak_ptr<State>(state)](const boost::system::error_code& error) {
          const auto alive = weak.lock();
          if (!alive || error == boost::asio::error::operation_aborted) {
            return;  // the stream is gone, or the wait was replaced or stopped
          }
          alive->watching = false;
          if (!alive->socket.is_open()) {
            return;
          }
          if (Clock::now() >= alive->deadline) {
            shut(*alive);
          } else if (alive->deadline != Clock::time_point::max()) {
            watch(alive);  // the deadline moved on since the watchdog was armed
          }
        });
    state->watching = true;
  }

  std::shared_ptr<State> state_;
};

// Connection: one accepted connection over `Stream`. `context_` keeps a TLS connection's context
// alive after a reload replaced it.
template <class Stream>
class Connection final : public ConnectionControl,
                         public std::enable_shared_from_this<Connection<Stream>> {
 public:
  template <class... StreamArguments>
  explicit Connection(std::shared_ptr<void> context, StreamArguments&&... arguments)
      : context_(std::move(context)), stream_(std::forward<StreamArguments>(arguments)...) {}

  void close_if_idle() override {
    boost::asio::post(stream_.get_executor(), [self = this->shared_from_this()] {
      if (self->state_.streams != nullptr) {
        self->state_.streams->drain();
      } else if (self->state_.idle) {
        boost::beast::get_lowest_layer(self->stream_).close();
      }
    });
  }

  void close_now() override { boost::beast::get_lowest_layer(stream_).close(); }

  void refuse_waiting_request() override {
    boost::asio::post(stream_.get_executor(), [self = this->shared_from_this()] {
      if (self->state_.streams != nullptr) {
        self->state_.streams->refuse_waiting();
      } else if (self->state_.waiting != nullptr) {
        self->state_.waiting->refuse_for_stop();
      }
    });
  }

  Stream& stream() { return stream_; }
  ConnectionState& state() { return state_; }

 private:
  std::shared_ptr<void> context_;
  Stream stream_;
  ConnectionState state_;
};

}  // namespace petstore::adapters::http

#pragma once
// DeadlineStream: a TCP socket closed when its deadline passes (a pending read or write then
// fails), like Beast's tcp_stream but cheaper: tcp_stream arms and cancels a timer around each read
// and write (two timer-queue updates and a cancelled handler, each way of each request). Here a
// deadline is a time; one watchdog timer wakes when the earliest deadline since it was armed comes
// due, then closes the socket or sleeps until the current deadline: a later deadline is a store, an
// earlier one re-arms the watchdog (on a busy kept-alive connection, about twice a header timeout,
// not once a request). Unlike tcp_stream's, the deadline runs between operations too:
// expires_never() lifts it while the client owes nothing. Used on the connection's executor only.

#include <chrono>
#include <memory>
#include <utility>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/system/error_code.hpp>

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

  // expires_after: what the client owes from now on must come (or be taken) within `timeout` of
  // now, or the socket is closed.
  void expires_after(Clock::duration timeout) { expires_at(Clock::now() + timeout); }

  // expires_at: the same with the deadline given, for a caller that has read the clock already.
  void expires_at(Clock::time_point deadline) {
    State& state = *state_;
    state.deadline = deadline;
    if (!state.watching || state.deadline < state.watchdog.expiry()) {
      watch(state_);  // the watchdog would wake too late for this deadline
    }
  }

  // expires_never: no deadline until the next expires_after (the watchdog, if armed, wakes once
  // more and finds nothing due).
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
  // State: shared with the watchdog's handler by a weak reference, because a wait that has
  // already expired cannot be cancelled: its handler may run after the stream is gone (the
  // connection ended by a read completing in the same pass), and must then find nothing to touch.
  struct State {
    explicit State(boost::asio::ip::tcp::socket socket_to_own)
        : socket(std::move(socket_to_own)), watchdog(socket.get_executor()) {}
    boost::asio::ip::tcp::socket socket;
    boost::asio::steady_timer watchdog;
    Clock::time_point deadline = Clock::time_point::max();
    bool watching = false;  // a wait of the watchdog is pending
  };

  // shut: shuts the connection down, then closes the socket. The shutdown is for Asio's io_uring
  // backend: there a pending read keeps the file open past close(2), so without it the client
  // would hear nothing until its next bytes ended that read.
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

}  // namespace petstore::adapters::http

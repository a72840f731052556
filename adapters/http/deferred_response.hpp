#pragma once
// DeferredResponse: hands a response produced on another thread (a storage commit) back to the
// connection's coroutine on its own strand. One serves a connection's requests in turn (a
// connection answers one request at a time), so a request that is answered at once costs nothing
// here. Included only by the Beast translation units.

#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "adapters/http/http_message.hpp"

namespace petstore::adapters::http {

class DeferredResponse : public std::enable_shared_from_this<DeferredResponse> {
 public:
  // REQUIRES: `executor` is the strand of the coroutine that will call wait().
  explicit DeferredResponse(const boost::asio::any_io_executor& executor) : wake_(executor) {
    wake_.expires_at(boost::asio::steady_timer::time_point::max());
  }

  // responder: the callback to give the router; safe to call from any thread, once per request.
  [[nodiscard]] Respond responder() {
    return [self = shared_from_this()](HttpResponse response) {
      bool waiting = false;
      {
        const std::lock_guard lock(self->mutex_);
        self->response_ = std::move(response);
        waiting = self->waiting_;
      }
      // A response given before wait() (storage that answers at once) needs no wake-up.
      if (waiting) {
        boost::asio::post(self->wake_.get_executor(), [self] { self->wake_.cancel(); });
      }
    };
  }

  // wait: the response, once the responder has been called; then ready for the next request.
  // A wake-up meant for an earlier request only makes it look again.
  boost::asio::awaitable<HttpResponse> wait() {
    for (;;) {
      {
        const std::lock_guard lock(mutex_);
        if (response_) {
          HttpResponse response = std::move(*response_);
          response_.reset();
          waiting_ = false;
          co_return response;
        }
        // Set under the lock the responder reads it with; the wake-up it then posts runs on
        // this coroutine's executor, so only once the wait below has begun.
        waiting_ = true;
      }
      co_await wake_.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
    }
  }

 private:
  boost::asio::steady_timer wake_;
  std::mutex mutex_;
  std::optional<HttpResponse> response_;
  bool waiting_ = false;  // wait() is suspended, or about to be, until a response comes
};

}  // namespace petstore::adapters::http

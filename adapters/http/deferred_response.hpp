#pragma once
// DeferredResponse: hands a response produced on another thread (a storage commit) back to the
// connection's coroutine on its own strand. Included only by the Beast translation units.

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

  // responder: the callback to give the router; safe to call from any thread, once.
  [[nodiscard]] Respond responder() {
    return [self = shared_from_this()](HttpResponse response) {
      {
        const std::lock_guard lock(self->mutex_);
        self->response_ = std::move(response);
      }
      boost::asio::post(self->wake_.get_executor(), [self] { self->wake_.cancel(); });
    };
  }

  // wait: the response, once the responder has been called.
  boost::asio::awaitable<HttpResponse> wait() {
    for (;;) {
      {
        const std::lock_guard lock(mutex_);
        if (response_) {
          co_return std::move(*response_);
        }
      }
      co_await wake_.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
    }
  }

 private:
  boost::asio::steady_timer wake_;
  std::mutex mutex_;
  std::optional<HttpResponse> response_;
};

}  // namespace petstore::adapters::http

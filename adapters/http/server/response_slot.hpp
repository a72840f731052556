#pragma once
// ResponseSlot: where one request's response arrives, from any thread, exactly once, for the
// connection's coroutine to take on its own executor. A slot is reused only once nothing else
// holds it, so a late answer never lands in a later request. Past the deadline wait() gives 503
// and drops the late answer; a responder dropped uncalled answers 500 (Respond); refuse_for_stop
// gives 503. Only /v1 waits for storage, so these carry the /v1 headers.
// A slot holds no I/O object: storage may keep a responder after the server is gone.

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "adapters/http/api/error_response.hpp"
#include "adapters/http/api/http_message.hpp"

namespace petstore::adapters::http {

class ResponseSlot : public std::enable_shared_from_this<ResponseSlot> {
 public:
  // take_or_make: `spare` when only the caller holds it, else a new slot; either way empty.
  static std::shared_ptr<ResponseSlot> take_or_make(std::shared_ptr<ResponseSlot>& spare) {
    if (spare && spare.use_count() == 1) {
      spare->reset();
      return spare;
    }
    spare = std::make_shared<ResponseSlot>();
    return spare;
  }

  // responder: the callback to give the router; call it once, from any thread.
  [[nodiscard]] Respond responder() { return Responder{shared_from_this()}; }

  // Answering: while it lives, this thread routes the slot's request and nobody waits yet. A
  // response given on this thread meanwhile (the common case) is stored without the lock: no other
  // thread answers at the same time, and take_answered() and the next reset() run here too.
  class Answering {
   public:
    explicit Answering(ResponseSlot& slot) : previous_(std::exchange(answering, &slot)) {}
    Answering(const Answering&) = delete;
    Answering& operator=(const Answering&) = delete;
    ~Answering() { answering = previous_; }

   private:
    ResponseSlot* previous_;
  };

  // take_answered: the response, when the responder was called before anyone waited, ending the
  // request as wait() would; else nullopt. Spares such a request the wait's coroutine and timer.
  [[nodiscard]] std::optional<HttpResponse> take_answered() {
    std::unique_lock lock(mutex_, std::defer_lock);
    if (!answered_here_) {
      lock.lock();  // a response from another thread, if any
    }
    if (!response_) {
      return std::nullopt;
    }
    closed_ = true;
    std::optional<HttpResponse> answered = std::move(response_);
    response_.reset();
    return answered;
  }

  // refuse_for_stop: answers 503 unavailable, "the service is stopping", unless the request has
  // its response already; storage's answer is dropped when it comes. From any thread.
  void refuse_for_stop() {
    put(refusal(503, "unavailable", "the service is stopping; try again later"));
  }

  // wait: the response, or 503 once `deadline` (the storage call's too: one clock) has passed.
  // `timer` belongs to the calling coroutine; a response wakes it.
  boost::asio::awaitable<HttpResponse> wait(boost::asio::steady_timer& timer,
                                            std::chrono::steady_clock::time_point deadline) {
    const Waiter waiter(*this, timer);
    bool armed = false;
    for (;;) {
      {
        const std::lock_guard lock(mutex_);
        if (response_) {
          co_return std::move(*response_);
        }
        if (armed && timer.expiry() <= boost::asio::steady_timer::clock_type::now()) {
          co_return refusal(503, "unavailable", "storage did not answer in time; try again later");
        }
      }
      if (!armed) {
        timer.expires_at(deadline);
        armed = true;
      }
      co_await timer.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
    }
  }

 private:
  // Responder: the target of one request's Respond: a claim on the slot. The Respond is
  // move-only and answers 500 when dropped uncalled, so the slot needs no count of its own.
  struct Responder {
    std::shared_ptr<ResponseSlot> slot;
    void operator()(HttpResponse response) const { slot->put(std::move(response)); }
  };

  // Waiter: registers the waiting coroutine's timer for a wait. When the wait ends (even by the
  // coroutine's destruction) the slot forgets the timer and drops any answer still to come.
  class Waiter {
   public:
    Waiter(ResponseSlot& slot, boost::asio::steady_timer& timer) : slot_(slot) {
      const std::lock_guard lock(slot_.mutex_);
      slot_.timer_ = &timer;
    }
    Waiter(const Waiter&) = delete;
    Waiter& operator=(const Waiter&) = delete;
    ~Waiter() {
      const std::lock_guard lock(slot_.mutex_);
      slot_.timer_ = nullptr;
      slot_.closed_ = true;
    }

   private:
    ResponseSlot& slot_;
  };

  void put(HttpResponse response) {
    if (answering == this) {  // see Answering: nobody waits, and no other thread answers
      if (!closed_ && !response_) {
        response_ = std::move(response);
        answered_here_ = true;
      }
      return;
    }
    const std::lock_guard lock(mutex_);
    if (closed_ || response_) {
      return;  // too late: the request was answered, or its connection is gone
    }
    response_ = std::move(response);
    // An answer given before wait() began (storage that answers at once) needs no wake-up.
    // Posted under the lock, so that the waiter (whose end takes the lock) still exists.
    if (timer_ != nullptr) {
      boost::asio::post(timer_->get_executor(), [self = shared_from_this()] { self->wake(); });
    }
  }

  void wake() {
    const std::lock_guard lock(mutex_);
    if (timer_ != nullptr) {
      timer_->cancel();
    }
  }

  // reset: only while nothing else holds the slot, so no responder is alive. The lock sees the
  // writes of a response given on another thread; one given on this thread needs none.
  void reset() {
    std::unique_lock lock(mutex_, std::defer_lock);
    if (!answered_here_) {
      lock.lock();
    }
    answered_here_ = false;
    response_.reset();
    closed_ = false;
  }

  std::mutex mutex_;
  std::optional<HttpResponse> response_;
  boost::asio::steady_timer* timer_ = nullptr;  // the waiting coroutine's, while it waits
  bool closed_ = false;                         // the wait is over: later answers are dropped
  bool answered_here_ = false;  // this request's response was given while Answering, unlocked

  // The slot whose request this thread is routing (Answering), or null.
  static inline thread_local ResponseSlot* answering = nullptr;
};

}  // namespace petstore::adapters::http

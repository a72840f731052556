#pragma once
// ResponseSlot: where one request's response arrives, from any thread, exactly once, for the
// connection's coroutine to take on its own executor. Every request gets its own slot (a slot is
// reused only once nothing else holds it), so a late answer can never land in a later request.
// responder() is the one way a response comes back, whether the router answers at once or
// storage answers later:
// - past the deadline with no answer, wait() gives 503 unavailable and the late answer is
//   dropped;
// - a responder dropped uncalled (a completion lost by storage) answers 500 as it goes
//   (Respond, http_message.hpp), instead of hanging the connection;
// - when the server stops waiting (refuse_for_stop: a drain out of time), 503 unavailable.
// Only operations under /v1 wait for storage, so both carry the /v1 headers (refusal()).
// A slot holds no I/O object: storage may keep a responder after the server and its io_context
// are gone, and its answer then goes nowhere.

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
  // take_or_make: `spare` when nothing but the caller holds it (a finished request's slot),
  // else a new slot; either way empty and ready for one request.
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

  // Answering: while it lives, the calling thread is routing the slot's request (nobody waits
  // yet). A response given on this thread meanwhile (storage that answers at once, the common
  // case) is stored without the lock: a request has one response, so no other thread gives one
  // at the same time, and take_answered() and the next reset() then run on this thread too.
  class Answering {
   public:
    explicit Answering(ResponseSlot& slot) : previous_(std::exchange(answering, &slot)) {}
    Answering(const Answering&) = delete;
    Answering& operator=(const Answering&) = delete;
    ~Answering() { answering = previous_; }

   private:
    ResponseSlot* previous_;
  };

  // take_answered: the response, when the responder was called before anyone waited (storage
  // that answers at once, the common case), ending the request as wait() would; else nullopt.
  // Spares such a request the wait's coroutine and timer.
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

  // wait: the response, once the responder has been called, or 503 once `deadline` has passed
  // without one (the deadline the storage call carries too: one clock). `timer` belongs to the
  // calling coroutine and runs on its executor; while the wait lasts, a response wakes it.
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

  // Waiter: registers the waiting coroutine's timer for the length of a wait. When the wait ends
  // (answered, timed out, or its coroutine destroyed with the server), the slot forgets the
  // timer and drops any answer still to come.
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

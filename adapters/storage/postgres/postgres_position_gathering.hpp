#pragma once
// PositionGathering: the reads waiting for the primary's flushed WAL position (ReplicaReads),
// gathered into batches by PositionBatches' rule (postgres_freshness.hpp), and the timer thread
// that sends a batch whose window has passed while no read joined and no answer came. Each batch
// is one position query, which the owner sends when told to. Thread-safe.

#include <chrono>
#include <functional>
#include <mutex>
#include <vector>

#include "adapters/storage/postgres/postgres_event_loop.hpp"
#include "adapters/storage/postgres/postgres_freshness.hpp"
#include "adapters/storage/postgres/postgres_work.hpp"

namespace petstore::adapters::storage::postgres {

class PositionGathering {
 public:
  using Clock = std::chrono::steady_clock;

  // `send_query` sends one position query, whose answer comes back through answered(). It is
  // called on the thread of join(), answered() or the timer, never under this object's lock.
  PositionGathering(GatherRule rule, std::function<void()> send_query);
  PositionGathering(const PositionGathering&) = delete;
  PositionGathering& operator=(const PositionGathering&) = delete;
  ~PositionGathering();  // close()s; the timer thread is joined

  // join: `work`'s read starts now; it waits at most the window (and never past its deadline)
  // before its query is sent.
  void join(Work work);
  // answered: the reads the query in flight served; the next query is sent if its batch is due.
  [[nodiscard]] std::vector<Work> answered();
  // close: the timer stops; every read gathered, or joining later, goes with a query at once.
  void close();

 private:
  // now_locked: the time the rule sees; once closed, the end of time (everything is due).
  [[nodiscard]] Clock::time_point now_locked() const;
  // arm_locked: true when the timer must be woken to send the gathered batch sooner.
  [[nodiscard]] bool arm_locked();
  Clock::time_point on_timer();

  std::function<void()> send_query_;
  std::mutex mutex_;
  PositionBatches<Work> batches_;
  bool closed_ = false;
  Clock::time_point timer_at_ = Clock::time_point::max();  // when the timer wakes at the latest
  EventLoop timer_{[this](Clock::time_point) { return on_timer(); }};  // last: joined first
};

}  // namespace petstore::adapters::storage::postgres

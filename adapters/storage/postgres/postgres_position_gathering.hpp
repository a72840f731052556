#pragma once
// PositionGathering: the reads waiting for the primary's flushed position, batched by
// PositionBatches (postgres_freshness.hpp), one query a batch. Thread-safe, with no thread of its
// own: a loop its owner runs anyway ticks it, to send a batch whose window has passed.

#include <chrono>
#include <functional>
#include <mutex>
#include <vector>

#include "adapters/storage/postgres/postgres_event_loop.hpp"
#include "adapters/storage/postgres/postgres_freshness.hpp"
#include "adapters/storage/postgres/postgres_work.hpp"

namespace petstore::adapters::storage::postgres {

class PositionGathering final : public LoopClient {
 public:
  using Clock = std::chrono::steady_clock;

  // `send_query` sends one position query, whose answer comes back through answered(). It is
  // called on the thread of join(), answered() or the pacing loop, never under this object's
  // lock. `wake_loop` makes the loop that drives this client run a turn soon.
  PositionGathering(GatherRule rule, std::function<void()> send_query,
                    std::function<void()> wake_loop);
  PositionGathering(const PositionGathering&) = delete;
  PositionGathering& operator=(const PositionGathering&) = delete;
  ~PositionGathering() override;  // close()s

  // join: `work`'s read starts now; it waits at most the window (and never past its deadline)
  // before its query is sent.
  void join(Work work);
  // answered: the reads the query in flight served; the next query is sent if its batch is due.
  [[nodiscard]] std::vector<Work> answered();
  // close: every read gathered, or joining later, goes with a query at once.
  void close();

  // LoopClient: no socket, only ticks.
  [[nodiscard]] int socket() const override { return -1; }
  [[nodiscard]] bool wants_read() const override { return false; }
  [[nodiscard]] bool wants_write() const override { return false; }
  void on_socket(bool /*readable*/, bool /*writable*/) override {}
  [[nodiscard]] Clock::time_point next_tick() const override;
  void on_tick(Clock::time_point now) override;

 private:
  // now_locked: the time the rule sees; once closed, the end of time (everything is due).
  [[nodiscard]] Clock::time_point now_locked() const;
  // arm_locked: true when the loop must be woken to send the gathered batch sooner than it
  // would turn anyway.
  [[nodiscard]] bool arm_locked();
  // send_or_wake: what was decided under the lock, done once it is let go.
  void send_or_wake(bool send, bool wake) const {
    if (send) {
      send_query_();
    } else if (wake) {
      wake_loop_();
    }
  }

  std::function<void()> send_query_;
  std::function<void()> wake_loop_;
  mutable std::mutex mutex_;
  PositionBatches<Work> batches_;
  bool closed_ = false;
  Clock::time_point tick_at_ = Clock::time_point::max();  // the loop's next tick for a batch
};

}  // namespace petstore::adapters::storage::postgres

#pragma once
// The freshness rule of reads from replicas (contract section 10; docs/decisions/replica-reads.md),
// and PositionGathering, which sends the position queries it needs on the primary's loop. A
// replica serves a read only once it has replayed the primary's WAL up to a flush position read
// AFTER the read started. One position query serves a batch of reads, but a read joins only a
// query not yet sent: one already out may predate the read and miss a commit.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "adapters/storage/postgres/postgres_event_loop.hpp"
#include "adapters/storage/postgres/postgres_work.hpp"

namespace petstore::adapters::storage::postgres {

// Lsn: a WAL position as a number (pg_lsn's text "16/B374D848" is its high and low 32 bits).
using Lsn = std::uint64_t;

// parse_lsn: the position in pg_lsn's text form; nullopt for anything else (NULL included).
[[nodiscard]] std::optional<Lsn> parse_lsn(std::string_view text);
// format_lsn: pg_lsn's text form of `lsn` (upper-case hex, as PostgreSQL writes it).
[[nodiscard]] std::string format_lsn(Lsn lsn);

// ReplicaVerdict: whether a read on a replica whose replay position was `replayed` (read in an
// EARLIER statement than the read's own, so before the read's snapshot) is fresh for `required`.
enum class ReplicaVerdict {
  fresh,        // replayed >= required: every acknowledged pet is visible to the read
  lagging,      // behind: wait a moment, or read the primary
  not_standby,  // no replay position (not in recovery, or an unreadable answer): do not use it
};
[[nodiscard]] inline ReplicaVerdict judge_replica(std::optional<Lsn> replayed, Lsn required) {
  if (!replayed) {
    return ReplicaVerdict::not_standby;
  }
  return *replayed >= required ? ReplicaVerdict::fresh : ReplicaVerdict::lagging;
}

// GatherRule: when the next position query goes, none being in flight: once `enough` reads wait,
// `window` after the previous query went, or at a waiter's deadline, whichever is first. So a read
// after a quiet spell goes at once; the default holds no read back.
struct GatherRule {
  std::size_t enough = 1;
  std::chrono::steady_clock::duration window{};
};

// PositionBatches: the reads waiting for a flush position, as one query in flight and the batch
// gathering for the next one. Not thread-safe: its owner locks. Waiter is what answers a read.
// Time is given, never read: the owner's timer calls due() at send_at().
template <class Waiter>
class PositionBatches {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  explicit PositionBatches(GatherRule rule = {}) : rule_(rule) {}

  // join: `waiter`'s read starts at `now` and must not be held for company past `deadline`. True
  // when the caller must send a query now: the batch it joined (with it) has just gone.
  [[nodiscard]] bool join(Waiter waiter, TimePoint now, TimePoint deadline) {
    next_.push_back(std::move(waiter));
    send_by_ = std::min(send_by_, deadline);
    return send_if_ready(now);
  }

  // due: the owner's timer at `now`. True when the caller must send the gathered batch's query now.
  [[nodiscard]] bool due(TimePoint now) { return send_if_ready(now); }

  // send_at: when the gathered batch goes at the latest if no more reads join (the owner's timer
  // must call due() then); nullopt when none gathers or a query is in flight (its answer decides).
  [[nodiscard]] std::optional<TimePoint> send_at() const {
    if (in_flight_ || next_.empty()) {
      return std::nullopt;
    }
    return std::min(quiet_until_, send_by_);
  }

  // Answered: the batch the query in flight served (to answer with its position or failure),
  // and whether the caller must send the next query now, for the reads gathered meanwhile.
  struct Answered {
    std::vector<Waiter> waiters;
    bool send_next = false;
  };
  // answered: the query in flight has its answer at `now`. REQUIRES: a query is in flight.
  [[nodiscard]] Answered answered(TimePoint now) {
    Answered result{std::exchange(sent_, {}), false};
    in_flight_ = false;
    result.send_next = send_if_ready(now);
    return result;
  }

 private:
  // send_if_ready: the gathered batch becomes the one in flight when the rule says it goes.
  bool send_if_ready(TimePoint now) {
    if (in_flight_ || next_.empty() ||
        (next_.size() < rule_.enough && now < std::min(quiet_until_, send_by_))) {
      return false;
    }
    sent_ = std::exchange(next_, {});
    in_flight_ = true;
    send_by_ = TimePoint::max();
    // Saturating: a closing owner passes TimePoint::max() to send whatever gathers at once.
    quiet_until_ = now > TimePoint::max() - rule_.window ? TimePoint::max() : now + rule_.window;
    return true;
  }

  GatherRule rule_;
  std::vector<Waiter> sent_;  // the query in flight answers these
  std::vector<Waiter> next_;  // joined after it was sent
  bool in_flight_ = false;
  TimePoint quiet_until_ = TimePoint::min();  // the previous query went at this minus window
  TimePoint send_by_ = TimePoint::max();      // the earliest deadline in next_
};

// PositionGathering: the reads waiting for the primary's flushed position, batched by
// PositionBatches, one query a batch. Thread-safe, with no thread of its own: a loop its owner
// runs anyway ticks it, to send a batch whose window has passed.
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

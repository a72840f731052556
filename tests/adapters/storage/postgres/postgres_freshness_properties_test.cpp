// PositionBatches' gathering rule (postgres_freshness.hpp) as properties: reads join at random
// times with random deadlines, each query's answer comes a random round trip after it was sent,
// and a perfect timer calls due() at send_at(). Every read is answered exactly once, by a query
// sent after it joined (so its position was read after the read started), no read is held past
// the later of its window, its deadline and the answer of the query it had to wait for, and
// under load (reads joining at least `enough` a window) a query carries `enough` reads.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "adapters/storage/postgres/postgres_freshness.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using TimePoint = PositionBatches<int>::TimePoint;
using std::chrono::microseconds;

// Arrival: a read joining gap_us after the previous one; its deadline deadline_us after it joins,
// none when -1, or already past when below -1.
struct Arrival {
  int gap_us;
  int deadline_us;
};

// Simulation: the batches driven as ReplicaReads drives them, the events in time order.
class Simulation {
 public:
  Simulation(GatherRule rule, std::vector<int> round_trips_us)
      : rule_(rule), batches_(rule), round_trips_(std::move(round_trips_us)) {}

  void run(const std::vector<Arrival>& arrivals) {
    std::size_t next = 0;
    TimePoint next_join = now_ + microseconds(arrivals.empty() ? 0 : arrivals[0].gap_us);
    while (next < arrivals.size() || answer_at_ || batches_.send_at()) {
      const auto timer = batches_.send_at();
      if (answer_at_ && (next == arrivals.size() || *answer_at_ <= next_join)) {
        answer();
      } else if (timer && (next == arrivals.size() || *timer <= next_join)) {
        now_ = *timer;
        RC_ASSERT(batches_.due(now_));
        sent();
      } else {
        join(static_cast<int>(next), next_join, arrivals[next].deadline_us);
        if (++next < arrivals.size()) {
          next_join += microseconds(arrivals[next].gap_us);
        }
      }
      check_waiting();
    }
    for (const int count : answers_) {
      RC_ASSERT(count == 1);  // every read answered, once
    }
    RC_ASSERT(joined_at_.size() == arrivals.size());
  }

  // queries: the position queries sent, each when the batches said so.
  [[nodiscard]] std::size_t queries() const { return sent_; }

 private:
  void join(int read, TimePoint at, int deadline_us) {
    now_ = at;
    joined_at_.push_back(now_);
    deadline_.push_back(deadline_us == -1  ? TimePoint::max()
                        : deadline_us < -1 ? now_ - microseconds(1)
                                           : now_ + microseconds(deadline_us));
    answers_.push_back(0);
    gathering_.push_back(read);
    if (batches_.join(read, now_, deadline_.back())) {
      sent();
    }
  }

  void answer() {
    now_ = *answer_at_;
    answer_at_.reset();
    const auto answered = batches_.answered(now_);
    RC_ASSERT(answered.waiters == in_flight_);  // exactly the reads gathered before it went
    for (const int read : answered.waiters) {
      ++answers_[static_cast<std::size_t>(read)];
    }
    in_flight_.clear();
    last_answer_ = now_;
    if (answered.send_next) {
      sent();
    }
  }

  // sent: the query goes at now_ with the reads gathered so far, each of which joined no later.
  void sent() {
    RC_ASSERT(!answer_at_);  // one query in flight at a time
    for (const int read : gathering_) {
      const auto index = static_cast<std::size_t>(read);
      RC_ASSERT(joined_at_[index] <= now_);
      const auto held_until = std::min(joined_at_[index] + rule_.window, deadline_[index]);
      RC_ASSERT(now_ <= std::max({last_answer_, joined_at_[index], held_until}));
    }
    in_flight_ = std::exchange(gathering_, {});
    answer_at_ = now_ + microseconds(round_trips_[sent_++ % round_trips_.size()]);
  }

  // check_waiting: with no query in flight, fewer than enough wait, until a time still to come.
  void check_waiting() const {
    if (answer_at_ || gathering_.empty()) {
      return;
    }
    RC_ASSERT(gathering_.size() < rule_.enough);
    RC_ASSERT(batches_.send_at().has_value());
    RC_ASSERT(*batches_.send_at() > now_);
  }

  GatherRule rule_;
  PositionBatches<int> batches_;
  std::vector<int> round_trips_;
  std::size_t sent_ = 0;
  TimePoint now_ = TimePoint{} + std::chrono::hours(1);
  TimePoint last_answer_ = TimePoint::min();
  std::optional<TimePoint> answer_at_;
  std::vector<int> gathering_;
  std::vector<int> in_flight_;
  std::vector<TimePoint> joined_at_;
  std::vector<TimePoint> deadline_;
  std::vector<int> answers_;
};

rc::Gen<GatherRule> rules() {
  return rc::gen::apply(
      [](std::size_t enough, int window_us) {
        return GatherRule{enough, microseconds(window_us)};
      },
      rc::gen::inRange<std::size_t>(1, 33), rc::gen::inRange(0, 2001));
}

rc::Gen<std::vector<int>> round_trips() {
  return rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(1, 3001)));
}

RC_GTEST_PROP(PositionBatchesProperties, EveryReadIsAnsweredOnceByAQuerySentAfterItJoined, ()) {
  const auto rule = *rules();
  const auto arrivals = *rc::gen::container<std::vector<Arrival>>(
      rc::gen::construct<Arrival>(rc::gen::inRange(0, 3000), rc::gen::inRange(-2, 5000)));
  Simulation(rule, *round_trips()).run(arrivals);
}

RC_GTEST_PROP(PositionBatchesProperties, UnderLoadAQueryCarriesEnoughReads, ()) {
  const auto enough = *rc::gen::inRange<std::size_t>(1, 33);
  const auto window_us = *rc::gen::inRange(static_cast<int>(enough), 2001);
  // At least `enough` reads join within any window, its ends excluded: no gap is longer than
  // window / (enough + 1).
  const int most_gap = window_us / static_cast<int>(enough + 1);
  const auto arrivals = *rc::gen::container<std::vector<Arrival>>(
      rc::gen::construct<Arrival>(rc::gen::inRange(0, most_gap + 1), rc::gen::just(-1)));
  Simulation simulation(GatherRule{enough, microseconds(window_us)}, *round_trips());
  simulation.run(arrivals);
  // Every query but the first (a read after a quiet spell) and the last (what the end left)
  // carries at least `enough` reads.
  RC_ASSERT(simulation.queries() <= arrivals.size() / enough + 2);
}

}  // namespace
}  // namespace petstore::adapters::storage::postgres

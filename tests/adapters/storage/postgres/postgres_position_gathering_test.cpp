// PositionGathering (adapters/storage/postgres/postgres_freshness.hpp) ticked by a real
// EventLoop, as a replica's pool ticks it, and no server: a read alone after a quiet spell sends
// its query at once, enough reads send theirs at once, a tick sends a batch whose window passed
// with nothing else happening, and closing sends what gathered (and every later read) at once, so
// no read is left waiting for a query that nothing will send. When each must go is the rule's own
// test (postgres_freshness_test.cpp, postgres_freshness_properties_test.cpp).

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/postgres_event_loop.hpp"
#include "adapters/storage/postgres/postgres_freshness.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;

// read: a waiting read named `name`, with no deadline (its deadline would send it at once).
Work read(const std::string& name) {
  Work work;
  work.statements.push_back(Statement{name, {}});
  work.deadline = std::chrono::steady_clock::time_point::max();
  return work;
}

std::vector<std::string> names(const std::vector<Work>& works) {
  std::vector<std::string> result;
  result.reserve(works.size());
  for (const auto& work : works) {
    result.push_back(work.statements.at(0).sql);
  }
  return result;
}

class PositionGatheringTest : public ::testing::Test {
 protected:
  // wait_for_queries: true once `count` queries have been sent, false after 10 s.
  bool wait_for_queries(int count) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (queries_.load() < count && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(milliseconds(1));
    }
    return queries_.load() >= count;
  }

  std::atomic<int> queries_{0};
  std::function<void()> send_ = [this] { ++queries_; };
  std::atomic<int> wakes_{0};
  EventLoop* loop_ = nullptr;  // the loop that ticks the gathering, once it runs
  std::function<void()> wake_ = [this] {
    ++wakes_;
    if (loop_ != nullptr) {
      loop_->wake();
    }
  };
};

TEST_F(PositionGatheringTest, EnoughReadsSendTheirQueryAtOnce) {
  PositionGathering gathering(GatherRule{3, hours(1)}, send_, wake_);
  gathering.join(read("a"));  // after a quiet spell: at once
  EXPECT_EQ(queries_.load(), 1);
  EXPECT_EQ(names(gathering.answered()), std::vector<std::string>{"a"});
  gathering.join(read("b"));
  gathering.join(read("c"));
  EXPECT_EQ(queries_.load(), 1);  // within the hour's window, fewer than enough
  gathering.join(read("d"));
  EXPECT_EQ(queries_.load(), 2);
  EXPECT_EQ(names(gathering.answered()), (std::vector<std::string>{"b", "c", "d"}));
}

TEST_F(PositionGatheringTest, ALoopsTickSendsAReadWhoseWindowPassed) {
  PositionGathering gathering(GatherRule{100, milliseconds(20)}, send_, wake_);
  EventLoop loop;  // after the gathering: its thread is joined first
  loop.add(gathering);
  loop_ = &loop;
  loop.start();
  gathering.join(read("a"));
  EXPECT_EQ(names(gathering.answered()), std::vector<std::string>{"a"});
  EXPECT_EQ(wakes_.load(), 0);  // nothing gathered: the loop keeps its own pace
  gathering.join(read("b"));    // no other read comes, and no answer: only a tick can send it
  EXPECT_EQ(wakes_.load(), 1);  // the loop is told that a batch is due sooner than it turns
  ASSERT_TRUE(wait_for_queries(2));
  EXPECT_EQ(names(gathering.answered()), std::vector<std::string>{"b"});
}

TEST_F(PositionGatheringTest, ItsNextTickIsWhenTheGatheredBatchGoes) {
  PositionGathering gathering(GatherRule{100, hours(1)}, send_, wake_);
  EXPECT_EQ(gathering.next_tick(), std::chrono::steady_clock::time_point::max());
  gathering.join(read("a"));  // in flight: its answer decides, not a tick
  EXPECT_EQ(gathering.next_tick(), std::chrono::steady_clock::time_point::max());
  EXPECT_EQ(names(gathering.answered()), std::vector<std::string>{"a"});
  const auto joined = std::chrono::steady_clock::now();
  gathering.join(read("b"));
  EXPECT_GT(gathering.next_tick(), joined);
  EXPECT_LE(gathering.next_tick(), joined + hours(1));
  gathering.on_tick(std::chrono::steady_clock::now());  // before the window ends: nothing goes
  EXPECT_EQ(queries_.load(), 1);
}

TEST_F(PositionGatheringTest, ClosingSendsWhatGatheredAndEveryLaterReadAtOnce) {
  PositionGathering gathering(GatherRule{100, hours(1)}, send_, wake_);
  gathering.join(read("a"));
  EXPECT_EQ(names(gathering.answered()), std::vector<std::string>{"a"});
  gathering.join(read("b"));
  EXPECT_EQ(queries_.load(), 1);
  gathering.close();
  EXPECT_EQ(queries_.load(), 2);
  gathering.join(read("c"));  // in flight: it goes with b's answer
  EXPECT_EQ(names(gathering.answered()), std::vector<std::string>{"b"});
  EXPECT_EQ(queries_.load(), 3);
  EXPECT_EQ(names(gathering.answered()), std::vector<std::string>{"c"});
}

}  // namespace
}  // namespace petstore::adapters::storage::postgres

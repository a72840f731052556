// PositionGathering (adapters/storage/postgres/postgres_position_gathering.hpp) with its real
// timer thread and no server: a read alone after a quiet spell sends its query at once, enough
// reads send theirs at once, the timer sends a batch whose window passed with nothing else
// happening, and closing sends what gathered (and every later read) at once, so no read is left
// waiting for a query that nothing will send. When each must go is the rule's own test
// (postgres_freshness_test.cpp, postgres_freshness_properties_test.cpp).

#include "adapters/storage/postgres/postgres_position_gathering.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

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
};

TEST_F(PositionGatheringTest, EnoughReadsSendTheirQueryAtOnce) {
  PositionGathering gathering(GatherRule{3, hours(1)}, send_);
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

TEST_F(PositionGatheringTest, TheTimerSendsAReadWhoseWindowPassed) {
  PositionGathering gathering(GatherRule{100, milliseconds(20)}, send_);
  gathering.join(read("a"));
  EXPECT_EQ(names(gathering.answered()), std::vector<std::string>{"a"});
  gathering.join(read("b"));  // no other read comes, and no answer: only the timer can send it
  ASSERT_TRUE(wait_for_queries(2));
  EXPECT_EQ(names(gathering.answered()), std::vector<std::string>{"b"});
}

TEST_F(PositionGatheringTest, ClosingSendsWhatGatheredAndEveryLaterReadAtOnce) {
  PositionGathering gathering(GatherRule{100, hours(1)}, send_);
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

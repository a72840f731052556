// The background worker (adapters/worker/background_worker.hpp): jobs run when due and in that
// order, a job may run again later, closing stops the job under way through its stop token and
// drops the rest (each told so), nothing is taken once closed, and closing without waiting leaves
// a job that cannot stop to finish on its own.

#include "adapters/worker/background_worker.hpp"

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace petstore::adapters::worker {
namespace {

using namespace std::chrono_literals;
using Clock = BackgroundWorker::Clock;

TEST(BackgroundWorker, RunsEachJobWhenDueInThatOrder) {
  BackgroundWorker worker;
  std::mutex mutex;
  std::vector<std::string> ran;
  std::promise<void> all_ran;
  const auto job = [&](const std::string& name, bool last) {
    return BackgroundWorker::Job{[&, name, last](const std::stop_token&) {
                                   const std::lock_guard lock(mutex);
                                   ran.push_back(name);
                                   if (last) {
                                     all_ran.set_value();
                                   }
                                   return std::optional<Clock::time_point>();
                                 },
                                 {}};
  };
  const auto now = Clock::now();
  ASSERT_TRUE(worker.post(job("third", true), now + 60ms));
  ASSERT_TRUE(worker.post(job("second", false), now + 30ms));
  ASSERT_TRUE(worker.post(job("first", false)));
  ASSERT_EQ(all_ran.get_future().wait_for(5s), std::future_status::ready);
  EXPECT_GE(Clock::now() - now, 60ms);
  const std::lock_guard lock(mutex);
  EXPECT_EQ(ran, (std::vector<std::string>{"first", "second", "third"}));
}

TEST(BackgroundWorker, AJobRunsAgainWhenItAsks) {
  BackgroundWorker worker;
  std::atomic<int> turns{0};
  std::promise<void> third;
  ASSERT_TRUE(worker.post({[&](const std::stop_token&) -> std::optional<Clock::time_point> {
                             if (++turns == 3) {
                               third.set_value();
                               return std::nullopt;
                             }
                             return Clock::now() + 5ms;
                           },
                           {}}));
  ASSERT_EQ(third.get_future().wait_for(5s), std::future_status::ready);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(turns.load(), 3);
}

TEST(BackgroundWorker, CloseStopsTheJobUnderWayDropsTheRestAndTakesNoMore) {
  BackgroundWorker worker;
  std::promise<void> started;
  std::atomic<bool> stopped_in_time{false};
  std::atomic<int> dropped{0};
  ASSERT_TRUE(worker.post({[&](const std::stop_token& stop) -> std::optional<Clock::time_point> {
                             started.set_value();
                             const auto until = Clock::now() + 10s;  // a database that hangs
                             while (!stop.stop_requested() && Clock::now() < until) {
                               std::this_thread::sleep_for(1ms);
                             }
                             stopped_in_time = stop.stop_requested();
                             return Clock::now();  // it would run again: dropped instead
                           },
                           [&] { ++dropped; }}));
  ASSERT_TRUE(
      worker.post({[](const std::stop_token&) { return std::optional<Clock::time_point>(); },
                   [&] { ++dropped; }},
                  Clock::now() + 1h));
  ASSERT_EQ(started.get_future().wait_for(5s), std::future_status::ready);
  const auto closing = Clock::now();
  worker.close();
  EXPECT_LT(Clock::now() - closing, 2s);
  EXPECT_TRUE(stopped_in_time.load());
  EXPECT_EQ(dropped.load(), 2);
  EXPECT_FALSE(
      worker.post({[](const std::stop_token&) { return std::optional<Clock::time_point>(); },
                   [&] { ++dropped; }}));
  EXPECT_EQ(dropped.load(), 2) << "a job refused is not dropped: its caller answers it";
}

TEST(BackgroundWorker, CloseWithoutWaitingLeavesAJobThatCannotStopToFinishOnItsOwn) {
  // Shared with the job by value: the job outlives the worker and the test's frame.
  struct Probe {
    std::promise<void> started;
    std::promise<void> release;  // a read of a hung file system, until this
    std::shared_future<void> released = release.get_future().share();
    std::promise<void> finished;
    std::atomic<int> runs{0};
    std::atomic<int> dropped{0};
  };
  auto probe = std::make_shared<Probe>();
  const auto stuck = [probe](const std::stop_token&) {
    if (++probe->runs == 1) {
      probe->started.set_value();
      (void)probe->released.wait_for(
          10s);  // heeds no stop token (bounded: a join fails, not hangs)
      probe->finished.set_value();
    }
    return std::optional<Clock::time_point>();
  };
  {
    BackgroundWorker worker;
    ASSERT_TRUE(worker.post({stuck, [probe] { ++probe->dropped; }}));
    ASSERT_TRUE(worker.post({stuck, [probe] { ++probe->dropped; }}));
    ASSERT_EQ(probe->started.get_future().wait_for(5s), std::future_status::ready);
    const auto closing = Clock::now();
    EXPECT_FALSE(worker.close_without_waiting());
    EXPECT_LT(Clock::now() - closing, 2s);
    EXPECT_EQ(probe->dropped.load(), 1) << "the queued job is dropped, told so";
  }  // destroyed while its job still runs
  probe->release.set_value();
  ASSERT_EQ(probe->finished.get_future().wait_for(5s), std::future_status::ready);
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(probe->runs.load(), 1) << "nothing runs after the close";
}

TEST(BackgroundWorker, CloseWithoutWaitingWhileIdleEndsTheThread) {
  BackgroundWorker worker;
  std::atomic<int> ran{0};
  ASSERT_TRUE(worker.post({[&](const std::stop_token&) {
                             ++ran;
                             return std::optional<Clock::time_point>();
                           },
                           {}},
                          Clock::now() + 1h));
  EXPECT_TRUE(worker.close_without_waiting());
  EXPECT_EQ(ran.load(), 0);
  EXPECT_FALSE(
      worker.post({[](const std::stop_token&) { return std::optional<Clock::time_point>(); }, {}}));
}

}  // namespace
}  // namespace petstore::adapters::worker

// ReloadWorker: reloads run on its worker's thread, requests made during one are coalesced into
// one more, and stop() never waits for a reload in progress nor lets a pending one run.

#include "bootstrap/reload_worker.hpp"

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

namespace petstore::bootstrap {
namespace {

// Shared with the reload function by value: a worker left running after stop() must not touch
// the test's stack.
struct Probe {
  std::atomic<int> calls{0};
  std::atomic<int> unasked{0};  // reloads that started with no request outstanding
  std::atomic<bool> third_asked{false};
  std::atomic<std::thread::id> thread;
  std::promise<void> first_started;
  std::promise<void> release_first;
  std::shared_future<void> first_released = release_first.get_future().share();
  std::promise<void> second_done;
  std::promise<void> third_done;
  std::promise<void> first_finished;
};

using namespace std::chrono_literals;

// ready: whether `future` is ready within 5 s (a reload lost would otherwise hang the test).
template <class Future>
bool ready(Future&& future) {
  return future.wait_for(5s) == std::future_status::ready;
}

TEST(ReloadWorker, RunsTheReloadOnItsOwnThread) {
  auto probe = std::make_shared<Probe>();
  ReloadWorker worker([probe] {
    probe->thread = std::this_thread::get_id();
    if (++probe->calls == 1) {
      probe->first_started.set_value();
    }
  });
  worker.request();
  ASSERT_TRUE(ready(probe->first_started.get_future()));
  EXPECT_NE(probe->thread.load(), std::this_thread::get_id());
}

TEST(ReloadWorker, RequestsDuringAReloadMakeOneMoreReload) {
  auto probe = std::make_shared<Probe>();
  ReloadWorker worker([probe] {
    const int call = ++probe->calls;
    if (call == 1) {
      probe->first_started.set_value();
      probe->first_released.wait();
    } else if (call == 2) {
      probe->second_done.set_value();
    } else {
      if (!probe->third_asked) {
        ++probe->unasked;
      }
      if (call == 3) {
        probe->third_done.set_value();
      }
    }
  });
  worker.request();
  ASSERT_TRUE(ready(probe->first_started.get_future()));
  for (int request = 0; request < 5; ++request) {
    worker.request();  // returns at once, the first reload still running
  }
  probe->release_first.set_value();
  ASSERT_TRUE(ready(probe->second_done.get_future()));
  std::this_thread::sleep_for(50ms);  // time for a wrongly queued third reload to run unasked
  probe->third_asked = true;
  worker.request();
  ASSERT_TRUE(ready(probe->third_done.get_future()));
  EXPECT_EQ(probe->unasked.load(), 0) << "five requests during one reload made more than one";
}

TEST(ReloadWorker, StopWhileIdleEndsTheThread) {
  auto probe = std::make_shared<Probe>();
  ReloadWorker worker([probe] { ++probe->calls; });
  EXPECT_TRUE(worker.stop());
  EXPECT_EQ(probe->calls.load(), 0);
}

TEST(ReloadWorker, StopDuringAReloadReturnsWithoutWaitingForIt) {
  auto probe = std::make_shared<Probe>();
  {
    ReloadWorker worker([probe] {
      if (++probe->calls == 1) {
        probe->first_started.set_value();
        probe->first_released.wait();  // stuck, as a read of a hung file system would be
        probe->first_finished.set_value();
      }
    });
    worker.request();
    ASSERT_TRUE(ready(probe->first_started.get_future()));
    worker.request();  // pending: must not run after stop()
    const auto stopping = std::chrono::steady_clock::now();
    EXPECT_FALSE(worker.stop());
    EXPECT_LT(std::chrono::steady_clock::now() - stopping, 2s);
  }
  probe->release_first.set_value();  // the left thread finishes and ends on its own
  ASSERT_TRUE(ready(probe->first_finished.get_future()));
  std::this_thread::sleep_for(50ms);  // time for the pending reload to run, were it not dropped
  EXPECT_EQ(probe->calls.load(), 1);
}

}  // namespace
}  // namespace petstore::bootstrap

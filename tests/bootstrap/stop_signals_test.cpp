// StopSignals: a SIGHUP is never lost between the listening line and the moment serving sets its
// reload, and none is run once a stop was asked for. Each test signals its own process; the
// signals are blocked in every thread, so only StopSignals' thread takes them.

#include "bootstrap/stop_signals.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

namespace petstore::bootstrap {
namespace {

using namespace std::chrono_literals;

bool is_pending(int signal_number) {
  sigset_t pending;
  sigemptyset(&pending);
  sigpending(&pending);
  return sigismember(&pending, signal_number) == 1;
}

// send_and_wait_taken: raises `signal_number` and waits until the signal thread has taken it.
void send_and_wait_taken(int signal_number) {
  ASSERT_EQ(::kill(::getpid(), signal_number), 0);
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (is_pending(signal_number) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_FALSE(is_pending(signal_number))
      << "the signal thread never took signal " << signal_number;
}

TEST(StopSignals, ASighupWithAReloadSetRunsIt) {
  StopSignals signals;
  std::atomic<int> reloads{0};
  signals.on_reload([&reloads] { ++reloads; });
  ASSERT_NO_FATAL_FAILURE(send_and_wait_taken(SIGHUP));
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (reloads == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(reloads, 1);
}

TEST(StopSignals, ASighupBeforeAnyReloadIsSetIsRunOnceWhenOneIs) {
  StopSignals signals;
  ASSERT_NO_FATAL_FAILURE(send_and_wait_taken(SIGHUP));
  ASSERT_NO_FATAL_FAILURE(send_and_wait_taken(SIGHUP));
  std::atomic<int> reloads{0};
  signals.on_reload([&reloads] { ++reloads; });
  EXPECT_EQ(reloads, 1) << "the SIGHUPs that came before the reload was set were lost";
  signals.on_reload([&reloads] { ++reloads; });
  EXPECT_EQ(reloads, 1) << "a kept SIGHUP was run twice";
}

TEST(StopSignals, ASighupAfterTheStopIsNeverRun) {
  StopSignals signals;
  ASSERT_NO_FATAL_FAILURE(send_and_wait_taken(SIGTERM));
  signals.wait_for_stop();
  ASSERT_NO_FATAL_FAILURE(send_and_wait_taken(SIGHUP));
  std::atomic<int> reloads{0};
  signals.on_reload([&reloads] { ++reloads; });
  EXPECT_EQ(reloads, 0);
}

}  // namespace
}  // namespace petstore::bootstrap

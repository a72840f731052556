// WakeClock, the clock of a connection's reads and deadlines: one reading serves every deadline
// and timing set in one wake-up of the connection's coroutine, and a wake-up after forget() reads
// the clock again.

#include "adapters/http/server/request_reader.hpp"

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

using adapters::http::WakeClock;

TEST(WakeClock, OneWakeUpSharesOneReadingAndForgetTakesANewOne) {
  WakeClock clock;
  const auto before = WakeClock::Clock::now();
  const auto first = clock.now();
  EXPECT_GE(first, before);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_EQ(clock.now(), first);  // the same wake-up: no new reading
  clock.forget();                 // as after a co_await that suspended
  const auto second = clock.now();
  EXPECT_GE(second - first, std::chrono::milliseconds(2));
}

}  // namespace
}  // namespace petstore::tests

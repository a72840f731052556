#include "application/failed_auth_throttle.hpp"

#include <string>

#include <gtest/gtest.h>

#include "support/fake_clock.hpp"

namespace petstore::application {
namespace {

using std::chrono::seconds;

TEST(FailedAuthThrottle, AllowsTheBudgetThenAsksToWait) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 5);
  for (int failure = 0; failure < 5; ++failure) {
    EXPECT_EQ(throttle.record_failure("127.0.0.1"), seconds(0)) << "failure " << failure;
  }
  // Five a minute refill one token every 12 seconds.
  EXPECT_EQ(throttle.record_failure("127.0.0.1"), seconds(12));
}

TEST(FailedAuthThrottle, RefillsWithTime) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 60);
  for (int failure = 0; failure < 60; ++failure) {
    ASSERT_EQ(throttle.record_failure("10.0.0.1"), seconds(0));
  }
  EXPECT_EQ(throttle.record_failure("10.0.0.1"), seconds(1));
  clock.advance(seconds(1));
  EXPECT_EQ(throttle.record_failure("10.0.0.1"), seconds(0));
  EXPECT_EQ(throttle.record_failure("10.0.0.1"), seconds(1));
}

TEST(FailedAuthThrottle, AWaitingClientDoesNotDelayItselfFurther) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 1);
  ASSERT_EQ(throttle.record_failure("a"), seconds(0));
  for (int retry = 0; retry < 10; ++retry) {
    EXPECT_EQ(throttle.record_failure("a"), seconds(60));
  }
  clock.advance(seconds(60));
  EXPECT_EQ(throttle.record_failure("a"), seconds(0));
}

TEST(FailedAuthThrottle, AddressesAreIndependent) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 1);
  ASSERT_EQ(throttle.record_failure("127.0.0.1"), seconds(0));
  EXPECT_GT(throttle.record_failure("127.0.0.1"), seconds(0));
  EXPECT_EQ(throttle.record_failure("127.0.0.2"), seconds(0));
}

TEST(FailedAuthThrottle, TheTableOfAddressesIsBounded) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 2, 100);
  for (int address = 0; address < 1000; ++address) {
    static_cast<void>(throttle.record_failure("10.0.0." + std::to_string(address)));
    clock.advance(std::chrono::milliseconds(1));
  }
  EXPECT_LE(throttle.tracked_addresses(), 100U);
}

TEST(FailedAuthThrottle, RefilledBucketsAreForgottenBeforeBusyOnes) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 2, 2);
  ASSERT_EQ(throttle.record_failure("busy"), seconds(0));
  ASSERT_EQ(throttle.record_failure("busy"), seconds(0));
  ASSERT_EQ(throttle.record_failure("quiet"), seconds(0));
  clock.advance(seconds(30));  // "quiet" is full again; "busy" has one token of two
  ASSERT_EQ(throttle.record_failure("newcomer"), seconds(0));
  // "busy" was kept, so its second failure now still finds it short of tokens.
  ASSERT_EQ(throttle.record_failure("busy"), seconds(0));
  EXPECT_GT(throttle.record_failure("busy"), seconds(0));
}

// With the table full and no bucket refilled, the one updated least recently goes, whatever
// order the clients first came in.
TEST(FailedAuthThrottle, AFullTableForgetsTheLeastRecentlyUpdatedClient) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 1, 3);
  for (const char* client : {"10.0.0.1", "10.0.0.2", "10.0.0.3"}) {
    ASSERT_EQ(throttle.record_failure(client), seconds(0)) << client;
  }
  clock.advance(seconds(1));
  ASSERT_GT(throttle.record_failure("10.0.0.1"), seconds(0));  // now the most recent
  ASSERT_EQ(throttle.record_failure("10.0.0.4"), seconds(0));  // forgets 10.0.0.2
  EXPECT_EQ(throttle.tracked_addresses(), 3U);
  EXPECT_GT(throttle.record_failure("10.0.0.1"), seconds(0)) << "kept";
  EXPECT_GT(throttle.record_failure("10.0.0.3"), seconds(0)) << "kept";
  EXPECT_GT(throttle.record_failure("10.0.0.4"), seconds(0)) << "kept";
  EXPECT_EQ(throttle.record_failure("10.0.0.2"), seconds(0)) << "forgotten: a fresh bucket";
}

// Each new client past the cap forgets exactly one, in the order they were last updated.
TEST(FailedAuthThrottle, ClientsPastTheCapAreForgottenOldestFirst) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 1, 100);
  for (int client = 0; client < 150; ++client) {
    ASSERT_EQ(throttle.record_failure("10.0.1." + std::to_string(client)), seconds(0));
    clock.advance(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(throttle.tracked_addresses(), 100U);
  // 50..149 are kept, newest last; asking for 149 down to 50 touches only kept clients.
  for (int client = 149; client >= 50; --client) {
    EXPECT_GT(throttle.record_failure("10.0.1." + std::to_string(client)), seconds(0)) << client;
  }
  EXPECT_EQ(throttle.record_failure("10.0.1.0"), seconds(0)) << "forgotten: a fresh bucket";
}

// The throttle counts a client under the name its grouping gives (bootstrap gives the HTTP
// adapter's client_address_group, tested with it in tests/adapters/http/api).
TEST(FailedAuthThrottle, CountsClientsUnderTheNameTheirGroupingGives) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(
      clock, 1, FailedAuthThrottle::default_max_addresses,
      [](std::string_view client) { return std::string(client.substr(0, 4)); });
  ASSERT_EQ(throttle.record_failure("abcd-1"), seconds(0));
  EXPECT_GT(throttle.record_failure("abcd-2"), seconds(0));
  EXPECT_EQ(throttle.record_failure("abce-1"), seconds(0));
  EXPECT_EQ(throttle.tracked_addresses(), 2U);
}

}  // namespace
}  // namespace petstore::application

#include <gtest/gtest.h>

#include "adapters/http/api/client_address.hpp"
#include "application/failed_auth_throttle.hpp"
#include "support/fake_clock.hpp"

namespace petstore::adapters::http {
namespace {

TEST(ClientAddressGroup, Ipv4AndOtherTextStayAsTheyAre) {
  EXPECT_EQ(client_address_group("192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(client_address_group("unknown"), "unknown");
  EXPECT_EQ(client_address_group(""), "");
}

TEST(ClientAddressGroup, Ipv6CountsByItsSlash64) {
  EXPECT_EQ(client_address_group("2001:db8:1:2::1"), "2001:db8:1:2::/64");
  EXPECT_EQ(client_address_group("2001:DB8:0001:0002:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  EXPECT_EQ(client_address_group("2001:db8::1"), "2001:db8::/64");
  EXPECT_EQ(client_address_group("2001:0:0:1::"), "2001:0:0:1::/64");
  EXPECT_EQ(client_address_group("::1"), "::/64");
  EXPECT_EQ(client_address_group("::"), "::/64");
  EXPECT_EQ(client_address_group("fe80::1%eth0"), "fe80::/64");
  EXPECT_EQ(client_address_group("1:2:3:4:5:6:7::"), "1:2:3:4::/64");
  EXPECT_EQ(client_address_group("64:ff9b:1:2::192.0.2.7"), "64:ff9b:1:2::/64");
}

TEST(ClientAddressGroup, Ipv4MappedIpv6IsTheIpv4Address) {
  EXPECT_EQ(client_address_group("::ffff:192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(client_address_group("::FFFF:c000:0207"), "192.0.2.7");
  EXPECT_EQ(client_address_group("0:0:0:0:0:ffff:10.0.0.255"), "10.0.0.255");
}

TEST(ClientAddressGroup, TextThatIsNoIpv6AddressStaysAsItIs) {
  for (const char* text : {":", ":::", "1:2", "1::2::3", "1:2:3:4:5:6:7:8:9",
                           "1:2:3:4:5:6:7:8::", "12345::", "g::", "::1.2.3", "::1.2.3.256",
                           "1.2.3.4::", "1:", ":1", "::ffff:1.2.3.4.5"}) {
    EXPECT_EQ(client_address_group(text), text) << text;
  }
}

// The failed-authentication throttle, grouped as bootstrap groups it.
using application::FailedAuthThrottle;
using std::chrono::seconds;

TEST(ClientAddressGroupThrottle, AddressesOfOneIpv6Slash64ShareABucket) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 2, FailedAuthThrottle::default_max_addresses,
                              client_address_group);
  ASSERT_EQ(throttle.record_failure("2001:db8:1:2::1"), seconds(0));
  ASSERT_EQ(throttle.record_failure("2001:db8:1:2:ffff:ffff:ffff:fffe"), seconds(0));
  EXPECT_GT(throttle.record_failure("2001:0db8:0001:0002:0:0:0:99"), seconds(0));
  EXPECT_EQ(throttle.tracked_addresses(), 1U);
}

TEST(ClientAddressGroupThrottle, DifferentIpv6Slash64sDoNotShareABucket) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 1, FailedAuthThrottle::default_max_addresses,
                              client_address_group);
  ASSERT_EQ(throttle.record_failure("2001:db8:1:2::1"), seconds(0));
  EXPECT_EQ(throttle.record_failure("2001:db8:1:3::1"), seconds(0));
  EXPECT_EQ(throttle.record_failure("2001:db8:2:2::1"), seconds(0));
  EXPECT_GT(throttle.record_failure("2001:db8:1:2::2"), seconds(0));
}

TEST(ClientAddressGroupThrottle, AnIpv4MappedAddressCountsAsTheIpv4Address) {
  tests::FakeClock clock;
  FailedAuthThrottle throttle(clock, 1, FailedAuthThrottle::default_max_addresses,
                              client_address_group);
  ASSERT_EQ(throttle.record_failure("192.0.2.7"), seconds(0));
  EXPECT_GT(throttle.record_failure("::ffff:192.0.2.7"), seconds(0));
  EXPECT_EQ(throttle.record_failure("::ffff:192.0.2.8"), seconds(0)) << "another IPv4 address";
}

}  // namespace
}  // namespace petstore::adapters::http

// The client address of contract section 9: X-Forwarded-For is believed only from a trusted
// proxy, walked from the right past every trusted hop; anything else is the TCP peer. Ranges
// are CIDR, IPv4 and IPv6, and an IPv4 range also holds the IPv4-mapped spelling.

#include "adapters/http/api/client_address.hpp"

#include <gtest/gtest.h>

namespace petstore::adapters::http {
namespace {

TrustedProxies trusted(std::string_view ranges) {
  auto parsed = TrustedProxies::parse(ranges);
  EXPECT_TRUE(parsed) << ranges;
  return parsed ? *parsed : TrustedProxies{};
}

TEST(TrustedProxies, RangesHoldTheAddressesOfTheirPrefix) {
  const TrustedProxies proxies = trusted("10.0.0.0/8, 192.0.2.1,2001:db8::/32");
  for (const std::string_view inside : {"10.0.0.0", "10.255.255.255", "192.0.2.1",
                                        "::ffff:10.1.2.3", "2001:db8::1", "2001:db8:ffff::"}) {
    EXPECT_TRUE(proxies.contains(*parse_ip_address(inside))) << inside;
  }
  for (const std::string_view outside :
       {"11.0.0.0", "9.255.255.255", "192.0.2.2", "2001:db9::1", "::1", "::a00:1"}) {
    EXPECT_FALSE(proxies.contains(*parse_ip_address(outside))) << outside;
  }
  EXPECT_TRUE(trusted("0.0.0.0/0").contains(*parse_ip_address("203.0.113.9")));
  EXPECT_FALSE(trusted("0.0.0.0/0").contains(*parse_ip_address("2001:db8::1")));
  EXPECT_TRUE(trusted("").empty());
}

TEST(TrustedProxies, WhatIsNoRangeIsRefusedByName) {
  for (const std::string_view bad :
       {"10.0.0.0/33", "2001:db8::/129", "10.0.0.0/", "10.0.0/8", "proxy.internal", "10.0.0.0/8x",
        "10.0.0.0/-1", "fe80::1%eth0/64", "010.0.0.0/8", "::ffff:010.0.0.0/104"}) {
    const auto parsed = TrustedProxies::parse(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().code, domain::ErrorCode::invalid_argument);
    EXPECT_NE(parsed.error().message.find(std::string(bad)), std::string::npos)
        << parsed.error().message;
  }
}

TEST(ClientAddress, WithoutTrustedProxiesThePeerIsTheClient) {
  EXPECT_EQ(client_address("192.0.2.7", "203.0.113.9", TrustedProxies{}), "192.0.2.7");
  EXPECT_EQ(client_address("192.0.2.7", "203.0.113.9", trusted("10.0.0.0/8")), "192.0.2.7");
}

TEST(ClientAddress, FromATrustedPeerTheRightmostUntrustedAddressIsTheClient) {
  const TrustedProxies proxies = trusted("10.0.0.0/8");
  EXPECT_EQ(client_address("10.0.0.1", "203.0.113.9", proxies), "203.0.113.9");
  // The client may send a forged entry first; the proxy appends what it saw.
  EXPECT_EQ(client_address("10.0.0.1", "198.51.100.1, 203.0.113.9", proxies), "203.0.113.9");
  // Two trusted hops: each appended the address it saw.
  EXPECT_EQ(client_address("10.0.0.1", "203.0.113.9, 10.0.0.2", proxies), "203.0.113.9");
  EXPECT_EQ(client_address("10.0.0.1", "2001:db8::7,10.9.9.9", proxies), "2001:db8::7");
  EXPECT_EQ(client_address("10.0.0.1", "[2001:db8::7]:443", proxies), "2001:db8::7");
  EXPECT_EQ(client_address("10.0.0.1", "203.0.113.9:51000", proxies), "203.0.113.9");
}

TEST(ClientAddress, WhenNothingBelievableIsListedTheNearestTrustedHopIsTheClient) {
  const TrustedProxies proxies = trusted("10.0.0.0/8");
  EXPECT_EQ(client_address("10.0.0.1", "", proxies), "10.0.0.1");
  EXPECT_EQ(client_address("10.0.0.1", "10.0.0.2, 10.0.0.3", proxies), "10.0.0.2");
  EXPECT_EQ(client_address("10.0.0.1", " , ", proxies), "10.0.0.1");
  // An entry that is no address ends the walk: what lies to its left cannot be believed.
  EXPECT_EQ(client_address("10.0.0.1", "203.0.113.9, unknown", proxies), "10.0.0.1");
  EXPECT_EQ(client_address("10.0.0.1", "203.0.113.9, bad\nline, 10.0.0.2", proxies), "10.0.0.2");
}

TEST(ClientAddress, AnEntryWithAZoneIsNoAddressAndEndsTheWalk) {
  // A zone names an interface of the host that wrote it; to this one it means nothing, and its
  // text is anything at all.
  const TrustedProxies proxies = trusted("10.0.0.0/8");
  EXPECT_EQ(client_address("10.0.0.1", "fe80::1%eth0", proxies), "10.0.0.1");
  EXPECT_EQ(client_address("10.0.0.1", "fe80::1%anything here", proxies), "10.0.0.1");
  EXPECT_EQ(client_address("10.0.0.1", "[fe80::1%25eth0]:443", proxies), "10.0.0.1");
  EXPECT_EQ(client_address("10.0.0.1", "203.0.113.9, 2001:db8::7%1, 10.0.0.2", proxies),
            "10.0.0.2");
  EXPECT_EQ(client_address("10.0.0.1", "fe80::1", proxies), "fe80::1");
}

TEST(ClientAddress, ADottedQuadHasOneSpellingSoLeadingZerosAreNoAddress) {
  // The throttle counts by the client address: "005.005.005.005" must not count apart from
  // "5.5.5.5". RFC 3986's dec-octet and inet_pton allow no leading zero.
  const TrustedProxies proxies = trusted("10.0.0.0/8");
  EXPECT_EQ(client_address("10.0.0.1", "5.5.5.5", proxies), "5.5.5.5");
  for (const std::string_view spelled :
       {"005.005.005.005", "05.5.5.5", "5.5.5.00", "::ffff:005.5.5.5", "[::ffff:5.05.5.5]:80"}) {
    EXPECT_EQ(client_address("10.0.0.1", spelled, proxies), "10.0.0.1") << spelled;
    EXPECT_EQ(client_address("10.0.0.1", "10.0.0.2, " + std::string(spelled), proxies), "10.0.0.1")
        << spelled;
  }
  for (const std::string_view canonical :
       {"0.0.0.0", "10.0.0.0", "100.200.0.250", "::ffff:5.5.5.5"}) {
    EXPECT_TRUE(parse_ip_address(canonical)) << canonical;
  }
}

}  // namespace
}  // namespace petstore::adapters::http

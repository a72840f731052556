// CorsPolicy on its own: configured origins are read strictly as scheme://host[:port] and kept in
// the form a browser's Origin field has, so that the comparison with it is exact; anything else
// is refused with the entry and the reason.

#include "adapters/http/api/cors_policy.hpp"

#include <string>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

using adapters::http::CorsPolicy;
using adapters::http::serialise_origin;

TEST(CorsPolicy, AnOriginIsKeptAsABrowserSendsIt) {
  const std::pair<const char*, const char*> cases[] = {
      {"http://127.0.0.1:3000", "http://127.0.0.1:3000"},
      {"HTTPS://App.Example:443", "https://app.example"},
      {"http://localhost:80", "http://localhost"},
      {"https://shop.example:8443", "https://shop.example:8443"},
      {"http://[0:0:0:0:0:0:0:1]:8080", "http://[::1]:8080"},
  };
  for (const auto& [given, kept] : cases) {
    const auto origin = serialise_origin(given);
    ASSERT_TRUE(origin) << given;
    EXPECT_EQ(*origin, kept);
  }
}

TEST(CorsPolicy, WhatIsNoOriginIsRefusedWithTheEntryAndWhy) {
  const std::pair<const char*, const char*> cases[] = {
      {"*", "'*' is not taken"},
      {"app.example", "no scheme"},
      {"ftp://app.example", "http or https"},
      {"http://app.example/", "no path"},
      {"http://app.example/app", "no path"},
      {"http://app.example?x=1", "no path, query"},
      {"http://user@app.example", "no user info"},
      {"http://", "host is missing"},
      {"http://-app.example", "malformed"},
      {"http://app..example", "malformed"},
      {"http://app_1.example", "malformed"},
      {"http://256.0.0.1", "malformed"},
      {"http://[::g]", "malformed"},
      {"http://app.example:", "port"},
      {"http://app.example:0", "port"},
      {"http://app.example:65536", "port"},
      {"http://app.example:80x", "port"},
  };
  for (const auto& [given, why] : cases) {
    const auto origin = serialise_origin(given);
    ASSERT_FALSE(origin) << given << " was taken as " << *origin;
    EXPECT_NE(origin.error().message.find(std::string("'") + given + "'"), std::string::npos)
        << origin.error().message;
    EXPECT_NE(origin.error().message.find(why), std::string::npos) << origin.error().message;
  }
}

TEST(CorsPolicy, ListsItsOriginsAndComparesExactly) {
  const auto policy = CorsPolicy::parse(" http://127.0.0.1:3000 ,HTTPS://App.Example");
  ASSERT_TRUE(policy);
  EXPECT_TRUE(policy->enabled());
  EXPECT_TRUE(policy->allows("http://127.0.0.1:3000"));
  EXPECT_TRUE(policy->allows("https://app.example"));
  EXPECT_FALSE(policy->allows("http://127.0.0.1:3001"));
  EXPECT_FALSE(policy->allows("http://app.example")) << "another scheme is another origin";
  EXPECT_FALSE(policy->allows("https://app.example.evil.test"));
  EXPECT_FALSE(policy->allows("null")) << "a sandboxed page or a file";
  EXPECT_FALSE(policy->allows(""));
}

TEST(CorsPolicy, NoneIsOffAndOneBadEntrySpoilsTheList) {
  for (const char* none : {"", "  "}) {
    const auto policy = CorsPolicy::parse(none);
    ASSERT_TRUE(policy);
    EXPECT_FALSE(policy->enabled());
    EXPECT_FALSE(policy->allows("http://127.0.0.1:3000"));
  }
  EXPECT_FALSE(CorsPolicy().enabled());
  const auto spoilt = CorsPolicy::parse("http://a.example,http://b.example/");
  ASSERT_FALSE(spoilt);
  EXPECT_NE(spoilt.error().message.find("'http://b.example/'"), std::string::npos);
  EXPECT_FALSE(CorsPolicy::parse("http://a.example,,http://b.example"));
}

}  // namespace
}  // namespace petstore::tests

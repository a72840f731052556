// to_http_request: the fields the router reads, taken from Beast's request in one pass: the first
// value of each, whether Authorization, Content-Type and Idempotency-Key came more than once, and
// every X-Forwarded-For joined in order. Field names match whatever their case.

#include "adapters/http/server/beast_messages.hpp"

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

using adapters::http::BeastRequest;
using adapters::http::to_http_request;
namespace bhttp = boost::beast::http;

TEST(ToHttpRequest, TakesTheFirstValueAndNotesRepeatsOfTheFieldsSentOnce) {
  BeastRequest request{bhttp::verb::post, "/v1/pets", 11};
  request.insert("authorization", "Bearer first");
  request.insert("Content-Type", "application/json");
  request.insert("idempotency-key", "k1");
  request.insert("Authorization", "Bearer second");
  request.insert("content-type", "text/plain");
  request.insert("Idempotency-Key", "k2");
  const auto converted = to_http_request(request);
  EXPECT_EQ(converted.authorization, "Bearer first");
  EXPECT_TRUE(converted.authorization_repeated);
  EXPECT_EQ(converted.content_type, "application/json");
  EXPECT_TRUE(converted.content_type_repeated);
  EXPECT_EQ(converted.idempotency_key, "k1");
  EXPECT_TRUE(converted.idempotency_key_repeated);
}

TEST(ToHttpRequest, FieldsSentOnceAreNotRepeatsAndAbsentOnesStayEmpty) {
  BeastRequest request{bhttp::verb::get, "/v1/pets", 11};
  request.insert("Authorization", "Bearer only");
  request.insert("Accept-Encoding", "gzip");
  request.insert("Accept-Encoding", "br");
  const auto converted = to_http_request(request);
  EXPECT_EQ(converted.authorization, "Bearer only");
  EXPECT_FALSE(converted.authorization_repeated);
  EXPECT_EQ(converted.accept_encoding, "gzip");
  EXPECT_FALSE(converted.content_type.has_value());
  EXPECT_FALSE(converted.idempotency_key.has_value());
  EXPECT_FALSE(converted.idempotency_key_repeated);
  EXPECT_TRUE(converted.forwarded_for.empty());
}

TEST(ToHttpRequest, JoinsEveryForwardedForInOrder) {
  BeastRequest request{bhttp::verb::get, "/v1/pets", 11};
  request.insert("X-Forwarded-For", "203.0.113.9");
  request.insert("Host", "example");
  request.insert("x-forwarded-for", "198.51.100.1, 10.0.0.2");
  EXPECT_EQ(to_http_request(request).forwarded_for, "203.0.113.9,198.51.100.1, 10.0.0.2");
}

}  // namespace
}  // namespace petstore::tests

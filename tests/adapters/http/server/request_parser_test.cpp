// RequestParser: the fields the service reads, kept as Beast's parser reads them, and nothing
// else: the first value of each, whether Authorization, Content-Type, Idempotency-Key and Origin
// came more than once, every X-Forwarded-For, Transfer-Encoding and Accept-Encoding joined in
// order, Host counted; names matched whatever their case; a folded value unfolded; values copied
// out of the input; trailer fields counted, never kept; fields nobody reads not stored at all.

#include "adapters/http/server/request_parser.hpp"

#include <cstddef>
#include <memory>
#include <memory_resource>
#include <string>
#include <string_view>

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <gtest/gtest.h>

#include "adapters/http/server/request_framing.hpp"

namespace petstore::tests {
namespace {

using adapters::http::RequestParser;
namespace bhttp = boost::beast::http;

// Parsed: a parser over an arena of its own, fed a whole request.
struct Parsed {
  std::pmr::monotonic_buffer_resource memory;
  RequestParser parser{memory};
  boost::system::error_code error;
};

// feed: `text` to `parsed`'s parser as the session feeds a request that arrived whole.
void feed(Parsed& parsed, const std::string& text) {
  boost::beast::flat_buffer buffer;
  buffer.commit(boost::asio::buffer_copy(buffer.prepare(text.size()), boost::asio::buffer(text)));
  parsed.error = adapters::http::feed_parser(parsed.parser, buffer, true, 8192);
  EXPECT_EQ(buffer.size(), 0U);
}

std::unique_ptr<Parsed> parse(const std::string& text) {
  auto parsed = std::make_unique<Parsed>();
  feed(*parsed, text);
  return parsed;
}

std::string get(const std::string& fields) {
  return "GET /v1/pets HTTP/1.1\r\nHost: a.test\r\n" + fields + "\r\n";
}

TEST(RequestParser, TakesTheFirstValueAndNotesRepeatsOfTheFieldsSentOnce) {
  const auto parsed = parse(
      get("authorization: Bearer first\r\nContent-Type: application/json\r\nidempotency-key: k1\r\n"
          "Authorization: Bearer second\r\ncontent-type: text/plain\r\nIdempotency-Key: k2\r\n"));
  ASSERT_FALSE(parsed->error);
  const auto request = parsed->parser.request();
  EXPECT_EQ(request.method, "GET");
  EXPECT_EQ(request.target, "/v1/pets");
  EXPECT_EQ(request.authorization, "Bearer first");
  EXPECT_TRUE(request.authorization_repeated);
  EXPECT_EQ(request.content_type, "application/json");
  EXPECT_TRUE(request.content_type_repeated);
  EXPECT_EQ(request.idempotency_key, "k1");
  EXPECT_TRUE(request.idempotency_key_repeated);
}

TEST(RequestParser, FieldsSentOnceAreNotRepeatsAndAbsentOnesStayEmpty) {
  const auto parsed =
      parse(get("Authorization: Bearer only\r\nAccept-Encoding: gzip\r\n"
                "Origin: https://a.test\r\nContent-Encoding: identity\r\nIf-None-Match: \"e\"\r\n"
                "Access-Control-Request-Method: POST\r\n"));
  const auto request = parsed->parser.request();
  EXPECT_EQ(request.authorization, "Bearer only");
  EXPECT_FALSE(request.authorization_repeated);
  EXPECT_EQ(request.accept_encoding, "gzip");
  EXPECT_EQ(request.origin, "https://a.test");
  EXPECT_FALSE(request.origin_repeated);
  EXPECT_EQ(request.content_encoding, "identity");
  EXPECT_EQ(request.if_none_match, "\"e\"");
  EXPECT_EQ(request.access_control_request_method, "POST");
  EXPECT_FALSE(request.content_type.has_value());
  EXPECT_FALSE(request.idempotency_key.has_value());
  EXPECT_FALSE(request.idempotency_key_repeated);
  EXPECT_TRUE(request.forwarded_for.empty());
  EXPECT_TRUE(request.body.empty());
}

TEST(RequestParser, JoinsEveryForwardedForInOrder) {
  const auto parsed =
      parse(get("X-Forwarded-For: 203.0.113.9\r\nx-forwarded-for: 198.51.100.1, 10.0.0.2\r\n"));
  EXPECT_EQ(parsed->parser.request().forwarded_for, "203.0.113.9,198.51.100.1, 10.0.0.2");
}

// RFC 9110 section 5.3: repeated fields of a list are one field, their values joined in order.
// Only the first used to be kept, so "identity" then "gzip" read as no gzip.
TEST(RequestParser, JoinsEveryAcceptEncodingInOrder) {
  const auto parsed =
      parse(get("Accept-Encoding: identity\r\naccept-encoding: gzip;q=0.5\r\n"
                "Accept-Encoding: br\r\n"));
  EXPECT_EQ(parsed->parser.request().accept_encoding, "identity,gzip;q=0.5,br");
  const std::string long_value(300, 'x');  // past the parser's own bytes, into the arena
  EXPECT_EQ(parse(get("Accept-Encoding: " + long_value + "\r\nAccept-Encoding: gzip\r\n"))
                ->parser.request()
                .accept_encoding,
            long_value + ",gzip");
}

// Origin is no list: a browser sends one. The parser keeps the first and notes the second, for
// the CORS fields to believe neither.
TEST(RequestParser, NotesASecondOrigin) {
  const auto parsed = parse(get("Origin: https://a.test\r\norigin: https://b.test\r\n"));
  EXPECT_EQ(parsed->parser.request().origin, "https://a.test");
  EXPECT_TRUE(parsed->parser.request().origin_repeated);
}

TEST(RequestParser, KeepsWhatTheFramingChecksRead) {
  const auto parsed = parse(
      "POST /v1/pets HTTP/1.0\r\nHost: a.test\r\nhost: b.test\r\nConnection: keep-alive\r\n"
      "Connection: close\r\nExpect: 100-continue\r\nx-request-id: id-1\r\nX-Request-Id: id-2\r\n"
      "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
  ASSERT_FALSE(parsed->error);
  const auto& framing = parsed->parser.framing();
  EXPECT_EQ(parsed->parser.method(), bhttp::verb::post);
  EXPECT_EQ(parsed->parser.version(), 10U);
  EXPECT_EQ(framing.hosts, 2U);
  EXPECT_EQ(framing.host, "a.test");
  EXPECT_EQ(framing.connection, "keep-alive");
  EXPECT_EQ(framing.expect, "100-continue");
  EXPECT_EQ(framing.request_id, "id-1");
  EXPECT_EQ(framing.transfer_encoding, "gzip,chunked");
  EXPECT_EQ(parsed->parser.head_field_count(), 9U);
  EXPECT_FALSE(parse(get("")).get()->parser.framing().transfer_encoding.has_value());
}

TEST(RequestParser, AFoldedValueIsReadWithOneSpaceForEachFold) {
  const auto parsed = parse(get("Authorization: Bearer\r\n \t key\r\n  more\r\n"));
  EXPECT_EQ(parsed->parser.request().authorization, "Bearer key more");
}

TEST(RequestParser, KeptValuesOutliveTheBytesTheyWereReadFrom) {
  Parsed parsed;
  std::string text = get("Authorization: Bearer key\r\nX-Request-Id: id-1\r\n");
  boost::beast::flat_buffer buffer;
  buffer.commit(boost::asio::buffer_copy(buffer.prepare(text.size()), boost::asio::buffer(text)));
  ASSERT_FALSE(adapters::http::feed_parser(parsed.parser, buffer, true, 8192));
  // The read buffer, reused for the next request's bytes.
  buffer.commit(boost::asio::buffer_copy(buffer.prepare(text.size()),
                                         boost::asio::buffer(std::string(text.size(), 'x'))));
  EXPECT_EQ(parsed.parser.method_string(), "GET");
  EXPECT_EQ(parsed.parser.request().target, "/v1/pets");
  EXPECT_EQ(parsed.parser.request().authorization, "Bearer key");
  EXPECT_EQ(parsed.parser.framing().request_id, "id-1");
}

TEST(RequestParser, FieldsNobodyReadsAreNotStored) {
  std::string unread;
  for (int i = 0; i < 20; ++i) {
    unread += "X-Unread-" + std::to_string(i) + ": " + std::string(100, 'u') + "\r\n";
  }
  const auto parsed = parse(get(unread + "User-Agent: test\r\nAccept: */*\r\n"));
  ASSERT_FALSE(parsed->error);
  EXPECT_EQ(parsed->parser.head_field_count(), 23U);
  // The method, the target and the one Host: nothing of the 2 KiB of other fields.
  EXPECT_EQ(parsed->parser.kept_bytes(), std::string_view("GET/v1/petsa.test").size());
}

TEST(RequestParser, ValuesPastItsOwnBytesGoToTheArena) {
  const std::string long_key(300, 'k');
  const auto parsed = parse(get("Authorization: Bearer " + long_key + "\r\nOrigin: o\r\n"));
  EXPECT_EQ(parsed->parser.request().authorization, "Bearer " + long_key);
  EXPECT_EQ(parsed->parser.request().origin, "o");
  EXPECT_EQ(parsed->parser.framing().host, "a.test");
}

TEST(RequestParser, ReadsABodyAndCountsTrailerFieldsWithoutKeepingThem) {
  const auto sized = parse("POST /v1/pets HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello");
  EXPECT_EQ(sized->parser.request().body, "hello");
  const std::string trailers = "Authorization: Bearer late\r\nX-Other: 1\r\n";
  const auto chunked = parse(
      "POST /v1/pets HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
      "3\r\nhel\r\n2\r\nlo\r\n0\r\n" +
      trailers + "\r\n");
  ASSERT_FALSE(chunked->error);
  ASSERT_TRUE(chunked->parser.is_done());
  EXPECT_EQ(chunked->parser.request().body, "hello");
  EXPECT_FALSE(chunked->parser.request().authorization.has_value());
  EXPECT_EQ(chunked->parser.head_field_count(), 2U);
  EXPECT_EQ(chunked->parser.trailer_bytes(), trailers.size());
}

}  // namespace
}  // namespace petstore::tests

// gzip on the wire (response_wire): a body over 1 KiB goes out gzipped to a client that takes
// gzip, inflating back to the very bytes; Vary: Accept-Encoding comes with every such body,
// compressed or not; HEAD gets GET's fields; smaller bodies and the sender's own representations
// (Content-Encoding, ETag) are written exactly as before.

#include <cstddef>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "adapters/http/server/response_wire.hpp"
#include "support/gunzip.hpp"
#include "support/raw_http_response.hpp"

namespace petstore::tests {
namespace {

using adapters::http::HttpResponse;
using adapters::http::ResponseFraming;
using adapters::http::write_response;

// A page of `count` pets, as the service writes one (about 80 bytes a pet).
std::string page_of(int count) {
  std::string body = "[";
  for (int id = 1; id <= count; ++id) {
    body += (id > 1 ? "," : "") + std::string(R"({"id":)") + std::to_string(id) +
            R"(,"name":"Rex the )" + std::to_string(id * 7919) + R"(th","categoryId":)" +
            std::to_string(id % 13) + R"(,"status":"available"})";
  }
  return body + "]";
}

HttpResponse page_response(std::string body) {
  HttpResponse response;
  response.body = std::move(body);
  response.set_header("Cache-Control", "no-store");
  return response;
}

struct Written {
  RawResponse parsed;
  std::size_t body_bytes = 0;
  std::string wire;
};

Written write(const HttpResponse& response, std::optional<std::string_view> accept_encoding,
              bool head = false) {
  Written written;
  written.body_bytes =
      write_response(written.wire, response, ResponseFraming{11, true, head, accept_encoding, {}});
  std::string buffer = written.wire;
  if (head) {  // a HEAD response's Content-Length is not followed by a body
    written.parsed.status = 0;
    return written;
  }
  EXPECT_EQ(parse_response(buffer, written.parsed), ParseOutcome::complete) << written.wire;
  return written;
}

TEST(ResponseGzip, ALargeBodyGoesOutGzippedAndInflatesToTheSameBytes) {
  const std::string body = page_of(100);
  ASSERT_GT(body.size(), 4000U);
  const Written written = write(page_response(body), "gzip, deflate, br");
  EXPECT_EQ(written.parsed.header("Content-Encoding"), "gzip");
  EXPECT_EQ(written.parsed.header("Vary"), "Accept-Encoding");
  EXPECT_EQ(written.parsed.header("Content-Type"), "application/json");
  EXPECT_EQ(written.parsed.header("Content-Length"), std::to_string(written.parsed.body.size()));
  EXPECT_EQ(written.body_bytes, written.parsed.body.size()) << "logs count the bytes sent";
  EXPECT_LT(written.parsed.body.size() * 4, body.size()) << "a page compresses well";
  EXPECT_EQ(gunzip(written.parsed.body), body);
}

TEST(ResponseGzip, WithoutGzipALargeBodyGoesOutAsItIsButStillVaries) {
  const std::string body = page_of(100);
  for (const std::optional<std::string_view> refusing :
       {std::optional<std::string_view>{}, std::optional<std::string_view>{"identity"},
        std::optional<std::string_view>{"gzip;q=0"}, std::optional<std::string_view>{"br"},
        std::optional<std::string_view>{"gzip;q=0.5, identity"}}) {
    const Written written = write(page_response(body), refusing);
    EXPECT_EQ(written.parsed.header("Content-Encoding"), std::nullopt) << refusing.value_or("none");
    EXPECT_EQ(written.parsed.header("Vary"), "Accept-Encoding");
    EXPECT_EQ(written.parsed.body, body);
    EXPECT_EQ(written.body_bytes, body.size());
  }
}

TEST(ResponseGzip, HeadGetsTheFieldsOfGetAndNoBody) {
  const HttpResponse response = page_response(page_of(100));
  const Written get = write(response, "gzip");
  const Written head = write(response, "gzip", true);
  EXPECT_EQ(head.body_bytes, 0U);
  const auto head_end = get.wire.find("\r\n\r\n") + 4;
  EXPECT_EQ(head.wire.size(), head_end) << "no body after the fields";
  // The same fields, Date aside (it may have ticked between the two).
  const auto after_date = [](const std::string& wire) {
    return wire.substr(wire.find("\r\n", 20));
  };
  EXPECT_EQ(after_date(head.wire), after_date(get.wire.substr(0, head_end)));
}

TEST(ResponseGzip, SmallBodiesAreWrittenExactlyAsWithoutGzip) {
  const std::string small(adapters::http::gzip_threshold_bytes, 'a');  // at the threshold: small
  const HttpResponse response = page_response(R"({"data":")" + small.substr(11) + R"("})");
  ASSERT_EQ(response.body.size(), adapters::http::gzip_threshold_bytes);
  const Written gzip = write(response, "gzip");
  const Written plain = write(response, std::nullopt);
  EXPECT_EQ(gzip.parsed.header("Content-Encoding"), std::nullopt);
  EXPECT_EQ(gzip.parsed.count("Vary"), 0U);
  const auto after_date = [](const std::string& wire) {
    return wire.substr(wire.find("\r\n", 20));
  };
  EXPECT_EQ(after_date(gzip.wire), after_date(plain.wire));
}

TEST(ResponseGzip, TheSendersOwnRepresentationsAndBodilessStatusesAreLeftAlone) {
  HttpResponse encoded = page_response(std::string(5000, 'x'));
  encoded.set_header("Content-Encoding", "gzip");  // already gzip, as a /docs asset is
  EXPECT_EQ(write(encoded, "gzip").parsed.count("Content-Encoding"), 1U);
  EXPECT_EQ(write(encoded, "gzip").parsed.body, encoded.body);
  HttpResponse tagged = page_response(std::string(5000, 'x'));
  tagged.set_header("ETag", R"("abc")");  // a validator of these very bytes
  EXPECT_EQ(write(tagged, "gzip").parsed.body, tagged.body);
  EXPECT_EQ(write(tagged, "gzip").parsed.count("Vary"), 0U);
  EXPECT_FALSE(adapters::http::compressible(tagged));
  HttpResponse not_modified = page_response(std::string(5000, 'x'));
  not_modified.status = 304;
  EXPECT_FALSE(adapters::http::compressible(not_modified));
  EXPECT_TRUE(adapters::http::compressible(page_response(std::string(1025, 'x'))));
  // Field names are case-insensitive (RFC 9110 section 5.1), however the sender spelled them.
  HttpResponse lower_case = page_response(std::string(5000, 'x'));
  lower_case.set_header("content-encoding", "br");
  EXPECT_FALSE(adapters::http::compressible(lower_case));
  EXPECT_EQ(write(lower_case, "gzip").parsed.body, lower_case.body);
  HttpResponse upper_case = page_response(std::string(5000, 'x'));
  upper_case.set_header("ETAG", R"("abc")");
  EXPECT_FALSE(adapters::http::compressible(upper_case));
}

}  // namespace
}  // namespace petstore::tests

// The /docs assets as a static file server serves them: a content ETag, 304 to a matching
// If-None-Match, gzip to a client that takes it (and the bytes come back whole when inflated),
// and Accept-Encoding and If-None-Match read as RFC 9110 writes them.

#include "adapters/http/api/static_asset.hpp"

#include <string>
#include <zlib.h>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

using adapters::http::accepts_gzip;
using adapters::http::matches_etag;
using adapters::http::StaticAsset;

std::string gunzip(const std::string& bytes) {
  z_stream stream{};
  EXPECT_EQ(inflateInit2(&stream, 15 + 16), Z_OK);
  std::string out(1 << 20, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  inflateEnd(&stream);
  return out;
}

const std::string text(20000, 'a');  // compresses well

TEST(StaticAsset, AnswersWithItsBytesAndAContentTag) {
  const StaticAsset asset("text/plain", text);
  const auto plain = asset.respond(std::nullopt, std::nullopt);
  EXPECT_EQ(plain.status, 200U);
  EXPECT_EQ(plain.body, text);
  EXPECT_EQ(plain.header("Content-Encoding"), std::nullopt);
  EXPECT_EQ(plain.header("Vary"), "Accept-Encoding");
  const auto etag = plain.header("ETag");
  ASSERT_TRUE(etag);
  EXPECT_TRUE(etag->starts_with('"') && etag->ends_with('"')) << *etag;
  EXPECT_EQ(StaticAsset("text/plain", text).respond(std::nullopt, std::nullopt).header("ETag"),
            etag);
  EXPECT_NE(
      StaticAsset("text/plain", text + "b").respond(std::nullopt, std::nullopt).header("ETag"),
      etag);
}

TEST(StaticAsset, AMatchingIfNoneMatchIs304WithoutABody) {
  const StaticAsset asset("text/plain", text);
  const std::string etag(*asset.respond(std::nullopt, std::nullopt).header("ETag"));
  for (const std::string& sent : {etag, "W/" + etag, "\"other\", " + etag, std::string("*")}) {
    const auto response = asset.respond(sent, std::nullopt);
    EXPECT_EQ(response.status, 304U) << sent;
    EXPECT_EQ(response.body, "") << sent;
    EXPECT_EQ(response.header("ETag"), etag);
  }
  EXPECT_EQ(asset.respond("\"other\"", std::nullopt).status, 200U);
}

TEST(StaticAsset, GzipGoesToAClientThatTakesItAsAnotherRepresentation) {
  const StaticAsset asset("text/plain", text);
  const auto zipped = asset.respond(std::nullopt, "gzip, deflate, br");
  EXPECT_EQ(zipped.header("Content-Encoding"), "gzip");
  EXPECT_LT(zipped.body.size(), text.size() / 10);
  EXPECT_EQ(gunzip(zipped.body), text);
  const auto plain = asset.respond(std::nullopt, std::nullopt);
  EXPECT_NE(zipped.header("ETag"), plain.header("ETag"));
  // Each representation revalidates against its own tag.
  EXPECT_EQ(asset.respond(std::string(*zipped.header("ETag")), "gzip").status, 304U);
  EXPECT_EQ(asset.respond(std::string(*zipped.header("ETag")), std::nullopt).status, 200U);
}

TEST(StaticAsset, ATinyAssetIsNotCompressed) {
  const StaticAsset asset("text/plain", "{}");
  const auto response = asset.respond(std::nullopt, "gzip");
  EXPECT_EQ(response.body, "{}");
  EXPECT_EQ(response.header("Content-Encoding"), std::nullopt);
  EXPECT_EQ(response.header("Vary"), std::nullopt);
}

TEST(AcceptEncoding, GzipIsTakenWhenNamedOrStarredWithWeight) {
  for (const char* value : {"gzip", "GZIP", "deflate, gzip", "gzip;q=0.5", "*", "br, *;q=0.1",
                            "x-gzip", " gzip ; q=1 "}) {
    EXPECT_TRUE(accepts_gzip(value)) << value;
  }
  for (const char* value : {"", "identity", "br, deflate", "gzip;q=0", "gzip; q=0.000", "*;q=0",
                            "gzip;q=0, *", "gzipx"}) {
    EXPECT_FALSE(accepts_gzip(value)) << value;
  }
}

TEST(IfNoneMatch, ComparesWeaklyAcrossAList) {
  EXPECT_TRUE(matches_etag("\"a\"", "\"a\""));
  EXPECT_TRUE(matches_etag("W/\"a\"", "\"a\""));
  EXPECT_TRUE(matches_etag("\"b\" , \"a\"", "\"a\""));
  EXPECT_TRUE(matches_etag(" * ", "\"a\""));
  EXPECT_FALSE(matches_etag("\"ab\"", "\"a\""));
  EXPECT_FALSE(matches_etag("a", "\"a\""));
  EXPECT_FALSE(matches_etag("", "\"a\""));
}

}  // namespace
}  // namespace petstore::tests

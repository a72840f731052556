// write_response: the bytes of a response as the session sends them (RFC 9112 framing).

#include "adapters/http/server/response_wire.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

using adapters::http::HttpResponse;
using adapters::http::ResponseFraming;
using adapters::http::write_response;

HttpResponse json_response(unsigned status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(body);
  response.set_header("Cache-Control", "no-store");
  response.set_header("Location", "/v1/pets/7");
  return response;
}

std::string wire_of(const HttpResponse& response, ResponseFraming framing) {
  std::string out = "left over from the previous response";
  write_response(out, response, framing);
  return out;
}

// lines_of: the head's lines (without CRLF) and, last, the body.
std::vector<std::string> lines_of(const std::string& wire) {
  std::vector<std::string> lines;
  const auto head_end = wire.find("\r\n\r\n");
  std::size_t at = 0;
  while (at < head_end) {
    const auto end = wire.find("\r\n", at);
    lines.push_back(wire.substr(at, end - at));
    at = end + 2;
  }
  lines.push_back(head_end == std::string::npos ? "<no blank line>" : wire.substr(head_end + 4));
  return lines;
}

TEST(ResponseWire, WritesStatusLineDateFieldsInOrderLengthAndBody) {
  const auto lines = lines_of(wire_of(json_response(201, R"({"id":7})"), {}));
  ASSERT_EQ(lines.size(), 7U);
  EXPECT_EQ(lines[0], "HTTP/1.1 201 Created");
  // IMF-fixdate (RFC 9110 §5.6.7): "Date: Sun, 06 Nov 1994 08:49:37 GMT"
  EXPECT_TRUE(lines[1].starts_with("Date: ") && lines[1].ends_with(" GMT")) << lines[1];
  EXPECT_EQ(lines[1].size(), std::string("Date: Sun, 06 Nov 1994 08:49:37 GMT").size());
  EXPECT_EQ(lines[2], "Content-Type: application/json");
  EXPECT_EQ(lines[3], "Cache-Control: no-store");
  EXPECT_EQ(lines[4], "Location: /v1/pets/7");
  EXPECT_EQ(lines[5], "Content-Length: 8");
  EXPECT_EQ(lines[6], R"({"id":7})");
}

TEST(ResponseWire, KeepsAContentTypeTheResponseSets) {
  HttpResponse response = json_response(200, "text");
  response.set_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
  const std::string wire = wire_of(response, {});
  EXPECT_EQ(wire.find("application/json"), std::string::npos) << wire;
  EXPECT_NE(wire.find("\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"),
            std::string::npos);
}

TEST(ResponseWire, AnEmptyBodyHasLengthZeroAndNoContentType) {
  const std::string wire = wire_of(json_response(200, ""), {});
  EXPECT_EQ(wire.find("Content-Type"), std::string::npos) << wire;
  EXPECT_TRUE(wire.ends_with("\r\nContent-Length: 0\r\n\r\n")) << wire;
}

TEST(ResponseWire, ClosingAnHttp11ConnectionSaysSo) {
  const std::string wire = wire_of(json_response(400, "{}"), {11, false, false, {}, {}});
  EXPECT_NE(wire.find("\r\nConnection: close\r\n"), std::string::npos) << wire;
  EXPECT_EQ(wire_of(json_response(400, "{}"), {11, true, false, {}, {}}).find("Connection"),
            std::string::npos);
}

TEST(ResponseWire, Http10KeepsAliveOnlyWhenItSaysSo) {
  const std::string kept = wire_of(json_response(200, "{}"), {10, true, false, {}, {}});
  EXPECT_TRUE(kept.starts_with("HTTP/1.0 200 OK\r\n")) << kept;
  EXPECT_NE(kept.find("\r\nConnection: keep-alive\r\n"), std::string::npos) << kept;
  EXPECT_EQ(wire_of(json_response(200, "{}"), {10, false, false, {}, {}}).find("Connection"),
            std::string::npos);
}

TEST(ResponseWire, AHeadResponseHasTheLengthButNotTheBody) {
  const std::string wire = wire_of(json_response(200, R"([{"id":1}])"), {11, true, true, {}, {}});
  EXPECT_TRUE(wire.ends_with("\r\nContent-Length: 10\r\n\r\n")) << wire;
}

TEST(ResponseWire, ReplacesWhateverTheBufferHeld) {
  std::string out(100000, 'x');
  write_response(out, json_response(404, "{}"), {});
  EXPECT_TRUE(out.starts_with("HTTP/1.1 404 Not Found\r\n")) << out.substr(0, 40);
  EXPECT_TRUE(out.ends_with("\r\n\r\n{}"));
}

TEST(ResponseWire, TheRequestIdFollowsTheResponsesOwnFields) {
  ResponseFraming framing;
  framing.request_id = "id-7";
  const auto lines = lines_of(wire_of(json_response(201, "{}"), framing));
  ASSERT_EQ(lines.size(), 8U);
  EXPECT_EQ(lines[4], "Location: /v1/pets/7");
  EXPECT_EQ(lines[5], "X-Request-Id: id-7");
  EXPECT_EQ(lines[6], "Content-Length: 2");
}

TEST(ResponseWire, TheV1FieldsFollowTheResponsesOwnFields) {
  HttpResponse response = json_response(200, "{}");
  response.v1_fields = true;
  EXPECT_EQ(response.header("cache-control"), "no-store");
  EXPECT_EQ(response.header("X-Content-Type-Options"), "nosniff");
  const auto lines = lines_of(wire_of(response, {}));
  ASSERT_EQ(lines.size(), 9U);
  EXPECT_EQ(lines[4], "Location: /v1/pets/7");
  EXPECT_EQ(lines[5], "Cache-Control: no-store");
  EXPECT_EQ(lines[6], "X-Content-Type-Options: nosniff");
}

TEST(ResponseWire, EveryStatusHasItsLineInEitherVersion) {
  for (const unsigned version : {10U, 11U}) {
    for (const auto& [status, line] :
         {std::pair{100U, " 100 Continue\r\n"}, std::pair{201U, " 201 Created\r\n"},
          std::pair{503U, " 503 Service Unavailable\r\n"}, std::pair{599U, " 599 "},
          std::pair{799U, " 799 "}}) {
      HttpResponse response = json_response(status, "");
      const std::string wire = wire_of(response, {version, true, false, {}, {}});
      EXPECT_TRUE(wire.starts_with((version == 10 ? "HTTP/1.0" : "HTTP/1.1") + std::string(line)))
          << wire;
    }
  }
}

}  // namespace
}  // namespace petstore::tests

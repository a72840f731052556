// HEAD over real sockets (contract section 11, RFC 9110 sections 9.3.2 and 8.6): the response is
// GET's head, Content-Length included, and not one byte of body follows it, so a kept-alive
// connection's next response starts right after the blank line and parses whole.

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

// ResponseHead: the fields of a response head, but those that differ between two exchanges
// (Date, X-Request-Id, traceresponse, and Connection, which the second request asks to close),
// and its status line.
struct ResponseHead {
  std::string status_line;
  std::vector<std::pair<std::string, std::string>> fields;
};

ResponseHead stable_part(std::string_view status_line,
                         const std::vector<std::pair<std::string, std::string>>& all) {
  ResponseHead head{std::string(status_line), {}};
  for (const auto& [name, value] : all) {
    if (name != "Date" && name != "X-Request-Id" && name != "traceresponse" &&
        name != "Connection") {
      head.fields.emplace_back(name, value);
    }
  }
  return head;
}

// split_head: the head of the response at the front of `bytes` (status line and fields), and the
// bytes after its blank line, which for a HEAD response are the next response's.
std::pair<ResponseHead, std::string> split_head(const std::string& bytes) {
  const auto end = bytes.find("\r\n\r\n");
  if (end == std::string::npos) {
    ADD_FAILURE() << "no whole response head in: " << bytes;
    return {};
  }
  std::vector<std::pair<std::string, std::string>> fields;
  const auto first_line_end = bytes.find("\r\n");
  for (auto at = first_line_end + 2; at < end + 2;) {
    const auto line_end = bytes.find("\r\n", at);
    const std::string line = bytes.substr(at, line_end - at);
    const auto colon = line.find(':');
    fields.emplace_back(line.substr(0, colon), line.substr(colon + 2));
    at = line_end + 2;
  }
  return {stable_part(bytes.substr(0, first_line_end), fields), bytes.substr(end + 4)};
}

// head_then_get: HEAD `target`, then GET `target` (Connection: close) on the same kept-alive
// connection; checks that the HEAD response is GET's head and carries no body bytes.
void head_then_get(const ServerUnderTest& server, const std::string& target,
                   const Headers& headers) {
  SCOPED_TRACE("HEAD " + target);
  RawConnection connection = server.connect();
  ASSERT_TRUE(connection.send(format_request("HEAD", target, headers)));
  Headers closing = headers;
  closing.emplace_back("Connection", "close");
  ASSERT_TRUE(connection.send(format_request("GET", target, closing)));
  const auto bytes = connection.read_until_closed(10s);
  ASSERT_TRUE(bytes);
  auto [head, rest] = split_head(*bytes);
  RawResponse get;
  ASSERT_EQ(parse_response(rest, get), ParseOutcome::complete)
      << "the bytes after the HEAD response are not a whole response: " << rest.substr(0, 200);
  EXPECT_EQ(rest, "") << "bytes after the GET response";
  ASSERT_FALSE(get.body.empty());
  EXPECT_TRUE(head.status_line.starts_with("HTTP/1.1 " + std::to_string(get.status) + " "))
      << head.status_line << " against GET's " << get.status;
  const ResponseHead expected = stable_part(head.status_line, get.headers);
  EXPECT_EQ(head.fields, expected.fields);
  const auto length = std::find_if(head.fields.begin(), head.fields.end(), [](const auto& field) {
    return field.first == "Content-Length";
  });
  ASSERT_NE(length, head.fields.end()) << "HEAD must say GET's Content-Length (RFC 9110 8.6)";
  EXPECT_EQ(length->second, std::to_string(get.body.size()));
}

TEST(HttpServerHead, HeadSendsGetsHeadAndNoBodyOnAKeptAliveConnection) {
  ServerUnderTest server;
  const Headers key_a{{"Authorization", bearer(test_key_a)}};
  const auto created = server.connect().round_trip(
      api_request("POST", "/v1/pets", test_key_a, R"({"name":"Rex","categoryId":7})"));
  ASSERT_EQ(created.status, 201U) << created;
  const std::string pet = "/v1/pets/" + std::to_string(pet_id_of(created.body));
  for (const std::string& target : {std::string("/v1/pets"), pet, std::string("/v1/pets/999"),
                                    std::string("/v1/store/orders")}) {
    head_then_get(server, target, key_a);
  }
  head_then_get(server, "/v1/pets", {});  // 401, as GET without a key
  for (const std::string target : {"/healthz", "/readyz", "/openapi.json", "/docs", "/nothing"}) {
    head_then_get(server, target, {});
  }
  head_then_get(server, "/openapi.json", {{"Accept-Encoding", "gzip"}});
}

TEST(HttpServerHead, PipelinedHeadAnswersEachEndAtTheirBlankLine) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  // Three HEADs in one write, then a GET: each answer ends at its blank line.
  const std::string head = format_request("HEAD", "/healthz");
  ASSERT_TRUE(connection.send(head + head + head +
                              format_request("GET", "/healthz", {{"Connection", "close"}})));
  const auto bytes = connection.read_until_closed(10s);
  ASSERT_TRUE(bytes);
  std::string rest = *bytes;
  for (int i = 0; i < 3; ++i) {
    auto [answer, after] = split_head(rest);
    EXPECT_EQ(answer.status_line, "HTTP/1.1 200 OK");
    rest = std::move(after);
  }
  RawResponse last;
  ASSERT_EQ(parse_response(rest, last), ParseOutcome::complete) << rest;
  EXPECT_EQ(last.body, R"({"status":"ok"})");
}

}  // namespace
}  // namespace petstore::tests

// W3C Trace Context through the real binary (issue 41 item 3): a valid traceparent is continued,
// a missing or malformed one starts a new trace; every response says which trace and span it
// belongs to (traceresponse), refusals and 401s included, and the request's log line carries the
// same trace id and span id.

#include <map>
#include <signal.h>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/text_lines.hpp"

namespace petstore::tests {
namespace {

const std::string trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string valid = "00-" + trace_id + "-00f067aa0ba902b7-01";

// traced_get: GET `target` with `key` (none when empty), request id `id` and `fields` (whole
// lines without their CRLF), on a fresh connection.
RawResponse traced_get(std::uint16_t port, const std::string& target, const std::string& key,
                       const std::string& id, const std::vector<std::string>& fields) {
  std::string request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
  request += "X-Request-Id: " + id + "\r\n";
  if (!key.empty()) {
    request += "Authorization: Bearer " + key + "\r\n";
  }
  for (const auto& field : fields) {
    request += field + "\r\n";
  }
  return http_call(port, request + "\r\n");
}

bool is_lower_hex(std::string_view text) {
  return text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// Traceresponse: the parts of a traceresponse field, empty when it is not one.
struct Traceresponse {
  std::string trace_id;
  std::string span_id;
  std::string flags;
};

Traceresponse parse_traceresponse(const RawResponse& response) {
  const std::string value = response.header("traceresponse").value_or("");
  if (value.size() != 55 || !value.starts_with("00-") || value[35] != '-' || value[52] != '-') {
    return {};
  }
  Traceresponse parts{value.substr(3, 32), value.substr(36, 16), value.substr(53)};
  if (!is_lower_hex(parts.trace_id) || !is_lower_hex(parts.span_id) ||
      parts.trace_id == std::string(32, '0') || parts.span_id == std::string(16, '0')) {
    return {};
  }
  return parts;
}

// text_of: the string `key` of a log line, "" when it is missing or not a string.
std::string text_of(const boost::json::object& line, std::string_view key) {
  const auto* value = line.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : std::string();
}

class CliTraceTest : public KeyedCliTest {};

TEST_F(CliTraceTest, EachResponseAndLogLineNamesTheTraceItContinuesOrStarts) {
  ServedPetstore served(petstore(serve_args(keys_)));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  const std::string upper =
      "00-" + std::string("4BF92F3577B34DA6A3CE929D0E0E4736") + "-00f067aa0ba902b7-01";
  // request id -> the fields sent, and whether the trace is to be continued.
  const std::map<std::string, std::pair<std::vector<std::string>, bool>> cases{
      {"continued", {{"traceparent: " + valid, "tracestate: congo=t61rcWkgMzE"}, true}},
      {"none", {{}, false}},
      {"version-ff", {{"traceparent: ff" + valid.substr(2)}, false}},
      {"zero-trace", {{"traceparent: 00-" + std::string(32, '0') + valid.substr(35)}, false}},
      {"zero-parent",
       {{"traceparent: " + valid.substr(0, 36) + std::string(16, '0') + "-01"}, false}},
      {"upper-case", {{"traceparent: " + upper}, false}},
      {"too-long", {{"traceparent: " + valid + "0"}, false}},
      {"too-short", {{"traceparent: " + valid.substr(0, 54)}, false}},
      {"twice", {{"traceparent: " + valid, "traceparent: " + valid}, false}},
  };
  std::map<std::string, Traceresponse> answered;
  for (const auto& [id, fields_continued] : cases) {
    const RawResponse response =
        traced_get(served.port(), "/v1/pets", key_, id, fields_continued.first);
    ASSERT_EQ(response.status, 200U) << id << ": " << response;
    const Traceresponse trace = parse_traceresponse(response);
    ASSERT_FALSE(trace.trace_id.empty()) << id << ": " << response;
    EXPECT_EQ(trace.trace_id == trace_id, fields_continued.second) << id;
    EXPECT_NE(trace.span_id, "00f067aa0ba902b7") << id << ": the service's own span";
    EXPECT_EQ(trace.flags, fields_continued.second ? "01" : "00") << id;
    answered[id] = trace;
  }
  // Answered before routing and authentication: a 401, and a request refused for its head.
  const RawResponse unauthorized =
      traced_get(served.port(), "/v1/pets", "", "unauthorized", {"traceparent: " + valid});
  EXPECT_EQ(unauthorized.status, 401U);
  EXPECT_EQ(parse_traceresponse(unauthorized).trace_id, trace_id) << unauthorized;
  const RawResponse refused = http_call(
      served.port(), "GET /v1/pets HTTP/1.1\r\nHost: a\r\nHost: b\r\ntraceparent: " + valid +
                         "\r\nX-Request-Id: refused\r\n\r\n");
  EXPECT_EQ(refused.status, 400U);
  EXPECT_EQ(parse_traceresponse(refused).trace_id, trace_id) << refused;

  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  std::map<std::string, boost::json::object> lines;
  for (const auto& line : lines_of(served.child().captured_stdout())) {
    auto object = boost::json::parse(line).as_object();
    if (object.contains("request_id")) {
      lines[std::string(object.at("request_id").as_string())] = object;
    }
  }
  for (const auto& [id, trace] : answered) {
    ASSERT_TRUE(lines.contains(id)) << id;
    EXPECT_EQ(text_of(lines[id], "trace_id"), trace.trace_id) << id;
    EXPECT_EQ(text_of(lines[id], "span_id"), trace.span_id) << id;
  }
  ASSERT_TRUE(lines.contains("refused"));
  EXPECT_EQ(text_of(lines["refused"], "trace_id"), trace_id);
}

}  // namespace
}  // namespace petstore::tests

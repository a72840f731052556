// The Logger's two formats: JSON lines that a JSON parser reads back field by field, text lines
// with quoted values where needed, and the level filter. Request lines carry the route template,
// operation and request id the caller hands in, nothing else.

#include "adapters/logging/logger.hpp"

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <boost/json.hpp>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "support/log_capture.hpp"
#include "support/text_lines.hpp"

namespace petstore::tests {
namespace {

using adapters::logging::LogFormat;
using adapters::logging::Logger;
using adapters::logging::LogLevel;
using adapters::logging::RequestLine;

RequestLine sample_request() {
  return {"req-1",
          "4bf92f3577b34da6a3ce929d0e0e4736",
          "00f067aa0ba902b7",
          "GET",
          "HTTP/2",
          "/v1/pets/{petId}",
          "getPet",
          "192.0.2.7",
          "principal-1",
          "ops team",
          404,
          std::chrono::microseconds(1500),
          61,
          {}};
}

TEST(Logger, JsonRequestLineHasEveryField) {
  LogCapture out(LogFormat::json, LogLevel::info);
  out.logger().request(sample_request());
  const std::string logged = out.text_at_close();
  const auto lines = lines_of(logged);
  ASSERT_EQ(lines.size(), 1U) << logged;
  const auto object = boost::json::parse(lines[0]).as_object();
  EXPECT_EQ(object.at("level"), "info");
  EXPECT_EQ(object.at("event"), "request");
  EXPECT_EQ(object.at("request_id"), "req-1");
  EXPECT_EQ(object.at("trace_id"), "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(object.at("span_id"), "00f067aa0ba902b7");
  EXPECT_EQ(object.at("method"), "GET");
  EXPECT_EQ(object.at("protocol"), "HTTP/2");
  EXPECT_EQ(object.at("route"), "/v1/pets/{petId}");
  EXPECT_EQ(object.at("operation"), "getPet");
  EXPECT_EQ(object.at("client"), "192.0.2.7");
  EXPECT_EQ(object.at("principal"), "principal-1");
  EXPECT_EQ(object.at("key"), "ops team");
  EXPECT_EQ(object.at("status").as_int64(), 404);
  EXPECT_DOUBLE_EQ(object.at("duration_ms").to_number<double>(), 1.5);
  EXPECT_EQ(object.at("bytes").as_int64(), 61);
  const std::string time(object.at("time").as_string());
  ASSERT_EQ(time.size(), 24U) << time;  // 2026-01-02T03:04:05.678Z
  EXPECT_EQ(time[10], 'T');
  EXPECT_EQ(time.back(), 'Z');
}

TEST(Logger, JsonEscapesQuotesAndNewlines) {
  LogCapture out(LogFormat::json, LogLevel::info);
  out.logger().error("failure", {{"message", "a \"quoted\"\nline\\"}, {"count", std::int64_t{3}}});
  const std::string logged = out.text_at_close();
  const auto lines = lines_of(logged);
  ASSERT_EQ(lines.size(), 1U) << logged;
  const auto object = boost::json::parse(lines[0]).as_object();
  EXPECT_EQ(object.at("level"), "error");
  EXPECT_EQ(object.at("event"), "failure");
  EXPECT_EQ(object.at("message"), "a \"quoted\"\nline\\");
  EXPECT_EQ(object.at("count").as_int64(), 3);
}

// Strings are copied in blocks of sixteen bytes, and a shorter tail as two overlapping words,
// where no byte needs an escape: an escape at every place of every length up to three blocks, of
// each kind (control bytes at both ends of their range, '"', '\\'), beside bytes that stay as they
// are (a space, DEL, above 0x7F), reads back as the text it escapes; so does the text without it.
TEST(Logger, JsonEscapesWhereverTheyFallInAString) {
  for (std::size_t length = 0; length <= 48; ++length) {
    std::string plain(length, 'x');
    for (std::size_t i = 0; i < length; i += 3) {
      plain[i] = static_cast<char>(0xC3 + (i % 2) * 0x3C);  // 0xC3 or 0xFF: high bytes pass as-is
      if (i + 1 < length) {
        plain[i + 1] = i % 2 == 0 ? ' ' : '\x7F';  // the bytes just past each end of the escapes
      }
    }
    std::vector<std::string> texts{plain};
    for (std::size_t place = 0; place < length; ++place) {
      for (const char escape : {'\x00', '\x01', '\x1F', '"', '\\'}) {
        texts.push_back(plain);
        texts.back()[place] = escape;
      }
    }
    LogCapture out(LogFormat::json, LogLevel::info);
    for (const auto& text : texts) {
      out.logger().info("event", {{"text", text}});
    }
    const std::string logged = out.text_at_close();
    const auto lines = lines_of(logged);
    ASSERT_EQ(lines.size(), texts.size()) << logged;
    EXPECT_NE(lines[0].find("\"text\":\"" + plain + "\""), std::string::npos) << lines[0];
    boost::json::parse_options high_bytes_as_they_are;
    high_bytes_as_they_are.allow_invalid_utf8 = true;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      const auto object = boost::json::parse(lines[i], {}, high_bytes_as_they_are).as_object();
      EXPECT_EQ(object.at("text").as_string(), texts[i]) << lines[i];
    }
  }
}

// Any ASCII text, of any length (across the blocks and their tails, in a thread's buffer grown or
// not), reads back as itself: from a JSON line as the event and a field, from a text line bare or
// as a JSON string.
RC_GTEST_PROP(Logger, AnyTextReadsBackFromEitherFormat, ()) {
  const auto text = *rc::gen::container<std::string>(
      rc::gen::map(rc::gen::inRange(0, 0x80), [](int byte) { return static_cast<char>(byte); }));
  LogCapture json(LogFormat::json, LogLevel::info);
  json.logger().info(text, {{"text", text}, {"count", std::int64_t{1}}});
  const auto object = boost::json::parse(json.text_at_close()).as_object();
  RC_ASSERT(object.at("event").as_string() == text);
  RC_ASSERT(object.at("text").as_string() == text);
  RC_ASSERT(object.at("count").as_int64() == 1);

  LogCapture plain(LogFormat::text, LogLevel::info);
  plain.logger().info("event", {{"text", text}});
  const std::string line = plain.text_at_close();
  const std::size_t at = line.find(" text=") + std::string_view(" text=").size();
  std::string value = line.substr(at, line.size() - at - 1);
  if (!value.empty() && value.front() == '"') {
    value = boost::json::parse(value).as_string();
  }
  RC_ASSERT(value == text);
}

// A request's duration is written in milliseconds to the microsecond, without trailing zeros.
TEST(Logger, DurationsAreMillisecondsToTheMicrosecond) {
  const std::pair<std::chrono::nanoseconds, const char*> cases[] = {
      {std::chrono::microseconds(1500), "duration_ms=1.5 "},
      {std::chrono::microseconds(12), "duration_ms=0.012 "},
      {std::chrono::microseconds(1), "duration_ms=0.001 "},
      {std::chrono::nanoseconds(999), "duration_ms=0 "},
      {std::chrono::seconds(3), "duration_ms=3000 "},
      {std::chrono::microseconds(2100), "duration_ms=2.1 "},
  };
  for (const auto& [duration, text] : cases) {
    LogCapture out(LogFormat::text, LogLevel::info);
    auto record = sample_request();
    record.duration = duration;
    out.logger().request(record);
    const std::string logged = out.text_at_close();
    EXPECT_NE(logged.find(text), std::string::npos) << logged;
  }
}

// A duration field of any value, the most negative included, is a number of milliseconds.
TEST(Logger, AnyDurationFieldIsWritten) {
  LogCapture out(LogFormat::text, LogLevel::info);
  out.logger().info("event", {{"low", adapters::logging::Milliseconds{INT64_MIN}},
                              {"high", adapters::logging::Milliseconds{INT64_MAX}}});
  const std::string logged = out.text_at_close();
  EXPECT_NE(logged.find(" low=-9223372036854775.808 high=9223372036854775.807\n"),
            std::string::npos)
      << logged;
}

TEST(Logger, TextLineIsKeyValuePairs) {
  LogCapture out(LogFormat::text, LogLevel::info);
  Logger& logger = out.logger();
  logger.request(sample_request());
  logger.info("draining", {{"message", "two words"}});
  const std::string logged = out.text_at_close();
  const auto lines = lines_of(logged);
  ASSERT_EQ(lines.size(), 2U) << logged;
  EXPECT_NE(
      lines[0].find(
          " info request request_id=req-1 trace_id=4bf92f3577b34da6a3ce929d0e0e4736 "
          "span_id=00f067aa0ba902b7 method=GET protocol=HTTP/2 route=/v1/pets/{petId} "
          "operation=getPet client=192.0.2.7 principal=principal-1 key=\"ops team\" status=404 "
          "duration_ms=1.5"),
      std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("bytes=61"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("info draining message=\"two words\""), std::string::npos) << lines[1];
}

TEST(Logger, ARequestLineCarriesAFailedCallsWordsOnlyWhenItHasThem) {
  LogCapture out(LogFormat::json, LogLevel::info);
  Logger& logger = out.logger();
  logger.request(sample_request());
  auto failed = sample_request();
  failed.status = 503;
  failed.fault = "storage is full: mdb_txn_commit: No space left on device";
  logger.request(failed, LogLevel::error);
  const std::string logged = out.text_at_close();
  const auto lines = lines_of(logged);
  ASSERT_EQ(lines.size(), 2U) << logged;
  EXPECT_FALSE(boost::json::parse(lines[0]).as_object().contains("fault")) << lines[0];
  const auto second = boost::json::parse(lines[1]).as_object();
  EXPECT_EQ(second.at("level"), "error");
  EXPECT_EQ(second.at("request_id"), "req-1");
  EXPECT_EQ(second.at("fault").as_string(), failed.fault);
}

TEST(Logger, LevelFiltersLowerLevels) {
  LogCapture out(LogFormat::json, LogLevel::warn);
  Logger& logger = out.logger();
  logger.request(sample_request());
  logger.info("start");
  logger.log(LogLevel::debug, "detail");
  logger.warn("slow");
  logger.error("broken");
  const std::string logged = out.text_at_close();
  const auto lines = lines_of(logged);
  ASSERT_EQ(lines.size(), 2U) << logged;
  EXPECT_EQ(boost::json::parse(lines[0]).at("event"), "slow");
  EXPECT_EQ(boost::json::parse(lines[1]).at("event"), "broken");
}

TEST(Logger, ARequestLineAtDebugIsFilteredAtInfo) {
  LogCapture out(LogFormat::json, LogLevel::info);
  Logger& logger = out.logger();
  logger.request(sample_request(), LogLevel::debug);
  EXPECT_EQ(out.text(), "");
  logger.request(sample_request());
  EXPECT_EQ(lines_of(out.text_at_close()).size(), 1U);
}

}  // namespace
}  // namespace petstore::tests

#include "adapters/logging/logger.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <mutex>
#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/ostream_sink.h>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

#include "adapters/logging/line_writer.hpp"

namespace petstore::adapters::logging {
namespace {

spdlog::level::level_enum to_spdlog(LogLevel level) {
  switch (level) {
    case LogLevel::debug:
      return spdlog::level::debug;
    case LogLevel::info:
      return spdlog::level::info;
    case LogLevel::warn:
      return spdlog::level::warn;
    case LogLevel::error:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}

// The time (UTC, milliseconds) and level come from spdlog's pattern; the message is the event
// and its fields, already in the format's syntax.
std::shared_ptr<spdlog::logger> make_logger(spdlog::sink_ptr sink, LogFormat format,
                                            LogLevel level) {
  auto logger = std::make_shared<spdlog::logger>("petstore", std::move(sink));
  const char* pattern = format == LogFormat::json
                            ? R"({"time":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l",%v})"
                            : "%Y-%m-%dT%H:%M:%S.%eZ %l %v";
  logger->set_formatter(std::make_unique<spdlog::pattern_formatter>(
      pattern, spdlog::pattern_time_type::utc, std::string("\n")));
  logger->set_level(to_spdlog(level));
  logger->flush_on(spdlog::level::trace);
  return logger;
}

std::string json_string(std::string_view text) {
  return boost::json::serialize(boost::json::string(text));
}

// A text value is bare when it needs no quoting, else a JSON string (escaped, quoted).
std::string text_value(std::string_view text) {
  const bool bare = !text.empty() && std::none_of(text.begin(), text.end(), [](char c) {
    return c <= ' ' || c == '"' || c == '=' || c == '\\' || c == 0x7F;
  });
  return bare ? std::string(text) : json_string(text);
}

// Shortest round-trip form ("1.5", not "1.5E0"): valid JSON and readable as text.
std::string number(double value) {
  std::array<char, 64> text{};
  const auto [end, error] = std::to_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc{} ? std::string(text.data(), end) : std::string("0");
}

// Lines wait for stdout in a queue of this many bytes (some 800 request lines): enough for a
// burst while the reader catches up, little memory when it never does.
constexpr std::size_t stdout_queue_bytes = std::size_t{256} << 10;

// QueuedSink: hands each formatted line to a LineWriter, so that logging never waits for
// stdout's reader. spdlog's own lock only covers formatting and queueing. While it holds (until
// the first announcement), lines wait in memory, so that the announcement comes first.
class QueuedSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit QueuedSink(LineWriter& writer) : writer_(writer) {}

  void hold() {
    const std::lock_guard lock(mutex_);
    holding_ = true;
  }

  // announce_then_release: `message` first, then whatever was held; holds no longer.
  void announce_then_release(const spdlog::details::log_msg& message) {
    const std::lock_guard lock(mutex_);
    spdlog::memory_buf_t line;
    formatter_->format(message, line);
    writer_.offer(std::string_view(line.data(), line.size()));
    release_locked();
  }

  void release() {
    const std::lock_guard lock(mutex_);
    release_locked();
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& message) override {
    spdlog::memory_buf_t line;
    formatter_->format(message, line);
    if (holding_ && held_.size() < most_held) {
      held_.emplace_back(line.data(), line.size());
      return;
    }
    writer_.offer(std::string_view(line.data(), line.size()));
  }
  void flush_() override {}  // the writer writes each line as soon as it can

 private:
  // Lines held at most; later ones are written at once (a start that logs this much is stuck).
  static constexpr std::size_t most_held = 256;

  void release_locked() {
    holding_ = false;
    for (const auto& line : held_) {
      writer_.offer(line);
    }
    held_.clear();
  }

  LineWriter& writer_;
  bool holding_ = false;
  std::vector<std::string> held_;
};

}  // namespace

std::optional<LogFormat> parse_log_format(std::string_view word) {
  if (word == "text") {
    return LogFormat::text;
  }
  if (word == "json") {
    return LogFormat::json;
  }
  return std::nullopt;
}

std::optional<LogLevel> parse_log_level(std::string_view word) {
  if (word == "debug") {
    return LogLevel::debug;
  }
  if (word == "info") {
    return LogLevel::info;
  }
  if (word == "warn") {
    return LogLevel::warn;
  }
  if (word == "error") {
    return LogLevel::error;
  }
  return std::nullopt;
}

std::unique_ptr<Logger> Logger::to_stdout(LogFormat format, LogLevel level) {
  return to_descriptor(STDOUT_FILENO, format, level, stdout_queue_bytes);
}

std::unique_ptr<Logger> Logger::to_descriptor(int fd, LogFormat format, LogLevel level,
                                              std::size_t queue_bytes) {
  auto writer = std::make_unique<LineWriter>(fd, queue_bytes);
  auto sink = std::make_shared<QueuedSink>(*writer);
  auto logger =
      std::unique_ptr<Logger>(new Logger(make_logger(std::move(sink), format, level), format));
  logger->writer_ = std::move(writer);
  return logger;
}

std::unique_ptr<Logger> Logger::to_stream(std::ostream& out, LogFormat format, LogLevel level) {
  return std::unique_ptr<Logger>(new Logger(
      make_logger(std::make_shared<spdlog::sinks::ostream_sink_mt>(out, true), format, level),
      format));
}

Logger::Logger(std::shared_ptr<spdlog::logger> logger, LogFormat format)
    : logger_(std::move(logger)), format_(format) {}

Logger::~Logger() { release_held(); }

void Logger::hold_until_announced() {
  for (const auto& sink : logger_->sinks()) {
    if (auto* queued = dynamic_cast<QueuedSink*>(sink.get())) {
      queued->hold();
    }
  }
}

void Logger::release_held() {
  for (const auto& sink : logger_->sinks()) {
    if (auto* queued = dynamic_cast<QueuedSink*>(sink.get())) {
      queued->release();
    }
  }
}

std::uint64_t Logger::lines_dropped() const { return writer_ ? writer_->dropped() : 0; }

bool Logger::close(std::chrono::milliseconds deadline) {
  release_held();
  return writer_ ? writer_->close(deadline) : true;
}

void Logger::report_drops() {
  if (!writer_) {
    return;
  }
  if (const std::uint64_t dropped = writer_->take_drop_report(); dropped != 0) {
    logger_->log(spdlog::level::warn,
                 format_fields("log_lines_dropped",
                               {{"count", static_cast<std::int64_t>(dropped)},
                                {"message", "stdout was not being read; lines were dropped"}}));
  }
}

void Logger::request(const RequestLine& record, LogLevel level) {
  if (!logger_->should_log(to_spdlog(level))) {
    return;
  }
  report_drops();
  const double duration_ms = std::chrono::duration<double, std::milli>(record.duration).count();
  const std::string_view route = record.route.empty() ? "-" : record.route;
  const std::string_view method = record.method.empty() ? "-" : record.method;
  const std::string_view operation = record.operation.empty() ? "-" : record.operation;
  const std::string_view client = record.client_address.empty() ? "-" : record.client_address;
  const std::string_view principal = record.principal.empty() ? "-" : record.principal;
  log(level, "request",
      {{"request_id", record.request_id},
       {"method", method},
       {"route", route},
       {"operation", operation},
       {"client", client},
       {"principal", principal},
       {"status", std::int64_t{record.status}},
       {"duration_ms", duration_ms},
       {"bytes", static_cast<std::int64_t>(record.bytes)}});
}

void Logger::log(LogLevel level, std::string_view event, LogFields fields) {
  const auto spdlog_level = to_spdlog(level);
  if (!logger_->should_log(spdlog_level)) {
    return;
  }
  report_drops();
  logger_->log(spdlog_level, format_fields(event, fields));
}

void Logger::announce(std::string_view event, std::string_view message) {
  report_drops();
  const std::string text = format_fields(event, {{"message", message}});
  // Straight to the sinks: the logger's level would filter it, theirs never does.
  const spdlog::details::log_msg line(logger_->name(), spdlog::level::info, text);
  for (const auto& sink : logger_->sinks()) {
    if (auto* queued = dynamic_cast<QueuedSink*>(sink.get())) {
      queued->announce_then_release(line);
    } else {
      sink->log(line);
    }
  }
}

std::string Logger::format_fields(std::string_view event, LogFields fields) const {
  const bool json = format_ == LogFormat::json;
  std::string line = json ? "\"event\":" + json_string(event) : text_value(event);
  for (const auto& field : fields) {
    std::string value;
    if (const auto* text = std::get_if<std::string_view>(&field.value)) {
      value = json ? json_string(*text) : text_value(*text);
    } else if (const auto* integer = std::get_if<std::int64_t>(&field.value)) {
      value = std::to_string(*integer);
    } else {
      value = number(std::get<double>(field.value));
    }
    line += json ? "," + json_string(field.key) + ":" + value
                 : " " + std::string(field.key) + "=" + value;
  }
  return line;
}

}  // namespace petstore::adapters::logging

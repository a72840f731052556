#include "adapters/logging/logger.hpp"

#include <array>
#include <string>
#include <unistd.h>
#include <utility>

#include "adapters/logging/line_writer.hpp"

namespace petstore::adapters::logging {
namespace {

// Some 2,400 request lines: room for those that come while the writer wakes and the reader catches
// up (docs/decisions/log-queue.md).
constexpr std::size_t stdout_queue_bytes = std::size_t{1} << 20;

// Lines held at most until the announcement; later ones are written at once (a start that logs
// this much is stuck).
constexpr std::size_t most_held = 256;

}  // namespace

std::unique_ptr<Logger> Logger::to_stdout(LogFormat format, LogLevel level) {
  return to_descriptor(STDOUT_FILENO, format, level, stdout_queue_bytes);
}

std::unique_ptr<Logger> Logger::to_descriptor(int fd, LogFormat format, LogLevel level,
                                              std::size_t queue_bytes) {
  return std::unique_ptr<Logger>(
      new Logger(std::make_unique<LineWriter>(fd, queue_bytes), format, level));
}

Logger::Logger(std::unique_ptr<LineWriter> writer, LogFormat format, LogLevel level)
    : writer_(std::move(writer)), format_(format), level_(level) {}

Logger::~Logger() { release_held(); }

void Logger::hold_until_announced() { holding_.store(true); }

std::vector<std::string> Logger::take_held() {
  const std::lock_guard lock(held_mutex_);
  holding_.store(false);
  return std::exchange(held_, {});
}

void Logger::release_held() {
  for (const auto& line : take_held()) {
    write(line);
  }
}

std::uint64_t Logger::lines_dropped() const { return writer_->dropped(); }

bool Logger::close(std::chrono::milliseconds deadline) {
  release_held();
  return writer_->close(deadline);
}

void Logger::write(std::string_view line) {
  if (holding_.load(std::memory_order_relaxed)) {
    const std::lock_guard lock(held_mutex_);
    if (holding_.load(std::memory_order_relaxed) && held_.size() < most_held) {
      held_.emplace_back(line);
      return;
    }
  }
  (void)writer_->offer(line);
}

void Logger::emit(LogLevel level, std::string_view event, std::span<const LogField> fields) {
  thread_local std::string buffer;
  write(format_line(buffer, format_, level, event, fields));
}

void Logger::report_drops() {
  if (const std::uint64_t dropped = writer_->take_drop_report(); dropped != 0) {
    emit(LogLevel::warn, "log_lines_dropped",
         LogFields{{"count", static_cast<std::int64_t>(dropped)},
                   {"message", "stdout was not being read; lines were dropped"}});
  }
}

void Logger::request(const RequestLine& record, LogLevel level) {
  if (!enabled(level)) {
    return;
  }
  report_drops();
  const auto or_dash = [](std::string_view text) { return text.empty() ? "-" : text; };
  const std::array<LogField, 14> fields{
      {{"request_id", record.request_id},
       {"trace_id", or_dash(record.trace_id)},
       {"span_id", or_dash(record.span_id)},
       {"method", or_dash(record.method)},
       {"protocol", or_dash(record.protocol)},
       {"route", or_dash(record.route)},
       {"operation", or_dash(record.operation)},
       {"client", or_dash(record.client_address)},
       {"principal", or_dash(record.principal)},
       {"key", or_dash(record.key_label)},
       {"status", std::int64_t{record.status}},
       {"duration_ms",
        Milliseconds{
            std::chrono::duration_cast<std::chrono::microseconds>(record.duration).count()}},
       {"bytes", static_cast<std::int64_t>(record.bytes)},
       {"fault", record.fault}}};
  // The fault field only when there is one.
  emit(level, "request", std::span(fields).first(record.fault.empty() ? 13 : 14));
}

void Logger::log(LogLevel level, std::string_view event, LogFields fields) {
  if (!enabled(level)) {
    return;
  }
  report_drops();
  emit(level, event, fields);
}

void Logger::announce(std::string_view event, std::string_view message) {
  report_drops();
  // Whatever the level filter says; first, then whatever was held.
  std::string buffer;
  const std::string_view line =
      format_line(buffer, format_, LogLevel::info, event, LogFields{{"message", message}});
  const std::vector<std::string> held = take_held();
  (void)writer_->offer_now(line);
  for (const auto& waiting : held) {
    write(waiting);
  }
}

}  // namespace petstore::adapters::logging

#pragma once
// Logger: the service's log lines, written by spdlog, one line per event: JSON objects (time,
// level, event, then fields) for machines, or a human line. Request lines carry the request id
// and the route template, never a target, a header or a key: callers only hand in what is here.
// Thread-safe; each line is flushed as written so that a crash loses none.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace spdlog {
class logger;
}

namespace petstore::adapters::logging {

enum class LogFormat { text, json };
enum class LogLevel { debug, info, warn, error };

// parse_log_format / parse_log_level: from the command line's words; nullopt when unknown.
[[nodiscard]] std::optional<LogFormat> parse_log_format(std::string_view word);
[[nodiscard]] std::optional<LogLevel> parse_log_level(std::string_view word);

// LogField: one key and its value; numbers stay numbers in JSON.
struct LogField {
  std::string_view key;
  std::variant<std::string_view, std::int64_t, double> value;
};
using LogFields = std::initializer_list<LogField>;

// RequestLine: what the log says of one answered request; never the target, headers or a key.
struct RequestLine {
  std::string_view request_id;
  std::string_view method;
  std::string_view route;  // the route template, e.g. "/v1/pets/{petId}"; empty when none
  unsigned status = 0;
  std::chrono::nanoseconds duration{0};
  std::size_t bytes = 0;  // body bytes sent
};

class Logger {
 public:
  // to_stdout: lines on standard output, as a service manager collects them.
  [[nodiscard]] static std::unique_ptr<Logger> to_stdout(LogFormat format, LogLevel level);
  // to_stream: lines on `out`, which must outlive the logger (for tests).
  [[nodiscard]] static std::unique_ptr<Logger> to_stream(std::ostream& out, LogFormat format,
                                                         LogLevel level);
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;
  ~Logger();

  // request: the line of one answered request (event "request", level info).
  void request(const RequestLine& record);
  void log(LogLevel level, std::string_view event, LogFields fields = {});
  void info(std::string_view event, LogFields fields = {}) { log(LogLevel::info, event, fields); }
  void warn(std::string_view event, LogFields fields = {}) { log(LogLevel::warn, event, fields); }
  void error(std::string_view event, LogFields fields = {}) { log(LogLevel::error, event, fields); }

 private:
  Logger(std::shared_ptr<spdlog::logger> logger, LogFormat format);
  [[nodiscard]] std::string format_fields(std::string_view event, LogFields fields) const;

  std::shared_ptr<spdlog::logger> logger_;
  LogFormat format_;
};

}  // namespace petstore::adapters::logging

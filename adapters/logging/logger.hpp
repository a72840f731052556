#pragma once
// Logger: the service's log lines, one per event, JSON or text (docs/decisions/log-format.md).
// Request lines never carry a target, a header or a key. Thread-safe, made for a line per request
// on every serving thread: no lock and no allocation once warm. On stdout it never waits for the
// reader (line_writer.hpp): lines it cannot take are dropped, counted and reported later.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace petstore::adapters::logging {

class LineWriter;

enum class LogFormat { text, json };
enum class LogLevel { debug, info, warn, error };

// Milliseconds: a duration logged in milliseconds to the microsecond ("1.5", "0.012").
struct Milliseconds {
  std::int64_t micros = 0;
};

// LogField: one key and its value; numbers stay numbers in JSON.
struct LogField {
  std::string_view key;  // a name in the code, never input: written as it is
  std::variant<std::string_view, std::int64_t, double, Milliseconds> value;
};
using LogFields = std::initializer_list<LogField>;

// RequestLine: what the log says of one answered request; never the target, headers or a key.
struct RequestLine {
  std::string_view request_id;
  std::string_view trace_id;  // W3C trace context: the trace, and the service's span in it
  std::string_view span_id;
  std::string_view method;
  std::string_view protocol;        // "HTTP/1.1", "HTTP/1.0" or "HTTP/2"
  std::string_view route;           // the route template, e.g. "/v1/pets/{petId}"; empty when none
  std::string_view operation;       // its operation id, e.g. "getPet"; empty when none
  std::string_view client_address;  // e.g. "192.0.2.7"
  std::string_view principal;       // the key's principal id; empty when no key was accepted
  std::string_view key_label;       // the key's label; empty when none or unlabelled
  unsigned status = 0;
  std::chrono::nanoseconds duration{0};
  std::size_t bytes = 0;   // body bytes sent
  std::string_view fault;  // a failed call's own words (storage full, away, damaged); else empty
};

class Logger {
 public:
  // to_stdout: lines on standard output, as a service manager collects them.
  [[nodiscard]] static std::unique_ptr<Logger> to_stdout(LogFormat format, LogLevel level);
  // to_descriptor: lines on `fd` through a queue of `queue_bytes` (to_stdout's own form).
  [[nodiscard]] static std::unique_ptr<Logger> to_descriptor(int fd, LogFormat format,
                                                             LogLevel level,
                                                             std::size_t queue_bytes);
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;
  ~Logger();

  // hold_until_announced: lines logged until the first announce() follow it (at most a few
  // hundred are held; close() writes them when no announcement came).
  void hold_until_announced();

  // lines_dropped: lines dropped since the start because the descriptor was not being read.
  [[nodiscard]] std::uint64_t lines_dropped() const;
  // close: stops logging and waits up to `deadline` for queued lines to be written; false when
  // they were not (a stalled reader). Lines logged afterwards are dropped.
  bool close(std::chrono::milliseconds deadline);

  // request: the line of one answered request (event "request"), at `level`.
  void request(const RequestLine& record, LogLevel level = LogLevel::info);
  void log(LogLevel level, std::string_view event, LogFields fields = {});
  // announce: a line every reader of the log needs whatever the level filter says (event
  // `event`, level info, `message` field), e.g. "listening on http://127.0.0.1:8080/v1".
  void announce(std::string_view event, std::string_view message);
  void info(std::string_view event, LogFields fields = {}) { log(LogLevel::info, event, fields); }
  void warn(std::string_view event, LogFields fields = {}) { log(LogLevel::warn, event, fields); }
  void error(std::string_view event, LogFields fields = {}) { log(LogLevel::error, event, fields); }

 private:
  Logger(std::unique_ptr<LineWriter> writer, LogFormat format, LogLevel level);
  [[nodiscard]] bool enabled(LogLevel level) const { return level >= level_; }
  // format_line (log_line.cpp): the whole line, '\n' included, written at the start of `buffer`
  // (grown when the line could pass its end, never shrunk). Time is UTC to the millisecond. It
  // neither locks nor, once the buffer has grown, allocates.
  static std::string_view format_line(std::string& buffer, LogFormat format, LogLevel level,
                                      std::string_view event, std::span<const LogField> fields);
  void emit(LogLevel level, std::string_view event, std::span<const LogField> fields);
  // write: one whole line, to the writer (or held, until the announcement).
  void write(std::string_view line);
  // report_drops: logs how many lines were dropped, once writing works again.
  void report_drops();
  // take_held: the lines held so far, holding no more from now on.
  [[nodiscard]] std::vector<std::string> take_held();
  void release_held();

  std::unique_ptr<LineWriter> writer_;
  LogFormat format_;
  LogLevel level_;
  // Until the first announcement (hold_until_announced), lines wait here, at most most_held.
  std::atomic<bool> holding_{false};
  std::mutex held_mutex_;
  std::vector<std::string> held_;
};

}  // namespace petstore::adapters::logging

#pragma once
// LogCapture: a Logger as the service makes one (to_descriptor), writing to a file of its own,
// and what it has written. Its writer thread writes lines later, so text() first waits for a mark
// of its own, logged after them (up to LineWriter::collect_every), and text_at_close() closes the
// logger, which writes every line at once.

#include <memory>
#include <string>

#include "adapters/logging/logger.hpp"
#include "support/temp_dir.hpp"

namespace petstore::tests {

class LogCapture {
 public:
  // Throws std::system_error when the file cannot be made.
  LogCapture(adapters::logging::LogFormat format, adapters::logging::LogLevel level);
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;
  ~LogCapture();

  [[nodiscard]] adapters::logging::Logger& logger() const { return *logger_; }
  [[nodiscard]] adapters::logging::Logger* get() const { return logger_.get(); }

  // text: every line logged so far on this thread (and on others at least
  // LineWriter::collect_every ago), without the marks; throws when the mark is not written within
  // 10 seconds. A dropped line fails the test.
  [[nodiscard]] std::string text();
  // text_at_close: closes the logger (lines logged later are dropped) and returns all it wrote;
  // throws when that takes over 10 seconds. A dropped line fails the test.
  [[nodiscard]] std::string text_at_close();

 private:
  TempDir dir_;
  int fd_ = -1;
  std::unique_ptr<adapters::logging::Logger> logger_;
  int marks_ = 0;
};

}  // namespace petstore::tests

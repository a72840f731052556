#include "support/log_capture.hpp"

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <fcntl.h>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

// Room for every line a test logs: a file is written as fast as lines come, and none may drop.
constexpr std::size_t queue_bytes = std::size_t{16} << 20U;

// The event of a mark line; text() leaves out every line that names it.
constexpr std::string_view mark_event = "log_capture_mark";

// without_marks: `text` less its mark lines.
std::string without_marks(const std::string& text) {
  std::string kept;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::string_view line(text.data() + start, end - start);
    if (line.find(mark_event) == std::string_view::npos) {
      kept.append(line);
    }
    start = end;
  }
  return kept;
}

}  // namespace

LogCapture::LogCapture(adapters::logging::LogFormat format, adapters::logging::LogLevel level) {
  const auto file = dir_.path() / "log";
  fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd_ < 0) {
    throw std::system_error(errno, std::generic_category(), "open " + file.string());
  }
  logger_ = adapters::logging::Logger::to_descriptor(fd_, format, level, queue_bytes);
}

LogCapture::~LogCapture() {
  (void)logger_->close(std::chrono::seconds(10));
  logger_.reset();
  ::close(fd_);
}

std::string LogCapture::text_at_close() {
  if (!logger_->close(std::chrono::seconds(10))) {
    throw std::runtime_error("the log capture's lines were not written within 10 seconds");
  }
  EXPECT_EQ(logger_->lines_dropped(), 0U) << "the log capture dropped lines";
  return without_marks(read_text(dir_.path() / "log"));
}

std::string LogCapture::text() {
  // announce ignores the level filter and queues at once, behind this thread's earlier lines.
  const std::string mark = "mark-" + std::to_string(++marks_);
  logger_->announce(mark_event, mark);
  const auto file = dir_.path() / "log";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    const std::string written = read_text(file);
    if (written.find(mark) != std::string::npos) {
      EXPECT_EQ(logger_->lines_dropped(), 0U) << "the log capture dropped lines";
      return without_marks(written);
    }
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("the log capture's mark was not written within 10 seconds");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace petstore::tests

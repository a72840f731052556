// The LineWriter and the Logger on a descriptor, against a pipe nobody reads: offering lines
// never blocks, the overflow is dropped and counted, close() gives up at its deadline, and once
// the pipe is read again one line says how many were dropped. Nothing here times an operation:
// a blocking offer would hang the test (and fail it by CTest's timeout).

#include "adapters/logging/line_writer.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "adapters/logging/logger.hpp"

namespace petstore::tests {
namespace {

using adapters::logging::LineWriter;
using namespace std::chrono_literals;

// Pipe: both ends, closed at the end of the test; the read end non-blocking so draining stops
// when it is empty.
class Pipe {
 public:
  Pipe() {
    EXPECT_EQ(::pipe(ends_.data()), 0);
    ::fcntl(ends_[0], F_SETFL, O_NONBLOCK);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    ::close(ends_[0]);
    ::close(ends_[1]);
  }
  [[nodiscard]] int write_end() const { return ends_[1]; }

  // fill: writes until the pipe is full, so that the next blocking write waits for a reader.
  void fill() const {
    const int flags = ::fcntl(ends_[1], F_GETFL);
    ::fcntl(ends_[1], F_SETFL, flags | O_NONBLOCK);
    const std::string block(4096, '-');
    while (::write(ends_[1], block.data(), block.size()) > 0) {
    }
    ::fcntl(ends_[1], F_SETFL, flags);
  }

  // drain: everything readable now.
  std::string drain() const {
    std::string text;
    std::array<char, 65536> buffer{};
    for (ssize_t got = 0; (got = ::read(ends_[0], buffer.data(), buffer.size())) > 0;) {
      text.append(buffer.data(), static_cast<std::size_t>(got));
    }
    return text;
  }

  // drain_until: reads until `text` holds `wanted`, or 10 s have passed.
  std::string drain_until(std::string_view wanted) const {
    std::string text;
    const auto give_up = std::chrono::steady_clock::now() + 10s;
    while (text.find(wanted) == std::string::npos && std::chrono::steady_clock::now() < give_up) {
      text += drain();
      std::this_thread::sleep_for(5ms);
    }
    return text;
  }

 private:
  std::array<int, 2> ends_{-1, -1};
};

const std::string line(100, 'x');

TEST(LineWriter, LinesReachTheDescriptorInOrder) {
  Pipe pipe;
  LineWriter writer(pipe.write_end(), 4096);
  EXPECT_TRUE(writer.offer("one\n"));
  EXPECT_TRUE(writer.offer("two\n"));
  EXPECT_TRUE(writer.close(10s));
  EXPECT_EQ(pipe.drain(), "one\ntwo\n");
  EXPECT_EQ(writer.dropped(), 0U);
  EXPECT_FALSE(writer.offer("late\n"));  // closed: dropped, not written
  EXPECT_EQ(writer.dropped(), 1U);
}

// Without a close, lines are written by themselves: the first wakes the idle writer, and lines
// far short of a hand-over, or of the share of the queue that wakes a busy writer, are collected
// within a collection's time.
TEST(LineWriter, LinesReachTheDescriptorWithoutAClose) {
  Pipe pipe;
  LineWriter writer(pipe.write_end(), std::size_t{1} << 20);
  EXPECT_TRUE(writer.offer("first\n"));
  EXPECT_EQ(pipe.drain_until("first\n"), "first\n");
  std::string expected;
  for (int i = 0; i < 10; ++i) {
    const std::string numbered = std::to_string(i) + "\n";
    EXPECT_TRUE(writer.offer(numbered));
    expected += numbered;
  }
  EXPECT_EQ(pipe.drain_until(expected), expected);
  EXPECT_EQ(writer.dropped(), 0U);
}

// Threads logging at once: every line reaches the descriptor whole (never split, never mixed
// with another) or is counted as dropped, and each thread's lines keep its order.
TEST(LineWriter, LinesFromManyThreadsAreNeverTornOrInterleaved) {
  constexpr int threads = 4;
  constexpr int lines_each = 3000;
  Pipe pipe;
  std::string written;
  std::atomic<bool> offering{true};
  std::thread reader([&] {
    while (offering.load()) {
      written += pipe.drain();
      std::this_thread::sleep_for(1ms);
    }
  });
  LineWriter writer(pipe.write_end(), std::size_t{64} << 10);
  std::vector<std::thread> loggers;
  loggers.reserve(threads);
  for (int thread = 0; thread < threads; ++thread) {
    loggers.emplace_back([&writer, thread] {
      for (int seq = 0; seq < lines_each; ++seq) {
        // Lengths vary, so that lines end at every offset of a buffer and of a write.
        (void)writer.offer("t" + std::to_string(thread) + " " + std::to_string(seq) + " " +
                           std::string(static_cast<std::size_t>(seq % 97), 'x') + "\n");
      }
    });
  }
  for (auto& logger : loggers) {
    logger.join();
  }
  EXPECT_TRUE(writer.close(10s));
  offering = false;
  reader.join();
  written += pipe.drain();

  std::array<int, threads> next{};  // each thread's next sequence number at least
  std::size_t whole = 0;
  std::size_t start = 0;
  for (std::size_t end = 0; (end = written.find('\n', start)) != std::string::npos;
       start = end + 1) {
    const std::string text = written.substr(start, end - start);
    int thread = -1;
    int seq = -1;
    int used = 0;
    ASSERT_EQ(std::sscanf(text.c_str(), "t%d %d %n", &thread, &seq, &used), 2) << text;
    ASSERT_TRUE(thread >= 0 && thread < threads) << text;
    EXPECT_EQ(text.substr(static_cast<std::size_t>(used)),
              std::string(static_cast<std::size_t>(seq % 97), 'x'))
        << text;
    EXPECT_GE(seq, next.at(static_cast<std::size_t>(thread))) << text;
    next.at(static_cast<std::size_t>(thread)) = seq + 1;
    ++whole;
  }
  EXPECT_EQ(start, written.size()) << "a line without its end";
  EXPECT_EQ(whole + writer.dropped(), std::size_t{threads} * lines_each);
}

TEST(LineWriter, AnUnreadDescriptorDropsAndCountsTheOverflowWithoutBlocking) {
  Pipe pipe;
  pipe.fill();
  LineWriter writer(pipe.write_end(), 8192);
  // The pipe is full and the queue holds 8 KiB: of 2,000 lines of 101 bytes, most are dropped.
  std::size_t accepted = 0;
  for (int i = 0; i < 2000; ++i) {
    accepted += writer.offer(line + "\n") ? 1 : 0;
  }
  EXPECT_GT(writer.dropped(), 0U);
  EXPECT_EQ(accepted + writer.dropped(), 2000U);
  EXPECT_EQ(writer.take_drop_report(), 0U);  // nothing has been written since the drops
  // Reading again lets the queue empty; then the report gives every drop, once.
  std::string text = pipe.drain();
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  std::uint64_t reported = 0;
  while (reported == 0 && std::chrono::steady_clock::now() < give_up) {
    text += pipe.drain();
    reported = writer.take_drop_report();
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(reported, writer.dropped());
  EXPECT_EQ(writer.take_drop_report(), 0U);
  EXPECT_TRUE(writer.close(10s));
  text += pipe.drain();
  const auto filler = static_cast<std::size_t>(std::count(text.begin(), text.end(), '-'));
  EXPECT_EQ(text.size() - filler, accepted * (line.size() + 1));
}

TEST(LineWriter, CloseGivesUpAtItsDeadlineWhenTheDescriptorIsStuck) {
  Pipe pipe;
  LineWriter writer(pipe.write_end(), 1 << 20);
  for (int i = 0; i < 2000; ++i) {
    (void)writer.offer(line + "\n");  // 200 KB: more than the pipe holds
  }
  EXPECT_FALSE(writer.close(100ms));
  pipe.drain();  // unblocks the writing thread left behind, so the test ends cleanly
}

// A reader that has gone away (stdout a pipe whose reader exited) fails the writes with EPIPE;
// it must not raise SIGPIPE in the process, whose default action would end it. The default
// disposition is set for the test, whatever the test runner left.
TEST(LineWriter, AReaderThatHasGoneAwayDoesNotEndTheProcess) {
  struct sigaction previous {};
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  ASSERT_EQ(sigaction(SIGPIPE, &default_action, &previous), 0);
  std::array<int, 2> ends{};
  ASSERT_EQ(::pipe(ends.data()), 0);
  ::close(ends[0]);
  {
    LineWriter writer(ends[1], 1 << 16);
    EXPECT_TRUE(writer.offer(line + "\n"));
    // The write fails at once (EPIPE), so the line is done with: close does not wait it out.
    // Had SIGPIPE been raised, the test process would have ended here.
    EXPECT_TRUE(writer.close(5s));
  }
  ::close(ends[1]);
  sigaction(SIGPIPE, &previous, nullptr);
}

TEST(Logger, ADescriptorNotReadDropsLinesAndSaysHowManyOnceItIsReadAgain) {
  Pipe pipe;
  pipe.fill();
  auto logger =
      adapters::logging::Logger::to_descriptor(pipe.write_end(), adapters::logging::LogFormat::json,
                                               adapters::logging::LogLevel::info, 4096);
  for (int i = 0; i < 3000; ++i) {
    logger->info("filler", {{"text", line}});
  }
  const std::uint64_t dropped = logger->lines_dropped();
  EXPECT_GT(dropped, 0U);
  // Read everything, then log until the report line appears (it precedes the next line logged
  // once the queue has emptied).
  std::string text = pipe.drain_until("filler");
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (text.find("log_lines_dropped") == std::string::npos &&
         std::chrono::steady_clock::now() < give_up) {
    logger->info("after");
    text += pipe.drain();
    std::this_thread::sleep_for(5ms);
  }
  const auto found = text.find("log_lines_dropped");
  ASSERT_NE(found, std::string::npos);
  const auto previous_end = text.rfind('\n', found);
  const auto at = previous_end == std::string::npos ? 0 : previous_end + 1;
  const auto report_end = text.find('\n', at);
  const auto report = boost::json::parse(text.substr(at, report_end - at)).as_object();
  EXPECT_EQ(report.at("level"), "warning");
  EXPECT_EQ(report.at("count").as_int64(), static_cast<std::int64_t>(dropped));
}

}  // namespace
}  // namespace petstore::tests

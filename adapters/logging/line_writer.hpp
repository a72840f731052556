#pragma once
// LineWriter: a bounded queue of log lines in front of a file descriptor, emptied by a thread of
// its own, the only one that may block in write(2). Whoever logs never waits for the reader of
// the descriptor: when the queue is full (stdout a pipe nobody reads), a line is dropped and
// counted instead (contract section 9). Lines are written in the order they were offered.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace petstore::adapters::logging {

class LineWriter {
 public:
  // `fd` stays open for the writer's life (and after: a writer stuck in write(2) at close is
  // left behind, see close()). `capacity` bytes may wait to be written.
  LineWriter(int fd, std::size_t capacity);
  LineWriter(const LineWriter&) = delete;
  LineWriter& operator=(const LineWriter&) = delete;
  // Closes with a short deadline (see close()).
  ~LineWriter();

  // offer: queues `line` (ending in '\n'); false, and the line counted as dropped, when it does
  // not fit or the writer is closed. Never blocks on the descriptor.
  bool offer(std::string_view line);

  // dropped: lines dropped since the start.
  [[nodiscard]] std::uint64_t dropped() const;

  // take_drop_report: once writing works again after lines were dropped (the queue has been
  // emptied since), how many were dropped since the last report; 0 otherwise. The caller logs
  // that count as a line of its own.
  [[nodiscard]] std::uint64_t take_drop_report();

  // close: takes no more lines and waits up to `deadline` for the queued ones to be written;
  // false when they were not (the descriptor is stuck), and the writing thread is then left
  // behind, blocked in write(2), to end with the process. Idempotent.
  bool close(std::chrono::milliseconds deadline);

 private:
  struct State;
  // write_queued: the writing thread's loop, until closed and empty.
  static void write_queued(const std::shared_ptr<State>& state);

  std::shared_ptr<State> state_;  // shared with the writing thread, which may outlive *this
};

}  // namespace petstore::adapters::logging

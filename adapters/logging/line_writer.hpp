#pragma once
// LineWriter: log lines in front of a file descriptor, written by a thread of its own, the only
// one that may block in write(2) (docs/decisions/log-queue.md). Each thread appends whole lines to
// a buffer of its own, which the writer collects; a line that fits neither it nor the writer's
// queue is dropped and counted (contract section 9). A line is never split or mixed; each thread's
// lines keep their order, and threads' lines may be out of order by up to `collect_every`.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace petstore::adapters::logging {

class LineWriter {
 public:
  // The longest a line offered waits in its thread's buffer while the writer is active.
  static constexpr std::chrono::milliseconds collect_every{10};

  // `fd` stays open for the writer's life (and after: a writer stuck in write(2) at close is
  // left behind, see close()). `capacity` bytes may wait in the writer's queue, and each thread
  // buffers up to a quarter of it (at most 32 KiB) besides.
  LineWriter(int fd, std::size_t capacity);
  LineWriter(const LineWriter&) = delete;
  LineWriter& operator=(const LineWriter&) = delete;
  // Closes with a short deadline (see close()).
  ~LineWriter();

  // offer: buffers `line` (ending in '\n'); false, and the line counted as dropped, when it does
  // not fit or the writer is closed. Never blocks on the descriptor.
  bool offer(std::string_view line);
  // offer_now: offer, then hands this thread's buffer to the queue at once, so that it is written
  // before anything offered after this returns (an announcement).
  bool offer_now(std::string_view line);

  [[nodiscard]] std::uint64_t dropped() const;

  // take_drop_report: once the queue has emptied after drops, how many since the last report (for
  // the caller to log); else 0. Lock-free while nothing was dropped.
  [[nodiscard]] std::uint64_t take_drop_report();

  // close: takes no more lines and waits up to `deadline` for the buffered ones to be written;
  // false when they were not (the descriptor is stuck), and the writing thread is then left
  // behind, blocked in write(2), to end with the process. Idempotent.
  bool close(std::chrono::milliseconds deadline);

 private:
  struct State;
  struct ThreadBuffer;
  // buffer_of_this_thread: this thread's buffer, made and registered on its first line.
  ThreadBuffer& buffer_of_this_thread();
  // hand_over: moves `lines` (a thread's buffer, its mutex held) to the queue; false when full.
  static bool hand_over(State& state, std::string& lines);
  // write_queued: the writing thread's loop, until closed and empty.
  static void write_queued(const std::shared_ptr<State>& state);

  std::shared_ptr<State> state_;  // shared with the writing thread, which may outlive *this
};

}  // namespace petstore::adapters::logging

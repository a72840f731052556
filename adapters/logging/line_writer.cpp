#include "adapters/logging/line_writer.hpp"

#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <pthread.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>

namespace petstore::adapters::logging {

struct LineWriter::State {
  const int fd;
  const std::size_t capacity;
  std::mutex mutex;
  std::condition_variable changed;
  std::string queued;        // lines offered and not yet taken by the writing thread
  std::size_t in_write = 0;  // bytes the writing thread has taken and not yet written
  bool closed = false;
  bool finished = false;  // the writing thread has ended
  std::atomic<std::uint64_t> dropped{0};
  std::uint64_t reported = 0;      // dropped lines already reported
  bool drained_since_drop = true;  // the queue emptied after the last drop

  State(int descriptor, std::size_t bytes) : fd(descriptor), capacity(bytes) {}
};

namespace {

// write_all: false when the descriptor fails for good (closed pipe, full disk): lines are then
// discarded rather than retried forever.
bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

}  // namespace

void LineWriter::write_queued(const std::shared_ptr<State>& state) {
  // A reader that has gone away must not end the process: with SIGPIPE blocked on this thread
  // (the only one that writes), such a write fails with EPIPE and its lines are dropped. The
  // signal stays pending on this thread, which is harmless, and the process's disposition of
  // SIGPIPE is left as it was (a data tool piped into `head` still ends quietly).
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
  std::string batch;
  std::unique_lock lock(state->mutex);
  for (;;) {
    state->changed.wait(lock, [&] { return !state->queued.empty() || state->closed; });
    if (state->queued.empty()) {
      break;  // closed, and everything written
    }
    batch.clear();
    std::swap(batch, state->queued);
    state->in_write = batch.size();
    lock.unlock();
    write_all(state->fd, batch);
    lock.lock();
    state->in_write = 0;
    if (state->queued.empty()) {
      state->drained_since_drop = true;
    }
    state->changed.notify_all();
  }
  state->finished = true;
  state->changed.notify_all();
}

LineWriter::LineWriter(int fd, std::size_t capacity)
    : state_(std::make_shared<State>(fd, capacity)) {
  // Detached from the start: close() decides whether to wait for it, and it holds the state.
  std::thread([state = state_] { write_queued(state); }).detach();
}

LineWriter::~LineWriter() { close(std::chrono::milliseconds(500)); }

bool LineWriter::offer(std::string_view line) {
  {
    const std::lock_guard lock(state_->mutex);
    if (!state_->closed &&
        state_->queued.size() + state_->in_write + line.size() <= state_->capacity) {
      state_->queued.append(line);
      state_->changed.notify_all();
      return true;
    }
    state_->drained_since_drop = false;
  }
  state_->dropped.fetch_add(1, std::memory_order_relaxed);
  return false;
}

std::uint64_t LineWriter::dropped() const {
  return state_->dropped.load(std::memory_order_relaxed);
}

std::uint64_t LineWriter::take_drop_report() {
  const std::uint64_t dropped = state_->dropped.load(std::memory_order_relaxed);
  const std::lock_guard lock(state_->mutex);
  if (dropped == state_->reported || !state_->drained_since_drop) {
    return 0;
  }
  const std::uint64_t count = dropped - state_->reported;
  state_->reported = dropped;
  return count;
}

bool LineWriter::close(std::chrono::milliseconds deadline) {
  std::unique_lock lock(state_->mutex);
  state_->closed = true;
  state_->changed.notify_all();
  return state_->changed.wait_for(lock, deadline, [&] { return state_->finished; });
}

}  // namespace petstore::adapters::logging

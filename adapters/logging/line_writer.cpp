#include "adapters/logging/line_writer.hpp"

#include <algorithm>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <pthread.h>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "adapters/files/durable_write.hpp"

namespace petstore::adapters::logging {

// ThreadBuffer: one thread's lines not yet handed to the writer. Its mutex is taken by its own
// thread for every line and by the writer when it collects: almost never contended.
struct LineWriter::ThreadBuffer {
  std::mutex mutex;
  std::string lines;
};

struct LineWriter::State {
  const int fd;
  const std::size_t capacity;
  const std::size_t hand_off;  // a thread's buffer goes to the writer once it holds this much
  // The active writer is woken before collect_every only once this much (an eighth of the queue)
  // waits: a wake-up per hand-over would take a serving thread's core each time.
  const std::size_t wake_at;
  const std::uint64_t id;  // tells this writer's buffers apart in a thread's cache
  std::mutex mutex;
  std::condition_variable changed;
  std::string queued;        // buffers handed over and not yet taken by the writing thread
  std::size_t in_write = 0;  // bytes the writing thread has taken and not yet written
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;  // every thread's that has offered a line
  std::atomic<bool> closed{false};
  bool finished = false;  // the writing thread has ended
  // The writer sleeps until woken when its last collection found nothing; the first line after
  // that wakes it (one wake-up per quiet spell, not one per line).
  std::atomic<bool> idle{false};
  std::atomic<std::uint64_t> dropped{0};
  std::atomic<std::uint64_t> reported{0};      // dropped lines already reported
  std::atomic<bool> drained_since_drop{true};  // the queue emptied after the last drop

  State(int descriptor, std::size_t bytes, std::uint64_t writer_id)
      : fd(descriptor),
        capacity(bytes),
        hand_off(std::clamp<std::size_t>(bytes / 4, 1, std::size_t{32} << 10)),
        wake_at(std::max<std::size_t>(bytes / 8, 1)),
        id(writer_id) {}
};

namespace {

std::atomic<std::uint64_t> next_writer_id{1};

}  // namespace

LineWriter::ThreadBuffer& LineWriter::buffer_of_this_thread() {
  // Each thread keeps its buffers, one per writer it has logged to; the writer in use is first.
  thread_local std::vector<std::pair<std::uint64_t, std::shared_ptr<ThreadBuffer>>> cache;
  if (!cache.empty() && cache.front().first == state_->id) {
    return *cache.front().second;
  }
  auto found = std::find_if(cache.begin(), cache.end(),
                            [this](const auto& entry) { return entry.first == state_->id; });
  if (found == cache.end()) {
    // Buffers of writers gone (held here alone) are let go as new ones come.
    std::erase_if(cache, [](const auto& entry) { return entry.second.use_count() == 1; });
    auto buffer = std::make_shared<ThreadBuffer>();
    {
      const std::lock_guard lock(state_->mutex);
      state_->buffers.push_back(buffer);
    }
    cache.emplace_back(state_->id, std::move(buffer));
    found = cache.end() - 1;
  }
  std::iter_swap(cache.begin(), found);
  return *cache.front().second;
}

bool LineWriter::hand_over(State& state, std::string& lines) {
  const std::lock_guard lock(state.mutex);
  if (state.queued.size() + state.in_write + lines.size() > state.capacity) {
    return false;
  }
  state.queued.append(lines);
  lines.clear();
  if (state.queued.size() >= state.wake_at || state.idle.load(std::memory_order_relaxed)) {
    state.idle.store(false, std::memory_order_relaxed);
    state.changed.notify_all();
  }
  return true;
}

bool LineWriter::offer(std::string_view line) {
  ThreadBuffer& buffer = buffer_of_this_thread();
  {
    const std::lock_guard lock(buffer.mutex);
    if (!state_->closed.load(std::memory_order_acquire)) {
      const bool fits = buffer.lines.size() + line.size() <= state_->hand_off ||
                        hand_over(*state_, buffer.lines) ||
                        buffer.lines.size() + line.size() <= state_->hand_off;
      if (fits && line.size() <= state_->capacity) {
        buffer.lines.append(line);
        if (state_->idle.load(std::memory_order_relaxed) &&
            state_->idle.exchange(false, std::memory_order_relaxed)) {
          // Taken so that the writer is waiting, not between its check and its wait.
          { const std::lock_guard wake(state_->mutex); }
          state_->changed.notify_all();
        }
        return true;
      }
    }
  }
  state_->drained_since_drop.store(false, std::memory_order_relaxed);
  state_->dropped.fetch_add(1, std::memory_order_relaxed);
  return false;
}

bool LineWriter::offer_now(std::string_view line) {
  const bool offered = offer(line);
  ThreadBuffer& buffer = buffer_of_this_thread();
  const std::lock_guard lock(buffer.mutex);
  if (!buffer.lines.empty()) {
    (void)hand_over(*state_, buffer.lines);  // when full, it goes at the next collection
  }
  return offered;
}

void LineWriter::write_queued(const std::shared_ptr<State>& state) {
  // A reader gone away must not end the process: with SIGPIPE blocked on this thread alone (the
  // only writer), the write fails with EPIPE. The process's disposition stays as it was (a data
  // tool piped into `head` still ends quietly).
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
  std::string batch;
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  bool found_lines = true;
  // collect: every thread's buffer joins the queue under the buffer's mutex, as its own hand-overs
  // do, so that a thread's lines keep their order. The queue may pass its capacity here: these
  // lines were already taken. Called without the state's mutex.
  const auto collect = [&] {
    for (const auto& buffer : buffers) {
      const std::lock_guard taken(buffer->mutex);
      if (!buffer->lines.empty()) {
        const std::lock_guard queue(state->mutex);
        state->queued.append(buffer->lines);
        buffer->lines.clear();
      }
    }
  };
  std::unique_lock lock(state->mutex);
  for (;;) {
    const auto more = [&] {
      return !state->queued.empty() || state->closed.load(std::memory_order_acquire) ||
             !state->idle.load(std::memory_order_relaxed);
    };
    if (found_lines) {
      state->changed.wait_for(lock, collect_every, [&] {
        return state->queued.size() >= state->wake_at ||
               state->closed.load(std::memory_order_acquire);
      });
    } else {
      // Idle from here: a later line wakes the writer (offer() reads `idle` under its buffer's
      // mutex, which collect() takes after this store). One offered since the last collection
      // woke no one, so the buffers are looked at once more before the wait.
      state->idle.store(true, std::memory_order_relaxed);
      buffers = state->buffers;
      lock.unlock();
      collect();
      lock.lock();
      state->changed.wait(lock, more);
      state->idle.store(false, std::memory_order_relaxed);
    }
    const bool closing = state->closed.load(std::memory_order_acquire);
    buffers = state->buffers;
    lock.unlock();
    collect();
    lock.lock();
    batch.clear();
    std::swap(batch, state->queued);
    found_lines = !batch.empty();
    state->in_write = batch.size();
    lock.unlock();
    if (found_lines) {
      // A failed batch (closed pipe, full disk) is discarded, not retried forever.
      (void)files::write_all(state->fd, batch);
    }
    lock.lock();
    state->in_write = 0;
    if (state->queued.empty()) {
      state->drained_since_drop.store(true, std::memory_order_relaxed);
    }
    state->changed.notify_all();
    if (closing && !found_lines && state->queued.empty()) {
      break;  // closed, and everything written
    }
  }
  state->finished = true;
  state->changed.notify_all();
}

LineWriter::LineWriter(int fd, std::size_t capacity)
    : state_(std::make_shared<State>(fd, capacity, next_writer_id.fetch_add(1))) {
  // Detached from the start: close() decides whether to wait for it, and it holds the state.
  std::thread([state = state_] { write_queued(state); }).detach();
}

LineWriter::~LineWriter() { close(std::chrono::milliseconds(500)); }

std::uint64_t LineWriter::dropped() const {
  return state_->dropped.load(std::memory_order_relaxed);
}

std::uint64_t LineWriter::take_drop_report() {
  const std::uint64_t dropped = state_->dropped.load(std::memory_order_relaxed);
  if (dropped == state_->reported.load(std::memory_order_relaxed)) {
    return 0;  // the common case: no lock
  }
  const std::lock_guard lock(state_->mutex);
  const std::uint64_t reported = state_->reported.load(std::memory_order_relaxed);
  if (dropped == reported || !state_->drained_since_drop.load(std::memory_order_relaxed)) {
    return 0;
  }
  state_->reported.store(dropped, std::memory_order_relaxed);
  return dropped - reported;
}

bool LineWriter::close(std::chrono::milliseconds deadline) {
  std::unique_lock lock(state_->mutex);
  state_->closed.store(true, std::memory_order_release);
  state_->changed.notify_all();
  return state_->changed.wait_for(lock, deadline, [&] { return state_->finished; });
}

}  // namespace petstore::adapters::logging

#include "adapters/storage/postgres/postgres_event_loop.hpp"

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <poll.h>
#include <stdexcept>
#include <sys/eventfd.h>
#include <unistd.h>
#include <utility>

namespace petstore::adapters::storage::postgres {
namespace {

thread_local bool is_loop_thread = false;

}  // namespace

EventLoop::EventLoop(EveryTick every_tick)
    : every_tick_(std::move(every_tick)), wake_fd_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (wake_fd_ < 0) {
    throw std::runtime_error("eventfd failed");
  }
}

EventLoop::~EventLoop() {
  stop();
  if (thread_.joinable()) {
    thread_.join();
  }
  close(wake_fd_);
}

void EventLoop::start() {
  thread_ = std::thread([this] { run(); });
}

void EventLoop::post(std::function<void()> task) {
  {
    const std::lock_guard lock(tasks_mutex_);
    if (stopping_) {
      return;
    }
    tasks_.push_back(std::move(task));
  }
  wake();
}

void EventLoop::stop() {
  {
    const std::lock_guard lock(tasks_mutex_);
    stopping_ = true;
  }
  wake();
}

void EventLoop::wake() const {
  const std::uint64_t one = 1;
  (void)!write(wake_fd_, &one, sizeof one);  // a full counter already wakes the loop
}

bool EventLoop::on_loop_thread() { return is_loop_thread; }

void EventLoop::run() {
  is_loop_thread = true;
  std::vector<pollfd> fds;
  std::vector<LoopClient*> polled;
  std::vector<std::function<void()>> tasks;
  for (;;) {
    bool stopping = false;
    {
      const std::lock_guard lock(tasks_mutex_);
      stopping = stopping_;
      tasks.swap(tasks_);
    }
    for (auto& task : tasks) {
      task();
    }
    tasks.clear();
    if (stopping) {
      return;  // the tasks posted before stop() have run: each answers its calls
    }
    auto now = Clock::now();
    auto wake_at = now + tick;
    if (every_tick_) {
      wake_at = std::min(wake_at, every_tick_(now));
    }
    fds.assign(1, pollfd{wake_fd_, POLLIN, 0});
    polled.clear();
    for (auto* client : clients_) {
      client->on_tick(now);
      wake_at = std::min(wake_at, client->next_tick());
      const int fd = client->socket();
      const auto events = static_cast<short>((client->wants_read() ? POLLIN : 0) |
                                             (client->wants_write() ? POLLOUT : 0));
      if (fd >= 0 && events != 0) {
        fds.push_back(pollfd{fd, events, 0});
        polled.push_back(client);
      }
    }
    // ppoll: a wait for company lasts about one commit, often under a millisecond.
    const auto wait = std::max(Clock::duration::zero(), wake_at - Clock::now());
    const auto seconds = std::chrono::floor<std::chrono::seconds>(wait);
    const timespec timeout{
        static_cast<decltype(timespec::tv_sec)>(seconds.count()),
        static_cast<decltype(timespec::tv_nsec)>(std::chrono::nanoseconds(wait - seconds).count())};
    const int ready = ppoll(fds.data(), fds.size(), &timeout, nullptr);
    if (ready <= 0) {
      continue;  // a timeout or EINTR: the next turn runs the ticks
    }
    if ((fds[0].revents & POLLIN) != 0) {
      std::uint64_t count = 0;
      (void)!read(wake_fd_, &count, sizeof count);
    }
    for (std::size_t i = 1; i < fds.size(); ++i) {
      const auto revents = fds[i].revents;
      if (revents != 0) {
        // An error or hang-up counts as readable: libpq's next read reports what happened.
        polled[i - 1]->on_socket((revents & (POLLIN | POLLERR | POLLHUP)) != 0,
                                 (revents & POLLOUT) != 0);
      }
    }
  }
}

}  // namespace petstore::adapters::storage::postgres

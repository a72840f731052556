#include "bootstrap/stop_signals.hpp"

#include <csignal>
#include <cstdlib>
#include <ctime>
#include <pthread.h>
#include <utility>

namespace petstore::bootstrap {
namespace {

sigset_t handled_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGHUP);
  return signals;
}

// Blocks the signals before the thread starts, so that it inherits the mask too.
std::function<void()> blocked_then_exit() {
  const sigset_t signals = handled_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return [] { std::_Exit(0); };
}

}  // namespace

StopSignals::StopSignals()
    : exit_now_(blocked_then_exit()),
      thread_([this](const std::stop_token& quit) { listen(quit); }) {}

void StopSignals::on_exit_now(std::function<void()> exit_now) {
  const std::lock_guard lock(mutex_);
  exit_now_ = std::move(exit_now);
}

StopSignals::~StopSignals() = default;  // the jthread asks listen() to end and joins it

void StopSignals::on_reload(std::function<void()> reload) {
  const std::lock_guard lock(mutex_);
  reload_ = std::move(reload);
  if (reload_ && std::exchange(reload_pending_, false) && !stop_.stop_requested()) {
    reload_();
  }
}

void StopSignals::wait_for_stop() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return stop_.stop_requested(); });
}

bool StopSignals::wait_for_another_until(Clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  waiting_for_another_ = true;
  changed_.wait_until(lock, deadline, [this] { return another_came_; });
  waiting_for_another_ = false;
  return another_came_;
}

void StopSignals::listen(const std::stop_token& quit) {
  const sigset_t signals = handled_signals();
  // sigtimedwait's timeout lets the destructor end this loop without a signal of its own.
  const timespec tick{0, 100'000'000};
  while (!quit.stop_requested()) {
    const int signal_number = sigtimedwait(&signals, nullptr, &tick);
    if (signal_number == SIGINT || signal_number == SIGTERM) {
      on_stop_signal();
    } else if (signal_number == SIGHUP) {
      const std::lock_guard lock(mutex_);
      if (stop_.stop_requested()) {
        continue;
      }
      if (reload_) {
        reload_();
      } else {
        reload_pending_ = true;
      }
    }
  }
}

void StopSignals::on_stop_signal() {
  std::function<void()> exit_now;
  {
    const std::lock_guard lock(mutex_);
    if (!stop_.stop_requested()) {
      stop_.request_stop();
      changed_.notify_all();
      return;
    }
    if (waiting_for_another_ && !another_came_) {
      another_came_ = true;
      changed_.notify_all();
      return;
    }
    exit_now = exit_now_;
  }
  exit_now();
}

}  // namespace petstore::bootstrap

#include "bootstrap/reload_worker.hpp"

#include <utility>

namespace petstore::bootstrap {

ReloadWorker::ReloadWorker(std::function<void()> reload)
    : state_(std::make_shared<State>()),
      thread_([state = state_, reload = std::move(reload)] { run(state, reload); }) {}

ReloadWorker::~ReloadWorker() {
  if (thread_.joinable()) {
    static_cast<void>(stop());
  }
}

void ReloadWorker::run(const std::shared_ptr<State>& state, const std::function<void()>& reload) {
  std::unique_lock lock(state->mutex);
  for (;;) {
    state->changed.wait(lock, [&] { return state->requested || state->stopping; });
    if (state->stopping) {
      return;
    }
    state->requested = false;  // requests from now on ask for one more reload after this one
    state->running = true;
    lock.unlock();
    reload();
    lock.lock();
    state->running = false;
  }
}

void ReloadWorker::request() {
  {
    const std::lock_guard lock(state_->mutex);
    state_->requested = true;
  }
  state_->changed.notify_one();
}

bool ReloadWorker::stop() {
  bool idle = false;
  {
    const std::lock_guard lock(state_->mutex);
    state_->stopping = true;
    idle = !state_->running;
  }
  state_->changed.notify_one();
  if (idle) {
    thread_.join();  // it was waiting, or about to: it sees `stopping` and returns
  } else {
    thread_.detach();
  }
  return idle;
}

}  // namespace petstore::bootstrap

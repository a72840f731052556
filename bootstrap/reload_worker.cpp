#include "bootstrap/reload_worker.hpp"

#include <optional>
#include <stop_token>
#include <utility>

namespace petstore::bootstrap {

ReloadWorker::ReloadWorker(std::function<void()> reload)
    : shared_(std::make_shared<Shared>(std::move(reload))) {}

ReloadWorker::~ReloadWorker() { static_cast<void>(stop()); }  // once stopped, does nothing

void ReloadWorker::request() {
  adapters::worker::BackgroundWorker::Job job{
      [shared = shared_](const std::stop_token&) {
        shared->queued = false;  // requests from now on queue one more reload after this one
        shared->reload();
        return std::optional<adapters::worker::BackgroundWorker::Clock::time_point>();
      },
      {}};
  if (shared_->queued.exchange(true)) {
    return;  // the queued one has not started: it reloads after this request too
  }
  try {
    static_cast<void>(worker_.post(std::move(job)));
  } catch (...) {
    shared_->queued = false;  // nothing queued: the next request must queue one
    throw;
  }
}

bool ReloadWorker::stop() { return worker_.close_without_waiting(); }

}  // namespace petstore::bootstrap

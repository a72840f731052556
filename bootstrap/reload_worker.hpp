#pragma once
// ReloadWorker: runs the SIGHUP reload (key file, TLS certificate) on a background worker of its
// own, so that the thread waiting for signals never reads a file and always answers SIGINT and
// SIGTERM at once, however slow the read. Requests made while a reload runs are coalesced into one
// more reload after it: the last request is always followed by a reload that started after it.

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

#include "adapters/worker/background_worker.hpp"

namespace petstore::bootstrap {

class ReloadWorker {
 public:
  // `reload` runs on the worker's thread, one call at a time.
  explicit ReloadWorker(std::function<void()> reload);
  ReloadWorker(const ReloadWorker&) = delete;
  ReloadWorker& operator=(const ReloadWorker&) = delete;
  // Stops as stop() does, if it has not been stopped.
  ~ReloadWorker();

  // request: asks for a reload and returns at once, never waiting for one in progress.
  void request();

  // stop: no reload starts after this. True when none was running; false when one still was: it
  // is left to finish on its own, and whatever `reload` uses must outlive it (for the caller:
  // exit without destroying those objects). Never waits for a reload in progress.
  [[nodiscard]] bool stop();

 private:
  // Shared with the jobs, which a stop() may leave running after this object is gone.
  struct Shared {
    explicit Shared(std::function<void()> reload_function) : reload(std::move(reload_function)) {}

    std::function<void()> reload;
    std::atomic<bool> queued{false};  // a reload is queued that has not started
  };

  std::shared_ptr<Shared> shared_;
  adapters::worker::BackgroundWorker worker_;
  bool stopped_ = false;
};

}  // namespace petstore::bootstrap

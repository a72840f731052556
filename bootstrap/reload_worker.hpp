#pragma once
// ReloadWorker: runs the SIGHUP reload (key file, TLS certificate) on a worker of its own, so that
// the signal thread never reads a file (docs/decisions/signals-and-reloads.md). Requests made while
// a reload runs are coalesced into one more, so the last is followed by a reload begun after it.

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
  ~ReloadWorker();  // stop()s

  // request: asks for a reload and returns at once, never waiting for one in progress.
  void request();

  // stop: no reload starts after this; never waits. False when one still runs: whatever `reload`
  // uses must outlive it (the caller exits without destroying those objects).
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
};

}  // namespace petstore::bootstrap

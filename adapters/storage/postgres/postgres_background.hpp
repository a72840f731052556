#pragma once
// BackgroundWorker: the adapter's one thread for work that waits on the database outside the poll
// loops, which must never wait: keeping the schema (tried again until it is ready) and resolving
// create batches whose COMMIT's answer was lost. Jobs run one at a time, each when it is due, with
// the worker's stop token; a job may ask to run again later. Closing stops the job under way
// (through the token: every blocking step of BlockingSession looks at it within a poll slice) and
// drops the others, each told so, that it answer its callers. Thread-safe.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>

namespace petstore::adapters::storage::postgres {

class BackgroundWorker {
 public:
  using Clock = std::chrono::steady_clock;

  // Job: `run` does a step and says when to run again (nullopt: done); `dropped` runs instead
  // when the worker closes first.
  struct Job {
    std::function<std::optional<Clock::time_point>(const std::stop_token&)> run;
    std::function<void()> dropped;
  };

  BackgroundWorker();
  BackgroundWorker(const BackgroundWorker&) = delete;
  BackgroundWorker& operator=(const BackgroundWorker&) = delete;
  ~BackgroundWorker();  // close()s

  // post: runs `job` once `at` has come (now by default); false, and nothing run or dropped, when
  // the worker is closed.
  [[nodiscard]] bool post(Job job, Clock::time_point at = Clock::time_point::min());
  // close: stops the job under way, waits for it, and drops the rest. Idempotent.
  void close();

 private:
  void work(const std::stop_token& stop);

  std::mutex mutex_;
  std::condition_variable_any changed_;
  std::multimap<Clock::time_point, Job> jobs_;  // by when each is due
  bool closed_ = false;
  std::jthread thread_;  // last: started once the rest is set
};

}  // namespace petstore::adapters::storage::postgres

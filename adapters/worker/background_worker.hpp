#pragma once
// BackgroundWorker: one thread for work that may block (PostgreSQL's schema keeping and commits in
// doubt, the SIGHUP reload), kept off the threads that must never wait. Jobs run one at a time,
// each when due, with the worker's stop token. Closing stops the job under way through the token
// and drops the others, each told so, that it answer its callers. Thread-safe.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>

namespace petstore::adapters::worker {

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
  // close: stops the job under way, waits for it, and drops the rest. Only the first close (of
  // either kind) does anything; a later one returns at once.
  void close();
  // close_without_waiting: as close(), but a job under way (one that cannot heed the token, on a
  // hung file system) is left to finish on the detached thread; what it uses, and its `dropped`,
  // must outlive it. True when no job was under way (a later call: the first close's answer).
  [[nodiscard]] bool close_without_waiting();

 private:
  // State: shared with the thread, which a close_without_waiting() may leave behind this object.
  struct State {
    std::mutex mutex;
    std::condition_variable_any changed;
    std::multimap<Clock::time_point, Job> jobs;  // by when each is due
    bool closed = false;
    bool running = false;   // a job is under way
    bool job_left = false;  // close_without_waiting left one under way
  };
  static void work(State& state, const std::stop_token& stop);
  // close_leaving: close(), or with `leave` close_without_waiting().
  bool close_leaving(bool leave);

  std::shared_ptr<State> state_;
  std::jthread thread_;  // last: started once the rest is set
};

}  // namespace petstore::adapters::worker

#pragma once
// StopSignals: SIGINT, SIGTERM and SIGHUP, taken by a thread of their own from the moment this is
// made (blocked in the making thread and every thread it starts later), so that a stop is heard
// whatever the main thread waits on (docs/decisions/signals-and-reloads.md). Make it in the main
// thread before any other thread starts.
// - The first SIGINT or SIGTERM requests the stop (stop_token(), wait_for_stop()).
// - A further one ends wait_for_another_until(), or else calls on_exit_now's function on the
//   signal thread, which must end the process (by default: exit 0 at once).
// - SIGHUP calls on_reload's function, never after a stop; one that comes while none is set is
//   kept for on_reload() to run.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>

namespace petstore::bootstrap {

class StopSignals {
 public:
  using Clock = std::chrono::steady_clock;

  StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  ~StopSignals();  // stops listening (the signals stay blocked)

  // stop_token: requested once the first stop signal has come.
  [[nodiscard]] std::stop_token stop_token() const { return stop_.get_token(); }
  // on_exit_now: what a further stop signal does; it must end the process.
  void on_exit_now(std::function<void()> exit_now);
  // on_reload: what SIGHUP does from now on (empty: nothing). Runs on the signal thread, or here
  // at once for a SIGHUP kept while none was set.
  void on_reload(std::function<void()> reload);
  // wait_for_stop: until the first stop signal.
  void wait_for_stop();
  // wait_for_another_until: until a further stop signal (true) or `deadline` (false).
  [[nodiscard]] bool wait_for_another_until(Clock::time_point deadline);

 private:
  void listen(const std::stop_token& quit);
  void on_stop_signal();

  std::function<void()> exit_now_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> reload_;
  bool reload_pending_ = false;  // a SIGHUP came while reload_ was empty
  std::stop_source stop_;
  bool waiting_for_another_ = false;
  bool another_came_ = false;
  std::jthread thread_;  // last: started once the rest is set
};

}  // namespace petstore::bootstrap

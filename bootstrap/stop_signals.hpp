#pragma once
// StopSignals: SIGINT, SIGTERM and SIGHUP, taken by a thread of their own from the moment this
// is made (they are blocked in the making thread, and so in every thread it starts later), so
// that a stop is heard whatever the main thread is waiting on: storage opening, serving,
// draining or closing (contract sections 7 and 11).
// - The first SIGINT or SIGTERM requests the stop: stop_token() says so, wait_for_stop() returns.
// - A further one during wait_for_another_until() ends that wait (it skips the drain delay).
// - Any further one otherwise calls the function set by on_exit_now(), on the signal thread,
//   which must end the process (by default: exit 0 at once).
// - SIGHUP calls the reload set by on_reload(); never after a stop was requested. One that comes
//   while no reload is set is kept, and on_reload() runs it: a SIGHUP sent just after the
//   listening line (before serving set its reload) is not lost.
// Make it before any other thread starts, in the main thread.

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
  // on_exit_now: what a further stop signal does (see above); it must end the process.
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

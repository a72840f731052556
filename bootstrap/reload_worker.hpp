#pragma once
// ReloadWorker: runs the SIGHUP reload (key file, TLS certificate) on a thread of its own, so that
// the thread waiting for signals never reads a file and always answers SIGINT and SIGTERM at once,
// however slow the read. Requests made while a reload runs are coalesced into one more reload
// after it: the last request is always followed by a reload that started after it.

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace petstore::bootstrap {

class ReloadWorker {
 public:
  // Starts the thread. `reload` runs on it, one call at a time.
  explicit ReloadWorker(std::function<void()> reload);
  ReloadWorker(const ReloadWorker&) = delete;
  ReloadWorker& operator=(const ReloadWorker&) = delete;
  // Stops as stop() does, if it has not been stopped.
  ~ReloadWorker();

  // request: asks for a reload and returns at once, never waiting for one in progress.
  void request();

  // stop: no reload starts after this. Returns true when the thread has ended, having been idle;
  // false when a reload was still running: the thread is then left to finish it on its own
  // (detached), and whatever `reload` uses must outlive it, for the caller that means: exit
  // without destroying those objects. Never waits for a reload in progress.
  [[nodiscard]] bool stop();

 private:
  struct State {
    std::mutex mutex;
    std::condition_variable changed;
    bool requested = false;
    bool running = false;
    bool stopping = false;
  };

  static void run(const std::shared_ptr<State>& state, const std::function<void()>& reload);

  std::shared_ptr<State> state_;  // shared with the thread, which may outlive this object
  std::thread thread_;
};

}  // namespace petstore::bootstrap

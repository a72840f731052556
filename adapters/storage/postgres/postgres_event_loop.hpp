#pragma once
// EventLoop: one adapter thread that waits on its connections' sockets with ppoll(2), which is
// level-triggered (docs/decisions/poll-loops-not-asio.md), and runs tasks other threads post. A
// connection lives on its loop's thread, so it needs no lock of its own.

#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace petstore::adapters::storage::postgres {

// LoopClient: what a loop drives. Called on the loop's thread only.
class LoopClient {
 public:
  virtual ~LoopClient() = default;

  // The socket to watch (-1: none) and whether to watch it for reading and for writing.
  [[nodiscard]] virtual int socket() const = 0;
  [[nodiscard]] virtual bool wants_read() const = 0;
  [[nodiscard]] virtual bool wants_write() const = 0;
  // When on_tick must run next at the latest (a deadline, a reconnect), if ever.
  [[nodiscard]] virtual std::chrono::steady_clock::time_point next_tick() const = 0;
  virtual void on_socket(bool readable, bool writable) = 0;
  virtual void on_tick(std::chrono::steady_clock::time_point now) = 0;
};

class EventLoop {
 public:
  using Clock = std::chrono::steady_clock;

  // EveryTick: runs on the loop thread each turn, at least every `tick` (the pool expires queued
  // calls and ends waits for company); returns when it must run next at the latest.
  using EveryTick = std::function<Clock::time_point(Clock::time_point now)>;

  explicit EventLoop(EveryTick every_tick = {});
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;
  ~EventLoop();  // stops and joins the thread

  // add: `client` is driven from now on; call before start().
  void add(LoopClient& client) { clients_.push_back(&client); }
  void start();
  // post: runs `task` on the loop thread soon. Safe from any thread; ignored after stop().
  void post(std::function<void()> task);
  // stop: the thread runs the tasks posted so far, then ends.
  void stop();
  // wake: the loop runs a turn soon (its every_tick included). Safe from any thread.
  void wake() const;

  // on_loop_thread: whether the calling thread is some loop's, where nothing may block.
  [[nodiscard]] static bool on_loop_thread();

  static constexpr std::chrono::milliseconds tick{50};

 private:
  void run();

  std::vector<LoopClient*> clients_;
  EveryTick every_tick_;
  int wake_fd_ = -1;  // an eventfd: written by post() and stop()
  std::mutex tasks_mutex_;
  std::vector<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace petstore::adapters::storage::postgres

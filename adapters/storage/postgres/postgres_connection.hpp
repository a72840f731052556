#pragma once
// Connection: one libpq connection driven asynchronously on an EventLoop: connects without
// blocking (PQconnectStartParams/PQconnectPoll), turns synchronous commit on for its session,
// then runs Work in pipeline mode: every statement of the works it is handed goes out at once,
// and results are read as the socket delivers them. A lost connection fails its works with
// unavailable (but a create batch whose COMMIT was answered is done, and one whose COMMIT's
// answer never came goes to its in_doubt handler), tells its host, and reconnects by itself
// after a growing pause.

#include <chrono>
#include <cstddef>
#include <deque>
#include <libpq-fe.h>
#include <optional>
#include <string>
#include <vector>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_event_loop.hpp"
#include "adapters/storage/postgres/postgres_work.hpp"

namespace petstore::adapters::storage::postgres {

class Connection;

// ConnectionHost: the pool, told of a connection's changes on the connection's loop thread.
class ConnectionHost {
 public:
  ConnectionHost() = default;
  ConnectionHost(const ConnectionHost&) = delete;
  ConnectionHost& operator=(const ConnectionHost&) = delete;
  virtual ~ConnectionHost() = default;

  // connection_up: connected and set up; idle from now on.
  virtual void connection_up(Connection& connection) = 0;
  // connection_idle: every work it was handed has finished.
  virtual void connection_idle(Connection& connection) = 0;
  // connection_down: an attempt to connect failed (was_up false) or an open connection was lost
  // (was_up true); `reason` carries no password. It retries by itself.
  virtual void connection_down(Connection& connection, const std::string& reason, bool was_up) = 0;
};

class Connection final : public LoopClient {
 public:
  using Clock = std::chrono::steady_clock;

  Connection(ConnectionHost& host, EventLoop& loop, const ConnectTarget& target);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection() override;

  [[nodiscard]] EventLoop& loop() const { return loop_; }
  // recovering: attempts failed or the connection was lost since it was last up.
  [[nodiscard]] bool recovering() const { return failed_since_up_; }

  // run: sends `works` (on the loop thread). A connection lost meanwhile fails them at once.
  void run(std::vector<Work> works);
  // drop: closes the connection as lost, for `reason`; it reconnects after the pause.
  void drop(const std::string& reason);

  // LoopClient
  [[nodiscard]] int socket() const override;
  // LoopClient
  [[nodiscard]] bool wants_read() const override;
  // LoopClient
  [[nodiscard]] bool wants_write() const override;
  // LoopClient
  [[nodiscard]] Clock::time_point next_tick() const override;
  // LoopClient
  void on_socket(bool readable, bool writable) override;
  // LoopClient
  void on_tick(Clock::time_point now) override;

 private:
  enum class State { down, connecting, setting_up, idle, busy };

  void begin_connect(Clock::time_point now);
  void continue_connect();
  void send(Work work);
  void flush();
  void read_results();
  void finish_front_work();
  void fail(const std::string& reason);
  [[nodiscard]] std::string libpq_error() const;

  ConnectionHost& host_;
  EventLoop& loop_;
  const ConnectTarget& target_;
  ConnPtr conn_;
  State state_ = State::down;
  PostgresPollingStatusType poll_status_ = PGRES_POLLING_WRITING;
  Clock::time_point retry_at_{};  // when down: the next attempt
  Clock::time_point connect_deadline_{};
  std::chrono::milliseconds pause_{0};  // before the next attempt; grows while attempts fail
  bool flushing_ = false;
  bool failed_since_up_ = false;
  std::deque<Work> works_;  // sent, in order; the front one is being answered
  std::size_t statement_index_ = 0;
  std::vector<ResultPtr> results_;
  std::optional<domain::Error> front_error_;
};

}  // namespace petstore::adapters::storage::postgres

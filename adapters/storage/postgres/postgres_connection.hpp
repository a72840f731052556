#pragma once
// Connection: one libpq connection in pipeline mode, driven without blocking on an EventLoop. It
// tries the target's hosts in turn, pausing longer after each failed round; once lost, it fails
// its works (a commit work goes in doubt: Work::in_doubt), tells its pool, and reconnects.

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

class Pool;  // told of each connection's changes, on the connection's loop thread

class Connection final : public LoopClient {
 public:
  using Clock = std::chrono::steady_clock;

  Connection(Pool& pool, EventLoop& loop, const ConnectTarget& target);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection() override;

  [[nodiscard]] EventLoop& loop() const { return loop_; }
  // recovering: attempts failed or the connection was lost since it was last up.
  [[nodiscard]] bool recovering() const { return failed_since_up_; }
  // host: the index in the target of the host it is connected to, or trying.
  [[nodiscard]] std::size_t host() const { return host_index_; }

  // run: sends `works` (on the loop thread). A connection lost meanwhile fails them at once.
  void run(std::vector<Work> works);
  // drop: closes the connection as lost, for `reason`; it reconnects after the pause.
  void drop(const std::string& reason);

  // LoopClient
  [[nodiscard]] int socket() const override;
  [[nodiscard]] bool wants_read() const override;
  [[nodiscard]] bool wants_write() const override;
  [[nodiscard]] Clock::time_point next_tick() const override;
  void on_socket(bool readable, bool writable) override;
  void on_tick(Clock::time_point now) override;

 private:
  enum class State { down, connecting, setting_up, idle, busy };

  void attempt_host(Clock::time_point now);
  // host_failed: the attempt on the current host failed; the next host is tried at once unless
  // it was the last (or `try_next` is false), and then the pause begins.
  void host_failed(const std::string& reason, bool try_next = true);
  void continue_connect();
  // forget_session: the libpq connection and what was read on it are gone (its works are not).
  void forget_session();
  // pause_before_retry: down, until the pause (grown) is over.
  void pause_before_retry();
  void send(Work work);
  void flush();
  void read_results();
  void finish_front_work();
  // fail: the open connection is lost for `reason` (before it is up: the host failed instead).
  void fail(const std::string& reason, bool silent = false);
  [[nodiscard]] std::string libpq_error() const;
  // on_notice: libpq's notice receiver. A WARNING while a commit work is answered puts that
  // work in doubt: a COMMIT whose wait for the synchronous standbys was cut short (a cancel, a
  // statement_timeout) commits on the primary only, warns, and still answers COMMIT.
  static void on_notice(void* self, const PGresult* notice);

  Pool& pool_;
  EventLoop& loop_;
  const ConnectTarget& target_;
  ConnPtr conn_;
  State state_ = State::down;
  PostgresPollingStatusType poll_status_ = PGRES_POLLING_WRITING;
  Clock::time_point retry_at_{};  // when down: the next attempt
  Clock::time_point connect_deadline_{};
  std::size_t host_index_ = 0;
  std::chrono::milliseconds pause_{0};  // before the next attempt; grows while attempts fail
  bool flushing_ = false;
  bool failed_since_up_ = false;
  std::deque<Work> works_;  // sent, in order; the front one is being answered
  std::size_t statement_index_ = 0;
  std::vector<ResultPtr> results_;
  std::optional<domain::Error> front_error_;
  std::optional<std::string> front_warning_;  // a WARNING while a commit work was answered
  std::optional<std::string> setup_refused_;  // why the server refused the session's set-up
};

}  // namespace petstore::adapters::storage::postgres

#pragma once
// Pool: the adapter's connections, spread over a few EventLoops, and the calls waiting for one:
// queued reads share a pipeline, creates are group-committed (BatchScheduler). A call made while
// no connection works, or before the schema is ready, fails at once with unavailable.

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "adapters/storage/postgres/postgres_commit_resolver.hpp"
#include "adapters/storage/postgres/postgres_connection.hpp"
#include "adapters/storage/postgres/postgres_create_batch.hpp"
#include "adapters/storage/postgres/postgres_event_loop.hpp"
#include "adapters/storage/postgres/postgres_observer.hpp"
#include "adapters/storage/postgres/postgres_work.hpp"

namespace petstore::adapters::storage::postgres {

// PoolHealth: whether a pool is available (what /readyz says) and when it probes the database,
// traffic or not (docs/decisions/postgres-readiness-probe.md). After an unanswered probe the pool
// reports itself unavailable, though calls are still tried. Not thread-safe: the pool locks it.
class PoolHealth {
 public:
  using Clock = std::chrono::steady_clock;

  // /readyz turns 503 within about their sum of the database ceasing to answer.
  static constexpr auto probe_interval = std::chrono::seconds(1);
  static constexpr auto probe_timeout = std::chrono::seconds(2);

  // take_probe: true when a probe is due now on a pool that serves (`serving`); it is then out
  // until probe_answered.
  [[nodiscard]] bool take_probe(Clock::time_point now, bool serving) {
    if (probing_ || !serving || now < next_probe_at_) {
      return false;
    }
    probing_ = true;
    return true;
  }
  void probe_answered(bool answered, Clock::time_point now) {
    probing_ = false;
    answering_ = answered;
    next_probe_at_ = now + probe_interval;
  }
  // connected: a connection has just connected and answered its set-up: the database answers.
  void connected() { answering_ = true; }
  // change: the pool's availability, when it differs from the one last returned; else nullopt.
  [[nodiscard]] std::optional<bool> change(bool connection_open, bool schema_ready, bool closing) {
    const bool available = connection_open && schema_ready && answering_ && !closing;
    if (available == reported_available_) {
      return std::nullopt;
    }
    reported_available_ = available;
    return available;
  }

 private:
  bool answering_ = true;  // the last probe's verdict (true until one fails)
  bool probing_ = false;
  Clock::time_point next_probe_at_{};
  bool reported_available_ = false;
};

struct PoolSettings {
  ConnectTarget target;
  std::size_t size = 2;                  // spread over one or two loops
  PostgresObserver* observer = nullptr;  // required; must outlive the pool
  // Where batches whose COMMIT's answer was lost are resolved (must outlive the pool); none: such
  // a batch is answered unavailable (a pool that takes no creates: a replica's).
  BackgroundWorker* worker = nullptr;
  // Whether the schema is known to be ready; else calls fail until schema_ready().
  bool schema_ready = false;
  // A client the first loop also ticks (ReplicaReads' position gathering); must outlive the loops.
  LoopClient* ticked = nullptr;
};

class Pool final {
 public:
  using Clock = std::chrono::steady_clock;

  // Most queued reads one connection takes at once.
  static constexpr std::size_t max_pipelined_reads = 16;
  explicit Pool(PoolSettings settings);
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool();  // close()s

  // read, create: the call goes to an idle connection, or waits (a create for the next batch).
  void read(Work work);
  void create(PendingCreate create);
  // schema_ready: the schema has been created or migrated; calls are served from now on.
  void schema_ready();
  // wake: the first loop runs a turn soon (for the ticked client); from any thread.
  void wake();
  // close: answers every call unavailable, queued or in flight (a stop has answered or given up
  // on its requests by now), closes the connections and stops the threads; waits for no database.
  void close();

  // A connection's changes, told on its loop thread (postgres_pool_connections.cpp).
  // connection_up: connected and set up; idle from now on.
  void connection_up(Connection& connection);
  // connection_idle: every work it was handed has finished.
  void connection_idle(Connection& connection);
  // connect_failed: the attempt on the connection's host() failed; `round_over` when it was the
  // target's last host (the connection then pauses before the first again).
  void connect_failed(Connection& connection, const std::string& reason, bool round_over);
  // connection_lost: an open connection broke; `silent` when a probe it carried went unanswered
  // past its deadline (a frozen server, which the host's other connections share).
  void connection_lost(Connection& connection, const std::string& reason, bool silent);

 private:
  // Assignment: the works to post to an idle connection, and creates given up on meanwhile
  // (to answer unavailable once the lock is let go).
  struct Assignment {
    Connection* connection;
    std::vector<Work> works;
    std::vector<PendingCreate> given_up;
  };
  // Unanswered: calls taken out under the lock, answered unavailable (`reason`) after it.
  struct Unanswered {
    std::vector<Work> reads;
    std::vector<PendingCreate> creates;
    const char* reason = "";
    void answer();
  };

  template <class Call>
  void submit(Call call);
  // no_connection_works_locked: the last open connection is gone, or the first attempts fail:
  // nothing serves the queued calls, and new ones fail at once until a connection is up again.
  void no_connection_works_locked(Unanswered& answers);
  // refusal_locked: why a new call fails at once, or null when it is taken.
  [[nodiscard]] const char* refusal_locked() const;
  void dispatch_locked(std::vector<Assignment>& assignments);
  void writer_done(Clock::time_point started, std::size_t creates);
  static void post(std::vector<Assignment>& assignments);
  // on_tick (the first loop's, every turn): expires queued calls, dispatches a batch whose wait
  // for company is over, and returns when it must run next.
  Clock::time_point on_tick(Clock::time_point now);
  void take_due_locked(Clock::time_point now, Unanswered& answers, const char* reason);
  void report_pool_locked() const;
  // probe_locked: queues a probe, first in line, when one is due.
  void probe_locked(Clock::time_point now, std::vector<Assignment>& assignments);
  void probe_answered(bool answered);
  // availability_change_locked: PoolHealth::change, to report once the lock is let go.
  [[nodiscard]] std::optional<bool> availability_change_locked();
  void report_availability(std::optional<bool> change) const {
    if (change) {
      observer_.availability_changed(*change);
    }
  }

  PoolSettings settings_;
  std::mutex mutex_;
  std::deque<Work> reads_;
  std::vector<Connection*> idle_;
  std::vector<Connection*> open_;  // connected, set up, and counted as serving
  PostgresObserver& observer_ = *settings_.observer;
  BatchScheduler batches_{observer_};
  // When the first loop runs on_tick next at the latest: a wait for company ending sooner wakes it.
  Clock::time_point next_tick_ = Clock::time_point::max();
  // No connection is open and the latest attempt failed: calls fail at once. False while the
  // first connections are still being made, so that calls made at start wait for them.
  bool down_ = false;
  bool schema_ready_ = false;
  PoolHealth health_;
  bool closing_ = false;
  // Batches whose COMMIT's answer was lost; those that did not commit come back through create().
  CommitResolver resolver_{settings_.target, observer_, settings_.worker,
                           [this](PendingCreate create) { this->create(std::move(create)); }};
  std::vector<std::unique_ptr<EventLoop>> loops_;
  std::vector<std::unique_ptr<Connection>> connections_;
};

}  // namespace petstore::adapters::storage::postgres

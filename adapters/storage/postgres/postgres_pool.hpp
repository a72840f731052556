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

#include "adapters/storage/postgres/postgres_batch_scheduler.hpp"
#include "adapters/storage/postgres/postgres_commit_resolver.hpp"
#include "adapters/storage/postgres/postgres_connection.hpp"
#include "adapters/storage/postgres/postgres_create_batch.hpp"
#include "adapters/storage/postgres/postgres_event_loop.hpp"
#include "adapters/storage/postgres/postgres_observer.hpp"
#include "adapters/storage/postgres/postgres_pool_health.hpp"
#include "adapters/storage/postgres/postgres_work.hpp"

namespace petstore::adapters::storage::postgres {

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
  // Unanswered: calls taken out under the lock, answered unavailable after it.
  struct Unanswered {
    std::vector<std::pair<Work, const char*>> reads;
    std::vector<std::pair<PendingCreate, const char*>> creates;
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
  // take_due_locked: take_due on the queued reads and creates.
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

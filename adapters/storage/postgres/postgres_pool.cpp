#include "adapters/storage/postgres/postgres_pool.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

namespace petstore::adapters::storage::postgres {
namespace {

domain::Error unavailable(std::string message) {
  return domain::make_error(domain::ErrorCode::unavailable, "", std::move(message));
}

template <class Event, class... Args>
void report(const Event& event, Args&&... args) {
  if (event) {
    event(std::forward<Args>(args)...);
  }
}

// expire_from: takes out of `queue` the calls whose deadline has passed, each answered
// unavailable (later, outside the pool's lock) through its member `callback`.
template <class Call, class Callback>
void expire_from(std::deque<Call>& queue, std::chrono::steady_clock::time_point now,
                 Callback Call::*callback, std::vector<std::function<void()>>& answers) {
  for (auto it = queue.begin(); it != queue.end();) {
    if (it->deadline <= now) {
      answers.push_back([answer = std::move((*it).*callback)] {
        answer(unavailable("no database connection was free within the timeout"));
      });
      it = queue.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace

Pool::Pool(PoolSettings settings)
    : settings_(std::move(settings)), schema_checked_(settings_.schema_checked) {
  const std::size_t loop_count = std::max<std::size_t>(1, settings_.loops);
  for (std::size_t i = 0; i < loop_count; ++i) {
    loops_.push_back(std::make_unique<EventLoop>(
        i == 0 ? EventLoop::EveryTick([this](auto now) { return on_tick(now); })
               : EventLoop::EveryTick()));
  }
  for (std::size_t i = 0; i < settings_.size; ++i) {
    auto& loop = *loops_[i % loop_count];
    connections_.push_back(std::make_unique<Connection>(*this, loop, settings_.target));
    loop.add(*connections_.back());
  }
  for (auto& loop : loops_) {
    loop->start();
  }
}

Pool::~Pool() { close(); }

void Pool::read(Work work) {
  work.queued_at = Clock::now();
  std::vector<Assignment> assignments;
  {
    std::unique_lock lock(mutex_);
    if (down_ || closing_) {
      lock.unlock();
      work.finish(unavailable(closing_ ? "storage is closing" : "no database connection works"));
      return;
    }
    reads_.push_back(std::move(work));
    dispatch_locked(assignments);
  }
  post(assignments);
}

void Pool::create(PendingCreate create) {
  create.queued_at = Clock::now();
  std::vector<Assignment> assignments;
  {
    std::unique_lock lock(mutex_);
    if (down_ || closing_) {
      lock.unlock();
      create.done(unavailable(closing_ ? "storage is closing" : "no database connection works"));
      return;
    }
    creates_.push_back(std::move(create));
    dispatch_locked(assignments);
  }
  post(assignments);
}

void Pool::dispatch_locked(std::vector<Assignment>& assignments) {
  const auto now = Clock::now();
  const auto company_deadline = company_deadline_locked();
  const bool waiting_for_company = company_deadline && now < *company_deadline;
  if (waiting_for_company && *company_deadline < next_tick_ && !closing_) {
    next_tick_ = *company_deadline;
    loops_.front()->wake();  // its on_tick ends the wait on time
  }
  while (!idle_.empty() && !closing_) {
    Assignment assignment{idle_.back(), {}};
    if (!creates_.empty() && !writer_busy_ && !waiting_for_company) {
      assignment.works.push_back(take_batch_locked());
    } else if (!reads_.empty()) {
      // Queued reads are shared among the idle connections, a few per pipeline.
      const std::size_t share =
          std::min(max_pipelined_reads, (reads_.size() + idle_.size() - 1) / idle_.size());
      for (std::size_t i = 0; i < share; ++i) {
        Work work = std::move(reads_.front());
        reads_.pop_front();
        report(settings_.events.connection_waited, now - work.queued_at);
        work.finish = [finish = std::move(work.finish), now,
                       &event = settings_.events.query_finished](WorkResults results) {
          report(event, Clock::now() - now);
          finish(std::move(results));
        };
        assignment.works.push_back(std::move(work));
      }
    } else {
      break;
    }
    idle_.pop_back();
    assignments.push_back(std::move(assignment));
  }
  report_pool_locked();
}

Work Pool::take_batch_locked() {
  const auto now = Clock::now();
  std::vector<PendingCreate> batch;
  while (!creates_.empty() && batch.size() < max_batch) {
    report(settings_.events.connection_waited, now - creates_.front().queued_at);
    batch.push_back(std::move(creates_.front()));
    creates_.pop_front();
  }
  writer_busy_ = true;
  return create_batch_work(std::move(batch),
                           [this, now](std::size_t creates) { writer_done(now, creates); });
}

std::optional<Pool::Clock::time_point> Pool::company_deadline_locked() const {
  const std::size_t company = std::min(last_batch_, max_batch);
  if (creates_.empty() || writer_busy_ || creates_.size() >= company) {
    return std::nullopt;  // a last batch of one (company 1) never waits
  }
  const auto wait = std::min<Clock::duration>(last_commit_, max_company_wait);
  return std::max(writer_freed_at_, creates_.front().queued_at) + wait;
}

void Pool::writer_done(Clock::time_point started, std::size_t creates) {
  const auto now = Clock::now();
  report(settings_.events.commit_finished, now - started, creates);
  std::vector<Assignment> assignments;
  {
    const std::lock_guard lock(mutex_);
    writer_busy_ = false;
    last_batch_ = creates;
    last_commit_ = now - started;
    writer_freed_at_ = Clock::now();  // after the report: a slow hook shortens no wait
    dispatch_locked(assignments);
    quiet_.notify_all();
  }
  post(assignments);
}

void Pool::post(std::vector<Assignment>& assignments) {
  for (auto& assignment : assignments) {
    Connection* connection = assignment.connection;
    connection->loop().post([connection, works = std::move(assignment.works)]() mutable {
      connection->run(std::move(works));
    });
  }
  assignments.clear();
}

void Pool::connection_up(Connection& connection) {
  bool check = false;
  {
    const std::lock_guard lock(mutex_);
    check = !schema_checked_;
  }
  if (check && settings_.check_schema) {
    // Only until the first success: the database was unreachable when the process started.
    if (auto checked = settings_.check_schema(); !checked) {
      connection.loop().post(
          [&connection, reason = checked.error().message] { connection.drop(reason); });
      return;
    }
  }
  const bool recovered = connection.recovering();
  std::vector<Assignment> assignments;
  bool first_open = false;
  {
    const std::lock_guard lock(mutex_);
    schema_checked_ = true;
    down_ = false;
    first_open = open_.empty();
    open_.push_back(&connection);
    idle_.push_back(&connection);
    dispatch_locked(assignments);
  }
  post(assignments);
  if (recovered) {
    report(settings_.events.connection_restored);
  }
  if (first_open) {
    report(settings_.events.availability_changed, true);
  }
}

void Pool::connection_idle(Connection& connection) {
  std::vector<Assignment> assignments;
  {
    const std::lock_guard lock(mutex_);
    idle_.push_back(&connection);
    dispatch_locked(assignments);
    if (idle_.size() == open_.size()) {
      quiet_.notify_all();
    }
  }
  post(assignments);
}

void Pool::connection_down(Connection& connection, const std::string& reason, bool was_up) {
  Answers answers;
  bool last = false;
  {
    const std::lock_guard lock(mutex_);
    const bool counted = std::erase(open_, &connection) > 0;
    if (counted) {
      std::erase(idle_, &connection);
      quiet_.notify_all();
      report_pool_locked();
    }
    if (open_.empty() && !down_) {
      // The last open connection is gone, or the first attempts fail: nothing serves the
      // queued calls, and new ones fail at once until a connection is up again.
      down_ = true;
      last = true;
      take_all_locked(answers);
    }
  }
  for (auto& answer : answers) {
    answer();
  }
  report(was_up ? settings_.events.connection_lost : settings_.events.connect_failed, reason);
  if (last) {
    report(settings_.events.availability_changed, false);
  }
}

Pool::Clock::time_point Pool::on_tick(Clock::time_point now) {
  Answers answers;
  std::vector<Assignment> assignments;
  auto next = Clock::time_point::max();
  {
    const std::lock_guard lock(mutex_);
    expire_locked(now, answers);
    if (const auto company_deadline = company_deadline_locked()) {
      if (*company_deadline <= now) {
        dispatch_locked(assignments);  // the wait is over: commit what came
      } else {
        next = *company_deadline;
      }
    }
    next_tick_ = std::min(next, now + EventLoop::tick);
  }
  for (auto& answer : answers) {
    answer();
  }
  post(assignments);
  return next;
}

void Pool::expire_locked(Clock::time_point now, Answers& answers) {
  expire_from(reads_, now, &Work::finish, answers);
  expire_from(creates_, now, &PendingCreate::done, answers);
}

void Pool::take_all_locked(Answers& answers) {
  for (auto& work : reads_) {
    answers.push_back(
        [finish = std::move(work.finish)] { finish(unavailable("no database connection works")); });
  }
  reads_.clear();
  for (auto& create : creates_) {
    answers.push_back(
        [done = std::move(create.done)] { done(unavailable("no database connection works")); });
  }
  creates_.clear();
}

void Pool::report_pool_locked() const {
  report(settings_.events.pool_changed, open_.size(), open_.size() - idle_.size());
}

void Pool::close() {
  Answers answers;
  {
    std::unique_lock lock(mutex_);
    if (closed_) {
      return;
    }
    closing_ = true;
    take_all_locked(answers);
  }
  for (auto& answer : answers) {
    answer();
  }
  {
    // Calls in flight finish, or fail at their deadline when the database does not answer.
    std::unique_lock lock(mutex_);
    quiet_.wait(lock, [this] { return idle_.size() == open_.size() && !writer_busy_; });
    closed_ = true;
  }
  loops_.clear();  // each loop runs the tasks posted to it, then its thread ends
  connections_.clear();
}

}  // namespace petstore::adapters::storage::postgres

#include "adapters/storage/postgres/postgres_pool.hpp"

#include <algorithm>
#include <type_traits>

#include "adapters/storage/postgres/postgres_errors.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

// Threads that run the connections: two keep one busy pipeline from delaying every other
// connection's answers, and a poll loop serves many connections, so more rarely pay.
constexpr std::size_t most_loops = 2;

void answer_unavailable(Work& work, const char* reason) { work.finish(unavailable(reason)); }
void answer_unavailable(PendingCreate& create, const char* reason) {
  create.done(unavailable(reason));
}

}  // namespace

void Pool::Unanswered::answer() {
  for (auto& work : reads) {
    answer_unavailable(work, reason);
  }
  for (auto& create : creates) {
    answer_unavailable(create, reason);
  }
  reads.clear();
  creates.clear();
}

Pool::Pool(PoolSettings settings)
    : settings_(std::move(settings)), schema_ready_(settings_.schema_ready) {
  const std::size_t loop_count = std::clamp<std::size_t>(settings_.size, 1, most_loops);
  for (std::size_t i = 0; i < loop_count; ++i) {
    loops_.push_back(std::make_unique<EventLoop>(
        i == 0 ? EventLoop::EveryTick([this](auto now) { return on_tick(now); })
               : EventLoop::EveryTick()));
  }
  if (settings_.ticked != nullptr) {
    loops_.front()->add(*settings_.ticked);
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

template <class Call>
void Pool::submit(Call call) {
  call.queued_at = Clock::now();
  std::vector<Assignment> assignments;
  {
    std::unique_lock lock(mutex_);
    if (const char* refused = refusal_locked()) {
      lock.unlock();
      answer_unavailable(call, refused);
      return;
    }
    if constexpr (std::is_same_v<Call, Work>) {
      reads_.push_back(std::move(call));
    } else {
      batches_.queue(std::move(call));
    }
    dispatch_locked(assignments);
  }
  post(assignments);
}

void Pool::read(Work work) { submit(std::move(work)); }

void Pool::create(PendingCreate create) { submit(std::move(create)); }

const char* Pool::refusal_locked() const {
  if (closing_) {
    return "storage is closing";
  }
  if (!schema_ready_) {
    return "the database's schema is not ready";
  }
  return down_ ? "no database connection works" : nullptr;
}

void Pool::dispatch_locked(std::vector<Assignment>& assignments) {
  const auto now = Clock::now();
  const auto company_deadline = batches_.wait_until();
  const bool waiting_for_company = company_deadline && now < *company_deadline;
  if (waiting_for_company && *company_deadline < next_tick_ && !closing_) {
    next_tick_ = *company_deadline;
    loops_.front()->wake();  // its on_tick ends the wait on time
  }
  while (!idle_.empty() && !closing_) {
    Assignment assignment{idle_.back(), {}, {}};
    if (batches_.ready(now)) {
      auto batch = batches_.take(
          now, assignment.given_up, [this, now](std::size_t creates) { writer_done(now, creates); },
          resolver_);
      if (batch) {
        assignment.works.push_back(std::move(*batch));
      } else {
        assignments.push_back(std::move(assignment));  // only given-up creates: the writer is free
        continue;
      }
    } else if (!reads_.empty()) {
      // Queued reads are shared among the idle connections, a few per pipeline.
      const std::size_t share =
          std::min(max_pipelined_reads, (reads_.size() + idle_.size() - 1) / idle_.size());
      for (std::size_t i = 0; i < share; ++i) {
        Work work = std::move(reads_.front());
        reads_.pop_front();
        observer_.connection_waited(now - work.queued_at);
        work.finish = [finish = std::move(work.finish), now,
                       &observer = observer_](WorkResults results) mutable {
          observer.query_finished(Clock::now() - now);
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

void Pool::writer_done(Clock::time_point started, std::size_t creates) {
  const auto now = Clock::now();
  observer_.commit_finished(now - started, creates);
  std::vector<Assignment> assignments;
  {
    const std::lock_guard lock(mutex_);
    // Freed after the report: a slow hook shortens no wait for company.
    batches_.freed(creates, now - started, Clock::now());
    dispatch_locked(assignments);
  }
  post(assignments);
}

void Pool::post(std::vector<Assignment>& assignments) {
  for (auto& assignment : assignments) {
    for (auto& create : assignment.given_up) {
      create.done(unavailable("the create's deadline passed before it was sent"));
    }
    if (assignment.works.empty()) {
      continue;
    }
    Connection* connection = assignment.connection;
    // Shared, since a loop's task is copyable and works hold move-only completions.
    connection->loop().post(
        [connection, works = std::make_shared<std::vector<Work>>(std::move(assignment.works))] {
          connection->run(std::move(*works));
        });
  }
  assignments.clear();
}

void Pool::schema_ready() {
  std::optional<bool> availability;
  {
    const std::lock_guard lock(mutex_);
    schema_ready_ = true;
    availability = availability_change_locked();
  }
  report_availability(availability);
}

void Pool::no_connection_works_locked(Unanswered& answers) {
  down_ = true;
  take_due_locked(Clock::time_point::max(), answers, "no database connection works");
}

Pool::Clock::time_point Pool::on_tick(Clock::time_point now) {
  Unanswered answers;
  std::vector<Assignment> assignments;
  auto next = Clock::time_point::max();
  {
    const std::lock_guard lock(mutex_);
    take_due_locked(now, answers, "no database connection was free within the timeout");
    probe_locked(now, assignments);
    if (const auto company_deadline = batches_.wait_until()) {
      if (*company_deadline <= now) {
        dispatch_locked(assignments);  // the wait is over: commit what came
      } else {
        next = *company_deadline;
      }
    }
    next_tick_ = std::min(next, now + EventLoop::tick);  // probes ride on the loop's ticks
  }
  answers.answer();
  post(assignments);
  return next;
}

void Pool::take_due_locked(Clock::time_point now, Unanswered& answers, const char* reason) {
  answers.reason = reason;
  take_due(reads_, now, answers.reads);
  batches_.give_up(now, answers.creates);
}

void Pool::report_pool_locked() const {
  observer_.pool_changed(open_.size(), open_.size() - idle_.size());
}

void Pool::probe_locked(Clock::time_point now, std::vector<Assignment>& assignments) {
  if (!health_.take_probe(now, !closing_ && !down_ && schema_ready_)) {
    return;
  }
  Work probe{{Statement{"SELECT 1", {}}},
             [this](const WorkResults& results) { probe_answered(results.has_value()); },
             now + PoolHealth::probe_timeout};
  probe.queued_at = now;
  probe.probe = true;
  reads_.push_front(std::move(probe));  // first in line: queued reads must not hide an answer
  dispatch_locked(assignments);
}

void Pool::probe_answered(bool answered) {
  std::optional<bool> availability;
  {
    const std::lock_guard lock(mutex_);
    health_.probe_answered(answered, Clock::now());
    availability = availability_change_locked();
  }
  report_availability(availability);
}

std::optional<bool> Pool::availability_change_locked() {
  return health_.change(!open_.empty(), schema_ready_, closing_);
}

void Pool::wake() {
  const std::lock_guard lock(mutex_);  // close() clears the loops only once closing_ is set
  if (!closing_) {
    loops_.front()->wake();
  }
}

void Pool::close() {
  Unanswered answers;
  {
    const std::lock_guard lock(mutex_);
    if (closing_) {
      return;
    }
    closing_ = true;
    take_due_locked(Clock::time_point::max(), answers, "storage is closing");
  }
  answers.answer();
  for (auto& connection : connections_) {
    // On its loop's thread, before that loop stops: calls in flight are answered unavailable.
    connection->loop().post([&connection = *connection] { connection.drop("storage is closing"); });
  }
  loops_.clear();  // each loop runs the tasks posted to it, then its thread ends
  connections_.clear();
}

}  // namespace petstore::adapters::storage::postgres

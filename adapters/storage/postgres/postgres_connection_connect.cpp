// Connection's connecting half: each host in turn, then the session's set-up.
#include <algorithm>
#include <utility>

#include "adapters/storage/postgres/postgres_connection.hpp"
#include "adapters/storage/postgres/postgres_errors.hpp"
#include "adapters/storage/postgres/postgres_pool.hpp"
#include "adapters/storage/postgres/postgres_replica_proof.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

// The pause before the next round of attempts doubles up to the longest, which bounds how late a
// database that is back is found (docs/decisions/postgres-down-and-back.md).
constexpr std::chrono::milliseconds first_pause{100};
constexpr std::chrono::milliseconds longest_pause{1000};

}  // namespace

void Connection::attempt_host(Clock::time_point now) {
  conn_ = start_connect(target_, host_index_);
  state_ = State::connecting;
  poll_status_ = PGRES_POLLING_WRITING;  // as libpq asks: poll as if it had said "writing"
  connect_deadline_ = now + target_.host_timeout;
  if (conn_ == nullptr || PQstatus(conn_.get()) == CONNECTION_BAD) {
    host_failed(conn_ == nullptr ? "out of memory" : libpq_error());
  }
}

void Connection::host_failed(const std::string& reason, bool try_next) {
  // Before the connection is up, only its set-up can be out.
  auto works = std::exchange(works_, {});
  forget_session();
  for (auto& work : works) {
    work.finish(unavailable("the database connection was lost", reason));
  }
  const bool round_over = !try_next || host_index_ + 1 >= target_.host_count();
  if (round_over) {
    pause_before_retry();
  }
  pool_.connect_failed(*this, reason, round_over);
  if (!round_over) {
    ++host_index_;
    attempt_host(Clock::now());
  }
}

void Connection::continue_connect() {
  poll_status_ = PQconnectPoll(conn_.get());
  if (poll_status_ == PGRES_POLLING_FAILED) {
    host_failed(libpq_error());
    return;
  }
  if (poll_status_ != PGRES_POLLING_OK) {
    return;
  }
  if (PQsetnonblocking(conn_.get(), 1) != 0 || PQenterPipelineMode(conn_.get()) == 0) {
    host_failed(libpq_error());
    return;
  }
  PQsetNoticeReceiver(conn_.get(), &Connection::on_notice, this);
  state_ = State::setting_up;
  // Whatever the server's or the role's default: a create is acknowledged only once durable. And
  // the server's identity, which replica checks compare (postgres_replica_proof.hpp).
  Work setup{{Statement{"SET synchronous_commit = on", {}}, Statement{identity_setup_sql, {}}},
             [this](const WorkResults& results) {
               if (!results) {
                 if (conn_ != nullptr && state_ == State::setting_up) {  // refused, not dropped
                   setup_refused_ = results.error().message + ": " + results.error().detail;
                 }
               } else if (state_ == State::setting_up) {
                 state_ = State::idle;
                 pause_ = std::chrono::milliseconds(0);
                 pool_.connection_up(*this);
                 failed_since_up_ = false;
               }
             },
             connect_deadline_};
  send(std::move(setup));
  flush();
}

void Connection::forget_session() {
  conn_.reset();
  flushing_ = false;
  statement_index_ = 0;
  results_.clear();
  front_error_.reset();
  front_warning_.reset();
  failed_since_up_ = true;
}

void Connection::pause_before_retry() {
  state_ = State::down;
  pause_ = std::clamp(pause_ * 2, first_pause, longest_pause);
  retry_at_ = Clock::now() + pause_;
}

}  // namespace petstore::adapters::storage::postgres

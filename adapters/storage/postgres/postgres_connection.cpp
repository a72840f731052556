#include "adapters/storage/postgres/postgres_connection.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include "adapters/storage/postgres/postgres_errors.hpp"
#include "adapters/storage/postgres/postgres_pool.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using domain::ErrorCode;

// Unavailable when another try may pass; anything else is a bug or a damaged database.
domain::Error statement_error(const PGresult* result, std::string detail) {
  const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
  const std::string_view sqlstate = state != nullptr ? state : "";
  if (sqlstate == "PS001") {  // create_pet: every id is taken (postgres_schema.cpp)
    return unavailable("no pet ids are left");
  }
  auto error = domain::make_error(
      transient_sqlstate(sqlstate) ? ErrorCode::unavailable : ErrorCode::internal, "",
      "the database refused a statement");
  error.detail = std::string(sqlstate) + ": " + std::move(detail);
  return error;
}

}  // namespace

Connection::Connection(Pool& pool, EventLoop& loop, const ConnectTarget& target)
    : pool_(pool), loop_(loop), target_(target) {}

Connection::~Connection() {
  // The works still held answer unavailable as they go; none may find the connection half gone.
  conn_.reset();
  works_.clear();
}

int Connection::socket() const { return conn_ != nullptr ? PQsocket(conn_.get()) : -1; }

bool Connection::wants_read() const {
  if (state_ == State::connecting) {
    return poll_status_ == PGRES_POLLING_READING;
  }
  // Idle too: a server that goes away says so, and the loss is noticed (and logged) at once.
  return state_ != State::down;
}

bool Connection::wants_write() const {
  if (state_ == State::connecting) {
    return poll_status_ == PGRES_POLLING_WRITING;
  }
  return flushing_;
}

Connection::Clock::time_point Connection::next_tick() const {
  switch (state_) {
    case State::down:
      return retry_at_;
    case State::connecting:
      return connect_deadline_;
    case State::setting_up:
    case State::busy: {
      auto earliest = Clock::time_point::max();
      for (const auto& work : works_) {
        earliest = std::min(earliest, work.deadline);
      }
      return earliest;
    }
    case State::idle:
      break;
  }
  return Clock::time_point::max();
}

void Connection::on_tick(Clock::time_point now) {
  if (state_ == State::down && now >= retry_at_) {
    host_index_ = 0;  // each round in the URL's order, as libpq's own connect goes
    attempt_host(now);
  } else if (now >= next_tick() && state_ != State::idle) {
    if (state_ == State::connecting || state_ == State::setting_up) {
      host_failed(
          "no answer within " +
          std::to_string(std::chrono::ceil<std::chrono::seconds>(target_.host_timeout).count()) +
          " s of connecting");
      return;
    }
    const bool silent = std::any_of(works_.begin(), works_.end(), [now](const Work& work) {
      return work.probe && work.deadline <= now;
    });
    fail("the database did not answer within the timeout", silent);
  }
}

void Connection::on_socket(bool readable, bool writable) {
  if (state_ == State::connecting) {
    continue_connect();
    return;
  }
  if (state_ == State::down) {
    return;
  }
  if (writable && flushing_) {
    flush();
  }
  if (readable && state_ != State::down) {
    if (PQconsumeInput(conn_.get()) == 0) {
      fail(libpq_error());
      return;
    }
    read_results();
  }
}

void Connection::run(std::vector<Work> works) {
  if (state_ != State::idle && state_ != State::busy) {
    for (auto& work : works) {
      work.finish(unavailable("the database connection was lost", "lost before the call was sent"));
    }
    return;
  }
  state_ = State::busy;
  for (auto& work : works) {
    send(std::move(work));
    if (state_ == State::down) {
      return;
    }
  }
  flush();
}

void Connection::send(Work work) {
  for (const auto& statement : work.statements) {
    if (!send_query(conn_.get(), statement.sql.c_str(), statement.params) ||
        (statement.flush && PQsendFlushRequest(conn_.get()) == 0)) {
      works_.push_back(std::move(work));  // so that fail() answers it
      fail(libpq_error());
      return;
    }
  }
  works_.push_back(std::move(work));
  if (PQpipelineSync(conn_.get()) == 0) {
    fail(libpq_error());
  }
}

void Connection::flush() {
  const int flushed = PQflush(conn_.get());
  if (flushed < 0) {
    fail(libpq_error());
    return;
  }
  flushing_ = flushed == 1;
}

void Connection::read_results() {
  while (!works_.empty() && state_ != State::down) {
    if (PQisBusy(conn_.get()) != 0) {
      return;
    }
    ResultPtr result(PQgetResult(conn_.get()));
    const Work& work = works_.front();
    if (statement_index_ < work.statements.size()) {
      if (!result) {
        ++statement_index_;  // the statement's results are all in
        continue;
      }
      const auto status = PQresultStatus(result.get());
      if (status == PGRES_FATAL_ERROR && !front_error_) {
        front_error_ = statement_error(
            result.get(), redacted(PQresultErrorMessage(result.get()), target_.password));
      }
      if (results_.size() == statement_index_) {
        results_.push_back(std::move(result));
      }
      continue;
    }
    if (!result) {
      return;  // the sync's answer has not arrived yet
    }
    if (PQresultStatus(result.get()) != PGRES_PIPELINE_SYNC) {
      fail("the database answered out of turn");
      return;
    }
    finish_front_work();
    if (setup_refused_) {
      host_failed("the session's set-up was refused: " + *std::exchange(setup_refused_, {}));
      return;
    }
  }
  if (works_.empty() && state_ == State::busy) {
    state_ = State::idle;
    pool_.connection_idle(*this);
  }
}

void Connection::finish_front_work() {
  Work work = std::move(works_.front());
  works_.pop_front();
  statement_index_ = 0;
  auto results = std::exchange(results_, {});
  auto error = std::exchange(front_error_, std::nullopt);
  auto warning = std::exchange(front_warning_, std::nullopt);
  if (!error && warning && work.is_commit && work.in_doubt) {
    work.in_doubt(std::move(results), "a warning during its commit: " + *warning);
    return;
  }
  if (!error) {
    work.finish(std::move(results));
    return;
  }
  work.finish(std::move(*error));
  // A Sync does not end a failed batch's explicit transaction: without a ROLLBACK every later
  // statement would fail with 25P02 (docs/decisions/postgres-failed-batch-rollback.md).
  if (state_ != State::down && PQtransactionStatus(conn_.get()) == PQTRANS_INERROR) {
    send(Work{{Statement{"ROLLBACK", {}}},
              [](const WorkResults&) {},
              std::chrono::steady_clock::now() + target_.timeout});
    flush();
  }
}

void Connection::drop(const std::string& reason) {
  if (state_ == State::connecting || state_ == State::setting_up) {
    host_failed(reason, false);  // dropped: no next host now, the round begins again later
  } else if (state_ != State::down) {
    fail(reason);
  }
}

void Connection::fail(const std::string& reason, bool silent) {
  if (state_ == State::connecting || state_ == State::setting_up) {
    host_failed(reason);
    return;
  }
  // A commit work whose COMMIT answered without error, only the sync's answer lost (a fast
  // shutdown may answer, then close), has committed: it gets its results. Exchanged, not moved,
  // so that no path reads a moved-from vector.
  auto received = std::exchange(results_, {});
  std::optional<Work> answered;
  std::vector<ResultPtr> answered_results;
  if (!works_.empty() && works_.front().is_commit && !front_error_ &&
      statement_index_ == works_.front().statements.size() && received.size() == statement_index_) {
    answered.emplace(std::move(works_.front()));
    works_.pop_front();
    answered_results = std::exchange(received, {});
  }
  auto works = std::exchange(works_, {});
  forget_session();
  pause_before_retry();
  if (answered) {
    answered->finish(std::move(answered_results));
  }
  for (auto& work : works) {
    // A commit in flight may or may not have happened: its resolution asks the database (on a
    // connection of its own), else the caller hears unavailable and may retry with its key.
    if (work.is_commit && work.in_doubt) {
      work.in_doubt(
          &work == &works.front() ? std::exchange(received, {}) : std::vector<ResultPtr>{}, reason);
      continue;
    }
    work.finish(unavailable("the database connection was lost", reason));
  }
  pool_.connection_lost(*this, reason, silent);
}

void Connection::on_notice(void* self, const PGresult* notice) {
  auto& connection = *static_cast<Connection*>(self);
  const char* severity = PQresultErrorField(notice, PG_DIAG_SEVERITY_NONLOCALIZED);
  if (severity == nullptr || std::string_view(severity) != "WARNING" || connection.works_.empty() ||
      !connection.works_.front().is_commit) {
    return;
  }
  const char* message = PQresultErrorField(notice, PG_DIAG_MESSAGE_PRIMARY);
  connection.front_warning_ =
      redacted(message != nullptr ? message : "", connection.target_.password);
}

std::string Connection::libpq_error() const {
  return conn_ ? redacted(PQerrorMessage(conn_.get()), target_.password) : "no connection";
}

}  // namespace petstore::adapters::storage::postgres

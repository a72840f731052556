#include "adapters/storage/postgres/postgres_session.hpp"

#include <algorithm>
#include <cstdint>
#include <poll.h>
#include <string_view>
#include <utility>

#include "adapters/storage/postgres/postgres_errors.hpp"
#include "adapters/storage/postgres/postgres_event_loop.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using domain::ErrorCode;

// A stop is noticed within this long, whatever the deadline.
constexpr std::chrono::milliseconds stop_check{50};

std::string libpq_message(PGconn* conn, const ConnectTarget& target) {
  return conn != nullptr ? one_line(PQerrorMessage(conn), target.password) : "out of memory";
}

}  // namespace

BlockingSession::BlockingSession(ConnPtr conn, const ConnectTarget& target,
                                 Clock::time_point deadline, std::stop_token stop)
    : conn_(std::move(conn)), target_(&target), deadline_(deadline), stop_(std::move(stop)) {}

domain::Result<BlockingSession> BlockingSession::open(const ConnectTarget& target,
                                                      Clock::time_point deadline,
                                                      const std::stop_token& stop, Bounds bounds) {
  if (EventLoop::on_loop_thread()) {
    return domain::make_error(ErrorCode::internal, "",
                              "a blocking database session was opened on a poll loop's thread");
  }
  const auto budget = std::max(deadline - Clock::now(), Clock::duration::zero());
  const auto per_host = std::min<Clock::duration>(target.host_timeout, budget);
  std::string failures;
  for (std::size_t host = 0; host < target.host_count(); ++host) {
    auto session = connect_host(target, host, Clock::now() + per_host, stop);
    if (session) {
      if (bounds == Bounds::connect_only) {
        session->deadline_ = Clock::time_point::max();
        return session;
      }
      session->deadline_ = Clock::now() + budget;
      const auto left = std::to_string(std::max<std::int64_t>(
          1,
          std::chrono::ceil<std::chrono::milliseconds>(session->deadline_ - Clock::now()).count()));
      std::string bounds_sql = "SET statement_timeout = ";
      bounds_sql.append(left).append("; SET lock_timeout = ").append(left);
      if (auto bounded = session->run(bounds_sql.c_str()); !bounded) {
        return bounded.error();
      }
      return session;
    }
    const auto& why = session.error().message;
    failures += (failures.empty() ? "" : "; ") +
                (target.host_count() > 1 ? target.host_description(host) + ": " : "") + why;
    if (stop.stop_requested()) {
      break;
    }
  }
  return unavailable("cannot connect to the database: " + failures);
}

domain::Result<BlockingSession> BlockingSession::connect_host(const ConnectTarget& target,
                                                              std::size_t host,
                                                              Clock::time_point deadline,
                                                              const std::stop_token& stop) {
  BlockingSession session(start_connect(target, host), target, deadline, stop);
  PGconn* conn = session.get();
  if (conn == nullptr || PQstatus(conn) == CONNECTION_BAD) {
    return unavailable(libpq_message(conn, target));
  }
  // As libpq asks: poll as if PQconnectPoll had said "writing".
  for (auto status = PGRES_POLLING_WRITING; status != PGRES_POLLING_OK;) {
    if (status == PGRES_POLLING_FAILED) {
      return unavailable(libpq_message(conn, target));
    }
    if (auto ready = session.await(status == PGRES_POLLING_WRITING ? POLLOUT : POLLIN); !ready) {
      return ready.error();
    }
    status = PQconnectPoll(conn);
  }
  if (PQsetnonblocking(conn, 1) != 0) {
    return unavailable(libpq_message(conn, target));
  }
  return session;
}

domain::Result<ResultPtr> BlockingSession::run(
    const char* sql, const std::vector<std::optional<std::string>>& params) {
  // Without parameters, the simple protocol, which takes several statements in one string.
  const bool sent =
      params.empty() ? PQsendQuery(conn_.get(), sql) != 0 : send_query(conn_.get(), sql, params);
  if (!sent) {
    return unavailable("the database connection was lost: " + libpq_message(conn_.get(), *target_));
  }
  return answer();
}

domain::Result<ResultPtr> BlockingSession::answer() {
  PGconn* conn = conn_.get();
  for (int flushed = PQflush(conn); flushed != 0; flushed = PQflush(conn)) {
    if (flushed < 0) {
      return unavailable("the database connection was lost: " + libpq_message(conn, *target_));
    }
    if (auto ready = await(POLLIN | POLLOUT); !ready) {
      return ready.error();
    }
    (void)PQconsumeInput(conn);  // as libpq asks while a flush waits: read what has come
  }
  ResultPtr last;
  std::optional<domain::Error> refused;
  for (;;) {
    while (PQisBusy(conn) != 0) {
      if (auto ready = await(POLLIN); !ready) {
        return ready.error();
      }
      if (PQconsumeInput(conn) == 0) {
        return unavailable("the database connection was lost: " + libpq_message(conn, *target_));
      }
    }
    ResultPtr result(PQgetResult(conn));
    if (!result) {
      break;
    }
    if (PQresultStatus(result.get()) == PGRES_FATAL_ERROR && !refused) {
      const char* state = PQresultErrorField(result.get(), PG_DIAG_SQLSTATE);
      const std::string_view sqlstate = state != nullptr ? state : "";
      // Anything but a transient refusal is this database refusing the schema.
      refused = domain::make_error(
          transient_sqlstate(sqlstate) ? ErrorCode::unavailable : ErrorCode::internal, "",
          refusal_words_ + ": " + one_line(PQresultErrorMessage(result.get()), target_->password));
    }
    last = std::move(result);
  }
  if (refused) {
    return *refused;
  }
  if (PQstatus(conn) != CONNECTION_OK) {
    return unavailable("the database connection was lost: " + libpq_message(conn, *target_));
  }
  return last;
}

domain::Result<void> BlockingSession::await(short events) const {
  for (;;) {
    if (stop_.stop_requested()) {
      return unavailable("stopped while the database had not answered");
    }
    const auto now = Clock::now();
    if (now >= deadline_) {  // never for time_point::max(): connect_only
      return unavailable("the database did not answer within the timeout");
    }
    const auto wait =
        std::min(std::chrono::ceil<std::chrono::milliseconds>(deadline_ - now), stop_check);
    pollfd fd{PQsocket(conn_.get()), events, 0};
    if (fd.fd < 0) {
      return unavailable("the database connection was lost");
    }
    if (poll(&fd, 1, static_cast<int>(wait.count())) > 0) {
      return {};
    }
  }
}

}  // namespace petstore::adapters::storage::postgres

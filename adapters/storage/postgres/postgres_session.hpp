#pragma once
// BlockingSession: one libpq connection driven step by step by the thread that calls it: the
// schema's migration at start and its later retries, never a poll loop's thread. Each step has
// a deadline and gives up when `stop` is requested: libpq's asynchronous calls under poll(2), so
// a database that stops answering, or a lock held elsewhere, holds the caller no longer than
// the deadline. Errors are one line without the password: unavailable when the database could
// not be reached or answer in time (try again later), internal when it refused a statement.

#include <chrono>
#include <libpq-fe.h>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_work.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::storage::postgres {

class BlockingSession {
 public:
  using Clock = std::chrono::steady_clock;

  // open: connects within `deadline`, then bounds every statement on the server too
  // (statement_timeout and lock_timeout: the time left), so that what a given-up step leaves
  // running ends there as well.
  [[nodiscard]] static domain::Result<BlockingSession> open(const ConnectTarget& target,
                                                            Clock::time_point deadline,
                                                            std::stop_token stop);

  // run: `sql` (one or several statements, no parameters) and its last result.
  [[nodiscard]] domain::Result<ResultPtr> run(const char* sql);
  // run: one statement with $1.. `params` (nullopt is NULL), and its result.
  [[nodiscard]] domain::Result<ResultPtr> run(
      const char* sql, const std::vector<std::optional<std::string>>& params);
  // refusals: the words that open a refused statement's message (the schema's by default).
  void refusals(std::string words) { refusal_words_ = std::move(words); }

  [[nodiscard]] PGconn* get() const { return conn_.get(); }

 private:
  BlockingSession(ConnPtr conn, const ConnectTarget& target, Clock::time_point deadline,
                  std::stop_token stop);
  // await: until the socket has one of poll(2)'s `events`, the deadline passes or a stop comes.
  [[nodiscard]] domain::Result<void> await(short events) const;
  [[nodiscard]] domain::Error unavailable(const std::string& why) const;
  // answer: the sent query's results, the last one kept.
  [[nodiscard]] domain::Result<ResultPtr> answer();

  ConnPtr conn_;
  const ConnectTarget* target_;
  Clock::time_point deadline_;
  std::stop_token stop_;
  std::string refusal_words_ = "cannot set up the petstore schema";
};

}  // namespace petstore::adapters::storage::postgres

#pragma once
// BlockingSession: one libpq connection driven by the calling thread, for what runs outside the
// poll loops (docs/decisions/postgres-bounded-blocking-calls.md); each step waits under poll(2)
// and gives up at a stop. Errors are one line without the password: unavailable when the database
// is unreachable or slow, internal when it refused a statement.

#include <chrono>
#include <cstddef>
#include <libpq-fe.h>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "adapters/storage/postgres/libpq.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::storage::postgres {

class BlockingSession {
 public:
  using Clock = std::chrono::steady_clock;

  // Bounds: what `deadline` bounds. whole_session: every step, and on the server too
  // (statement_timeout, lock_timeout), so that a given-up step ends there as well. connect_only:
  // the connect only, for a data tool's transfer, which no single deadline fits.
  enum class Bounds { whole_session, connect_only };

  // open: connects, trying the target's hosts in turn (none past `deadline`); once connected, its
  // steps get the time to `deadline` again, so that failed hosts cost only their own timeouts.
  // internal on a poll loop's thread (a bug: that thread must never wait).
  [[nodiscard]] static domain::Result<BlockingSession> open(const ConnectTarget& target,
                                                            Clock::time_point deadline,
                                                            const std::stop_token& stop,
                                                            Bounds bounds = Bounds::whole_session);

  // run: `sql` and its last result: one statement with $1.. `params` (nullopt is NULL), or, with
  // none, one or several statements.
  [[nodiscard]] domain::Result<ResultPtr> run(
      const char* sql, const std::vector<std::optional<std::string>>& params = {});
  // refusals: the words that open a refused statement's message (the schema's by default).
  void refusals(std::string words) { refusal_words_ = std::move(words); }

  [[nodiscard]] PGconn* get() const { return conn_.get(); }

 private:
  BlockingSession(ConnPtr conn, const ConnectTarget& target, Clock::time_point deadline,
                  std::stop_token stop);
  [[nodiscard]] static domain::Result<BlockingSession> connect_host(const ConnectTarget& target,
                                                                    std::size_t host,
                                                                    Clock::time_point deadline,
                                                                    const std::stop_token& stop);
  // await: until the socket has one of poll(2)'s `events`, the deadline passes or a stop comes.
  [[nodiscard]] domain::Result<void> await(short events) const;
  // answer: the sent query's results, the last one kept.
  [[nodiscard]] domain::Result<ResultPtr> answer();

  ConnPtr conn_;
  const ConnectTarget* target_;
  Clock::time_point deadline_;
  std::stop_token stop_;
  std::string refusal_words_ = "cannot set up the petstore schema";
};

}  // namespace petstore::adapters::storage::postgres

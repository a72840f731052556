#pragma once
// BlockingSession: one libpq connection driven step by step by the thread that calls it, for
// whatever runs outside the poll loops: the schema's migration (at start and its later
// retries), a lost commit's resolution, and the data tools' transfers. Each step waits under
// poll(2) and gives up when `stop` is requested; on a poll loop's thread it refuses to open.
// Errors are one line without the password: unavailable when the database could not be reached
// or answer in time (try again later), internal when it refused a statement.

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

  // Bounds: what `deadline` bounds. whole_session: every step (the schema, a commit's
  // outcome), and on the server too (statement_timeout and lock_timeout: the time left), so
  // that what a given-up step leaves running ends there as well. connect_only: the connect; its
  // statements then take as long as the database does (a data tool's transfer, which no single
  // deadline fits), until a stop.
  enum class Bounds { whole_session, connect_only };

  // open: connects, trying the target's hosts as ConnectTarget says (none past `deadline`); once
  // connected, its steps get the time to `deadline` again, so that hosts that failed first cost
  // the session nothing but their own timeouts. Errors: internal on a poll loop's thread (a bug:
  // that thread serves every call of its connections and must never wait), else as above.
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
  // connect_host: a session on the target's `host`-th host, connected within `deadline`.
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

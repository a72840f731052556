#pragma once
// Work: what one pooled connection runs for the adapter: a few statements sent in one pipeline,
// closed by one sync (so they form one implicit transaction unless they say BEGIN/COMMIT
// themselves), and the function that receives their results. Finish runs exactly once, on the
// connection's loop thread: with every statement's result, or with the error that stopped it.

#include <chrono>
#include <libpq-fe.h>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "domain/error.hpp"
#include "ports/completion.hpp"

namespace petstore::adapters::storage::postgres {

struct ResultDeleter {
  void operator()(PGresult* result) const { PQclear(result); }
};
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;

// Statement: SQL with $1.. placeholders and its parameters in text form (nullopt is NULL).
struct Statement {
  std::string sql;
  std::vector<std::optional<std::string>> params;
};

// WorkResults: each statement's result, in order, or why the work did not complete.
using WorkResults = domain::Result<std::vector<ResultPtr>>;

struct Work {
  std::vector<Statement> statements;
  ports::Completion<std::vector<ResultPtr>> finish;
  // The earliest deadline of the calls this work answers: past it, the connection is dropped
  // (the server rolls back whatever did not commit) and finish gets unavailable.
  std::chrono::steady_clock::time_point deadline;
  std::chrono::steady_clock::time_point queued_at{};  // for the time it waited for a connection
  // A create batch, which ends in its own COMMIT: timed as a commit, frees the writer slot, and
  // is done once the COMMIT's answer is in, even if the sync's is lost.
  bool is_commit = false;
};

}  // namespace petstore::adapters::storage::postgres

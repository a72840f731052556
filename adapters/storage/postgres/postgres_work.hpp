#pragma once
// Work: statements a pooled connection sends in one pipeline, closed by one sync (one implicit
// transaction unless they say BEGIN/COMMIT), and `finish`, which runs exactly once on the
// connection's loop thread: with every statement's result, or the error that stopped it.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "adapters/storage/postgres/libpq.hpp"
#include "domain/error.hpp"
#include "ports/completion.hpp"

namespace petstore::adapters::storage::postgres {

// Statement: SQL with $1.. placeholders and its parameters in text form (nullopt is NULL).
// `flush` asks the server to send the answers so far at once, not at the sync: an answer the
// caller must have even if the connection is lost later in the work.
struct Statement {
  std::string sql;
  std::vector<std::optional<std::string>> params;
  bool flush = false;
};

// CommitInDoubt: a commit work's connection was lost before its COMMIT's answer came: the
// results that did come (in order, perhaps none) and why it was lost.
using CommitInDoubt = std::function<void(std::vector<ResultPtr> received, std::string reason)>;

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
  // A probe (SELECT 1, first in line): one unanswered past its deadline means the server has
  // stopped answering, not that a statement is slow (Pool drops the host's other connections).
  bool probe = false;
  // For a read: a replica's answer with at least this many rows in its first result needs no
  // freshness check (0: every answer does), as ids follow commit order: an answer bounded by a pet
  // the replica holds is the primary's too (docs/decisions/replica-reads.md).
  int rows_bounding = 0;
  // For a commit work: runs instead of finish when the connection is lost with the work sent and
  // its COMMIT unanswered (it may have committed); it answers the work's callers itself, and
  // finish is then dropped. Empty: finish gets unavailable.
  CommitInDoubt in_doubt{};
};

}  // namespace petstore::adapters::storage::postgres

#include "adapters/storage/postgres/postgres_create_batch.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "adapters/storage/postgres/postgres_commit_resolver.hpp"
#include "adapters/storage/postgres/postgres_errors.hpp"
#include "adapters/storage/postgres/postgres_queries.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

// Expired idempotency records deleted per batch beyond its own creates, so that pruning keeps
// ahead of insertion while each transaction stays bounded.
constexpr std::int64_t extra_prune_budget = 16;

// The batch's one statement before COMMIT (postgres_create_pets.hpp); its rows are the creates'
// outcomes, in the batch's order.
constexpr const char* create_sql =
    "SELECT r_id, r_name, r_category_id, r_status, r_created "
    "FROM petstore.create_pets($1, $2, $3, $4, $5, $6, $7, $8, $9)";
// Read right after BEGIN and sent back at once (a flush), so that a batch whose COMMIT's answer
// is lost can be resolved: its transaction's id, and the counter's next_id without the lock (a
// lower bound of the ids the batch takes under it), moved past a lost server's ids first when
// this server is a new incarnation (postgres_incarnation.hpp). The batch commits without waiting
// for its flush, so that the counter row's lock is let go before it.
constexpr const char* identity_sql =
    "SELECT pg_current_xact_id()::text, petstore.open_incarnation(), "
    "set_config('synchronous_commit', 'off', true)";
// The flush barrier after the batch's COMMIT, in the session's synchronous commit: a transaction
// that writes WAL (a logical message: one with only an id writes a commit record that is never
// flushed) commits only once its record, and so the batch's before it, is flushed and on the
// synchronous standbys. Barriers of every session wait together: one flush serves them all.
constexpr const char* barrier_sql = "SELECT pg_logical_emit_message(true, 'petstore', '')";
constexpr std::size_t create_statement_index = 2;

// BatchState: a create batch until it is answered, by its work's finish or by its resolution.
struct BatchState {
  std::vector<PendingCreate> batch;
  std::function<void(std::size_t creates)> after;
};

// expired_before: records stamped before this count as absent at `now` (saturating, so that no
// clock value overflows).
std::int64_t expired_before(std::int64_t now, std::chrono::system_clock::duration retention) {
  const auto keep = std::max<std::int64_t>(
      0, std::chrono::duration_cast<std::chrono::nanoseconds>(retention).count());
  return now < std::numeric_limits<std::int64_t>::min() + keep
             ? std::numeric_limits<std::int64_t>::min()
             : now - keep;
}

// create_statement: the batch's creates as create_pets' columns, and the prune's bounds.
Statement create_statement(const std::vector<PendingCreate>& batch) {
  ArrayLiteral names;
  ArrayLiteral categories;
  ArrayLiteral statuses;
  ArrayLiteral scopes;
  ArrayLiteral keys;
  ArrayLiteral created_at;
  ArrayLiteral expired;
  std::int64_t latest = std::numeric_limits<std::int64_t>::min();
  std::chrono::system_clock::duration retention{};
  std::vector<const ports::TraceContext*> traces;
  traces.reserve(batch.size());
  for (const auto& pending : batch) {
    traces.push_back(&pending.done.trace());
    const auto& command = pending.command;
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(command.received_at.time_since_epoch())
            .count();
    names.add(command.pet.name.value());
    categories.add(command.pet.category_id.value);
    statuses.add(std::string(domain::to_string(command.pet.status)));
    scopes.add(command.idempotency ? std::optional(command.idempotency->scope) : std::nullopt);
    keys.add(command.idempotency ? std::optional(command.idempotency->key) : std::nullopt);
    created_at.add(now);
    expired.add(expired_before(now, command.retention));
    latest = std::max(latest, now);
    retention = std::max(retention, command.retention);
  }
  std::string sql = create_sql;
  append_batch_trace_comment(sql, traces);
  return Statement{
      std::move(sql),
      {std::move(names).done(), std::move(categories).done(), std::move(statuses).done(),
       std::move(scopes).done(), std::move(keys).done(), std::move(created_at).done(),
       std::move(expired).done(), std::to_string(expired_before(latest, retention)),
       std::to_string(static_cast<std::int64_t>(batch.size()) + extra_prune_budget)}};
}

// outcome_of: the outcome of the create in `row` of create_pets' rows (`rows` in all).
domain::Result<ports::CreateOutcome> outcome_of(const PGresult* result, int row, int rows) {
  if (PQntuples(result) != rows || PQnfields(result) != 5) {
    return damaged("create_pets answered " + std::to_string(PQntuples(result)) + " rows for " +
                   std::to_string(rows) + " creates");
  }
  auto pet = decode_pet(result, row);
  if (!pet) {
    return pet.error();
  }
  return ports::CreateOutcome{std::move(*pet), std::string_view(PQgetvalue(result, row, 4)) == "t"};
}

}  // namespace

Work create_batch_work(std::vector<PendingCreate> batch,
                       std::function<void(std::size_t creates)> after, CommitResolver& resolver) {
  Work work;
  work.is_commit = true;
  work.deadline = std::chrono::steady_clock::time_point::max();
  for (const auto& pending : batch) {
    work.deadline = std::min(work.deadline, pending.deadline);
  }
  work.statements.push_back(Statement{"BEGIN", {}});
  work.statements.push_back(Statement{identity_sql, {}, true});  // sent back at once
  work.statements.push_back(create_statement(batch));
  work.statements.push_back(Statement{"COMMIT", {}});
  work.statements.push_back(Statement{"BEGIN", {}});
  work.statements.push_back(Statement{barrier_sql, {}});
  work.statements.push_back(Statement{"COMMIT", {}});
  // Shared by finish and in_doubt: whichever runs first answers the batch.
  auto state = std::make_shared<BatchState>(BatchState{std::move(batch), std::move(after)});
  work.finish = [state](WorkResults results) {
    auto creates = std::move(state->batch);
    state->batch.clear();
    if (creates.empty()) {
      return;  // in doubt: its resolution answers it
    }
    const int rows = static_cast<int>(creates.size());
    for (int i = 0; i < rows; ++i) {
      creates[static_cast<std::size_t>(i)].done(
          results ? outcome_of((*results)[create_statement_index].get(), i, rows)
                  : domain::Result<ports::CreateOutcome>(results.error()));
    }
    state->after(creates.size());
  };
  work.in_doubt = [state, &resolver, deadline = work.deadline](std::vector<ResultPtr> received,
                                                               std::string reason) {
    BatchInDoubt doubt{std::move(state->batch), std::nullopt, std::nullopt, deadline,
                       std::move(reason)};
    state->batch.clear();
    const std::size_t creates = doubt.creates.size();
    if (received.size() > 1 && received[1] &&
        PQresultStatus(received[1].get()) == PGRES_TUPLES_OK && PQntuples(received[1].get()) == 1) {
      doubt.xid = PQgetvalue(received[1].get(), 0, 0);
      if (PQgetisnull(received[1].get(), 0, 1) == 0) {
        doubt.first_id_bound = parse_whole<std::int64_t>(PQgetvalue(received[1].get(), 0, 1));
      }
    }
    resolver.resolve(std::move(doubt));
    state->after(creates);  // the writer slot is free: the resolution needs no pool connection
  };
  return work;
}

}  // namespace petstore::adapters::storage::postgres

#include "adapters/storage/postgres/postgres_queries.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace petstore::adapters::storage::postgres {
namespace {

using domain::ErrorCode;

// Expired idempotency records deleted per batch beyond its own creates, so that pruning keeps
// ahead of insertion while each transaction stays bounded.
constexpr std::int64_t extra_prune_budget = 16;

constexpr const char* create_sql =
    "SELECT r_id, r_name, r_category_id, r_status, r_created "
    "FROM petstore.create_pet($1, $2, $3, $4, $5, $6, $7)";
// The counter row is locked first, so that batches of every instance (even one of replays only)
// prune one after another.
constexpr const char* lock_sql = "SELECT 1 FROM petstore.id_counter FOR UPDATE";
constexpr const char* prune_sql =
    "DELETE FROM petstore.idempotency_keys WHERE (scope, key) IN (SELECT scope, key FROM "
    "petstore.idempotency_keys WHERE created_at_ns < $1 ORDER BY created_at_ns LIMIT $2)";
constexpr const char* get_sql =
    "SELECT id, name, category_id, status FROM petstore.pets WHERE id = $1";
constexpr const char* list_sql =
    "SELECT id, name, category_id, status FROM petstore.pets WHERE id > $1 ORDER BY id LIMIT $2";
constexpr const char* list_by_status_sql =
    "SELECT id, name, category_id, status FROM petstore.pets WHERE status = $1 AND id > $2 "
    "ORDER BY status, id LIMIT $3";
constexpr const char* count_sql = "SELECT pet_count FROM petstore.id_counter";

domain::Error damaged(std::string detail) {
  auto error = domain::make_error(ErrorCode::internal, "", "a stored pet is damaged");
  error.detail = std::move(detail);
  return error;
}

std::optional<std::int64_t> to_int64(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::string_view field(const PGresult* result, int row, int column) {
  return {PQgetvalue(result, row, column),
          static_cast<std::size_t>(PQgetlength(result, row, column))};
}

// pet_at: the pet in columns 0-3 of `row`, re-validated.
domain::Result<domain::Pet> pet_at(const PGresult* result, int row) {
  const auto id = to_int64(field(result, row, 0));
  const auto category = to_int64(field(result, row, 2));
  auto name = domain::PetName::parse(field(result, row, 1));
  const auto status = domain::parse_pet_status(field(result, row, 3));
  if (!id || !category || !name || !status) {
    return damaged("row of pet " + std::string(field(result, row, 0)));
  }
  return domain::Pet{domain::PetId{*id}, std::move(*name), domain::CategoryId{*category}, *status};
}

std::int64_t nanoseconds_since_epoch(std::chrono::system_clock::time_point when) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(when.time_since_epoch()).count();
}

// expired_before: records stamped before this count as absent at `now` (saturating, so that no
// clock value overflows).
std::int64_t expired_before(std::int64_t now, std::chrono::system_clock::duration retention) {
  const auto keep = std::max<std::int64_t>(
      0, std::chrono::duration_cast<std::chrono::nanoseconds>(retention).count());
  return now < std::numeric_limits<std::int64_t>::min() + keep
             ? std::numeric_limits<std::int64_t>::min()
             : now - keep;
}

Statement create_statement(const ports::CreatePetCommand& command) {
  const auto now = nanoseconds_since_epoch(command.received_at);
  std::optional<std::string> scope;
  std::optional<std::string> key;
  if (command.idempotency) {
    scope = command.idempotency->scope;
    key = command.idempotency->key;
  }
  return Statement{
      create_sql,
      {command.pet.name.value(), std::to_string(command.pet.category_id.value),
       std::string(domain::to_string(command.pet.status)), std::move(scope), std::move(key),
       std::to_string(now), std::to_string(expired_before(now, command.retention))}};
}

domain::Result<ports::CreateOutcome> outcome_of(const PGresult* result) {
  if (PQntuples(result) != 1 || PQnfields(result) != 5) {
    return damaged("create_pet answered " + std::to_string(PQntuples(result)) + " rows");
  }
  auto pet = pet_at(result, 0);
  if (!pet) {
    return pet.error();
  }
  return ports::CreateOutcome{std::move(*pet), field(result, 0, 4) == "t"};
}

}  // namespace

domain::Result<domain::Pet> decode_pet(const PGresult* result, int row) {
  return pet_at(result, row);
}

Work create_batch_work(std::vector<PendingCreate> batch,
                       std::function<void(std::size_t creates)> after) {
  Work work;
  work.is_commit = true;
  work.deadline = std::chrono::steady_clock::time_point::max();
  std::int64_t now = std::numeric_limits<std::int64_t>::min();
  std::chrono::system_clock::duration retention{};
  work.statements.push_back(Statement{"BEGIN", {}});
  work.statements.push_back(Statement{lock_sql, {}});
  for (const auto& pending : batch) {
    work.statements.push_back(create_statement(pending.command));
    work.deadline = std::min(work.deadline, pending.deadline);
    now = std::max(now, nanoseconds_since_epoch(pending.command.received_at));
    retention = std::max(retention, pending.command.retention);
  }
  work.statements.push_back(
      Statement{prune_sql,
                {std::to_string(expired_before(now, retention)),
                 std::to_string(static_cast<std::int64_t>(batch.size()) + extra_prune_budget)}});
  work.statements.push_back(Statement{"COMMIT", {}});
  work.finish = [batch = std::move(batch), after = std::move(after)](WorkResults results) mutable {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (!results) {
        batch[i].done(results.error());
      } else {
        batch[i].done(outcome_of((*results)[i + 2].get()));  // after BEGIN and the lock
      }
    }
    after(batch.size());
  };
  return work;
}

Work get_work(domain::PetId id, ports::PetRepository::GetDone done) {
  Work work;
  work.statements.push_back(Statement{get_sql, {std::to_string(id.value)}});
  work.finish = [done = std::move(done)](WorkResults results) mutable {
    if (!results) {
      done(results.error());
    } else if (PQntuples((*results)[0].get()) == 0) {
      done(domain::make_error(ErrorCode::not_found, "", ""));
    } else {
      done(pet_at((*results)[0].get(), 0));
    }
  };
  return work;
}

Work list_work(const ports::PetQuery& query, ports::PetRepository::ListDone done) {
  const std::int64_t after =
      query.after ? query.after->value : std::numeric_limits<std::int64_t>::min();
  const std::int64_t limit = query.limit.value();
  Work work;
  // One past the page: whether it exists is has_more.
  if (query.status) {
    work.statements.push_back(Statement{list_by_status_sql,
                                        {std::string(domain::to_string(*query.status)),
                                         std::to_string(after), std::to_string(limit + 1)}});
  } else {
    work.statements.push_back(
        Statement{list_sql, {std::to_string(after), std::to_string(limit + 1)}});
  }
  work.finish = [done = std::move(done), limit](WorkResults results) mutable {
    if (!results) {
      done(results.error());
      return;
    }
    const PGresult* rows = (*results)[0].get();
    ports::PetPage page;
    const int count = std::min<int>(PQntuples(rows), static_cast<int>(limit));
    page.pets.reserve(static_cast<std::size_t>(count));
    for (int row = 0; row < count; ++row) {
      auto pet = pet_at(rows, row);
      if (!pet) {
        done(pet.error());
        return;
      }
      page.pets.push_back(std::move(*pet));
    }
    page.has_more = PQntuples(rows) > limit;
    done(std::move(page));
  };
  return work;
}

Work count_work(ports::PetRepository::CountDone done) {
  Work work;
  work.statements.push_back(Statement{count_sql, {}});
  work.finish = [done = std::move(done)](WorkResults results) mutable {
    if (!results) {
      done(results.error());
      return;
    }
    const PGresult* rows = (*results)[0].get();
    const auto count = PQntuples(rows) == 1 ? to_int64(field(rows, 0, 0)) : std::nullopt;
    if (!count) {
      done(damaged("the counter row is missing"));
      return;
    }
    done(*count);
  };
  return work;
}

}  // namespace petstore::adapters::storage::postgres

#include "adapters/storage/postgres/postgres_queries.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "adapters/storage/postgres/postgres_errors.hpp"
#include "adapters/storage/postgres/postgres_trace_comment.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using domain::ErrorCode;

constexpr const char* get_sql =
    "SELECT id, name, category_id, status FROM petstore.pets WHERE id = $1";
constexpr const char* list_sql =
    "SELECT id, name, category_id, status FROM petstore.pets WHERE id > $1 ORDER BY id LIMIT $2";
constexpr const char* list_by_status_sql =
    "SELECT id, name, category_id, status FROM petstore.pets WHERE status = $1 AND id > $2 "
    "ORDER BY status, id LIMIT $3";
constexpr const char* count_sql = "SELECT pet_count FROM petstore.id_counter";

std::string_view field(const PGresult* result, int row, int column) {
  return {PQgetvalue(result, row, column),
          static_cast<std::size_t>(PQgetlength(result, row, column))};
}

}  // namespace

domain::Result<domain::Pet> decode_pet(const PGresult* result, int row) {
  const auto id = parse_whole<std::int64_t>(field(result, row, 0));
  const auto category = parse_whole<std::int64_t>(field(result, row, 2));
  auto name = domain::PetName::parse(field(result, row, 1));
  const auto status = domain::parse_pet_status(field(result, row, 3));
  if (!id || !category || !name || !status) {
    return damaged("row of pet " + std::string(field(result, row, 0)));
  }
  return domain::Pet{domain::PetId{*id}, std::move(*name), domain::CategoryId{*category}, *status};
}

Work get_work(domain::PetId id, ports::PetRepository::GetDone done) {
  Work work;
  work.statements.push_back(Statement{get_sql, {std::to_string(id.value)}});
  append_batch_trace_comment(work.statements.back().sql, {&done.trace()});
  work.rows_bounding = 1;  // the pet found
  work.finish = [done = std::move(done)](WorkResults results) mutable {
    if (!results) {
      done(results.error());
    } else if (PQntuples((*results)[0].get()) == 0) {
      done(domain::make_error(ErrorCode::not_found, "", ""));
    } else {
      done(decode_pet((*results)[0].get(), 0));
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
  append_batch_trace_comment(work.statements.back().sql, {&done.trace()});
  work.rows_bounding = static_cast<int>(limit) + 1;  // the page and the next match
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
      auto pet = decode_pet(rows, row);
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
    const auto count =
        PQntuples(rows) == 1 ? parse_whole<std::int64_t>(field(rows, 0, 0)) : std::nullopt;
    if (!count) {
      done(damaged("the counter row is missing"));
      return;
    }
    done(*count);
  };
  return work;
}

}  // namespace petstore::adapters::storage::postgres

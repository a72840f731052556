#include "adapters/storage/postgres/postgres_queries.hpp"

#include <algorithm>
#include <charconv>
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

}  // namespace

domain::Result<domain::Pet> decode_pet(const PGresult* result, int row) {
  return pet_at(result, row);
}

std::optional<std::int64_t> decode_int64(const PGresult* result, int row, int column) {
  return to_int64(field(result, row, column));
}

Work get_work(domain::PetId id, ports::PetRepository::GetDone done) {
  Work work;
  work.statements.push_back(Statement{get_sql, {std::to_string(id.value)}});
  append_trace_comment(work.statements.back().sql, done.trace());
  work.rows_bounding = 1;  // the pet found
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
  append_trace_comment(work.statements.back().sql, done.trace());
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

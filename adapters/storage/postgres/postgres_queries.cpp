#include "adapters/storage/postgres/postgres_queries.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

#include "adapters/storage/postgres/postgres_errors.hpp"

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

// append_url_encoded: `value` with every byte but RFC 3986's unreserved ones as %XX, so that no
// quote, no `*/` and no control character can reach the statement's text.
void append_url_encoded(std::string& sql, std::string_view value) {
  static constexpr std::string_view digits = "0123456789ABCDEF";
  for (const char c : value) {
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      sql += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      sql += '%';
      sql += digits[byte >> 4U];
      sql += digits[byte & 0xFU];
    }
  }
}

void append_pair(std::string& sql, bool& first, std::string_view key, std::string_view value) {
  sql += first ? " /*" : ",";
  first = false;
  sql += key;
  sql += "='";
  append_url_encoded(sql, value);
  sql += '\'';
}

std::string_view field(const PGresult* result, int row, int column) {
  return {PQgetvalue(result, row, column),
          static_cast<std::size_t>(PQgetlength(result, row, column))};
}

}  // namespace

void append_batch_trace_comment(std::string& sql,
                                const std::vector<const ports::TraceContext*>& traces) {
  std::vector<const ports::TraceContext*> traced;
  std::copy_if(
      traces.begin(), traces.end(), std::back_inserter(traced),
      [](const ports::TraceContext* trace) { return trace != nullptr && !trace->empty(); });
  if (traced.empty()) {
    return;
  }
  bool first = true;
  if (traced.size() > 1) {
    std::string all;
    for (const ports::TraceContext* trace : traced) {
      all += all.empty() ? "" : ",";
      all += trace->parent();
    }
    append_pair(sql, first, "petstore_batch", all);
  }
  append_pair(sql, first, "traceparent", traced.front()->parent());
  if (!traced.front()->tracestate.empty()) {
    append_pair(sql, first, "tracestate", traced.front()->tracestate);
  }
  sql += "*/";
}

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

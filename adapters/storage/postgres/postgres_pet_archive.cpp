#include "adapters/storage/postgres/postgres_pet_archive.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <libpq-fe.h>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_queries.hpp"
#include "adapters/storage/postgres/postgres_schema.hpp"
#include "adapters/storage/postgres/postgres_session.hpp"
#include "adapters/storage/postgres/postgres_target.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using domain::ErrorCode;

// Rows fetched from the read cursor, and pets inserted, per round trip.
constexpr int fetch_rows = 1000;
constexpr std::size_t insert_rows = 1000;
constexpr std::int64_t max_id = std::numeric_limits<std::int64_t>::max();
constexpr std::uint64_t no_id_left = std::uint64_t{1} << 63U;

// open_session: a blocking session on `target` (connected within its timeout, each statement then
// as long as the transfer needs), which words a refused statement as the archive's.
domain::Result<BlockingSession> open_session(const ConnectTarget& target) {
  auto session = BlockingSession::open(target, std::chrono::steady_clock::now() + target.timeout,
                                       {}, BlockingSession::Bounds::connect_only);
  if (session) {
    session->refusals("the database refused a statement");
  }
  return session;
}

// column: one column of `pets` as an array parameter, each value quoted (so any text survives).
template <typename Text>
std::optional<std::string> column(std::span<const domain::Pet> pets, Text text) {
  ArrayLiteral literal;
  for (const auto& pet : pets) {
    literal.add(std::optional<std::string>(text(pet)));
  }
  return std::move(literal).done();
}

std::uint64_t next_id_of(const PGresult* result) {
  if (PQgetisnull(result, 0, 0) != 0) {
    return no_id_left;
  }
  return std::stoull(PQgetvalue(result, 0, 0));
}

class PostgresPetArchive final : public ports::PetArchive {
 public:
  explicit PostgresPetArchive(ConnectTarget target) : target_(std::move(target)) {}

  // PetArchive
  [[nodiscard]] domain::Result<ports::ArchiveReadReport> read_all(
      const PetSink& sink) const override {
    auto session = open_session(target_);
    if (!session) {
      return session.error();
    }
    auto& db = *session;
    auto exists = db.run("SELECT to_regclass('petstore.schema_version') IS NOT NULL");
    if (!exists) {
      return exists.error();
    }
    if (std::string(PQgetvalue(exists->get(), 0, 0)) != "t") {
      return domain::make_error(ErrorCode::unavailable, "",
                                "the database " + target_.description +
                                    " holds no petstore schema: nothing to export from it");
    }
    if (auto migrated = migrate_schema(target_, std::chrono::steady_clock::now() + target_.timeout);
        !migrated) {
      return migrated.error();
    }
    if (auto begun = db.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; DECLARE every_pet "
                            "NO SCROLL CURSOR FOR SELECT id, name, category_id, status FROM "
                            "petstore.pets ORDER BY id");
        !begun) {
      return begun.error();
    }
    ports::ArchiveReadReport report;
    const std::string fetch = "FETCH " + std::to_string(fetch_rows) + " FROM every_pet";
    for (;;) {
      auto rows = db.run(fetch.c_str());
      if (!rows) {
        return rows.error();
      }
      const int count = PQntuples(rows->get());
      for (int row = 0; row < count; ++row) {
        auto pet = decode_pet(rows->get(), row);
        if (!pet) {
          return pet.error();
        }
        if (!sink(*pet)) {
          report.complete = false;
          (void)db.run("ROLLBACK");
          return report;
        }
        ++report.pets;
      }
      if (count < fetch_rows) {
        break;
      }
    }
    if (auto done = db.run("COMMIT"); !done) {
      return done.error();
    }
    return report;
  }

  [[nodiscard]] domain::Result<ports::ArchiveWriteReport> write_all(
      std::span<const domain::Pet> pets, const Progress& progress) override {
    if (auto migrated = migrate_schema(target_, std::chrono::steady_clock::now() + target_.timeout);
        !migrated) {
      return migrated.error();
    }
    auto session = open_session(target_);
    if (!session) {
      return session.error();
    }
    auto& db = *session;
    // The counter row first: creates of every instance wait until this commits. A new
    // incarnation moves it past a lost server's ids first (postgres_incarnation.hpp).
    auto counter = db.run(
        "BEGIN; SELECT petstore.open_incarnation(); "
        "SELECT next_id FROM petstore.id_counter FOR UPDATE");
    if (!counter) {
      return counter.error();
    }
    ports::ArchiveWriteReport report;
    report.next_id = next_id_of(counter->get());
    auto conflict = first_stored(db, pets);
    if (!conflict) {
      return conflict.error();
    }
    if (*conflict) {
      (void)db.run("ROLLBACK");
      report.conflict = *conflict;
      return report;
    }
    for (std::size_t done = 0; done < pets.size();) {
      const auto chunk = pets.subspan(done, std::min(insert_rows, pets.size() - done));
      if (auto inserted = insert(db, chunk); !inserted) {
        return inserted.error();
      }
      done += chunk.size();
      if (progress) {
        progress(done);
      }
    }
    std::int64_t highest = 0;
    for (const auto& pet : pets) {
      highest = std::max(highest, pet.id.value);
    }
    // The id after the highest written ("": none is left), computed here, not in SQL
    // (docs/decisions/postgres-bigint-arithmetic.md).
    const std::string following = highest == max_id ? "" : std::to_string(highest + 1);
    auto raised = db.run(
        "UPDATE petstore.id_counter SET next_id = CASE WHEN next_id IS NULL OR $1 = '' THEN NULL "
        "ELSE greatest(next_id, NULLIF($1, '')::bigint) END, pet_count = pet_count + $2::bigint "
        "RETURNING next_id",
        {following, std::to_string(pets.size())});
    if (!raised) {
      return raised.error();
    }
    report.next_id = next_id_of(raised->get());
    if (auto committed = db.run("COMMIT"); !committed) {
      return committed.error();
    }
    if (progress && pets.empty()) {
      progress(0);
    }
    return report;
  }

 private:
  // first_stored: the lowest index in `pets` of one whose id is already stored.
  static domain::Result<std::optional<std::size_t>> first_stored(
      BlockingSession& db, std::span<const domain::Pet> pets) {
    std::unordered_set<std::int64_t> stored;
    for (std::size_t at = 0; at < pets.size(); at += insert_rows) {
      const auto chunk = pets.subspan(at, std::min(insert_rows, pets.size() - at));
      auto found = db.run(
          "SELECT id FROM petstore.pets WHERE id = ANY($1::bigint[])",
          {column(chunk, [](const domain::Pet& pet) { return std::to_string(pet.id.value); })});
      if (!found) {
        return found.error();
      }
      for (int row = 0; row < PQntuples(found->get()); ++row) {
        stored.insert(std::stoll(PQgetvalue(found->get(), row, 0)));
      }
    }
    for (std::size_t i = 0; i < pets.size(); ++i) {
      if (stored.contains(pets[i].id.value)) {
        return std::optional<std::size_t>(i);
      }
    }
    return std::optional<std::size_t>();
  }

  static domain::Result<void> insert(BlockingSession& db, std::span<const domain::Pet> pets) {
    auto done = db.run(
        "INSERT INTO petstore.pets (id, name, category_id, status) SELECT * FROM "
        "unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[])",
        {column(pets, [](const domain::Pet& pet) { return std::to_string(pet.id.value); }),
         column(pets, [](const domain::Pet& pet) { return std::string(pet.name.value()); }),
         column(pets, [](const domain::Pet& pet) { return std::to_string(pet.category_id.value); }),
         column(pets, [](const domain::Pet& pet) {
           return std::string(domain::to_string(pet.status));
         })});
    if (!done) {
      return done.error();
    }
    return {};
  }

  ConnectTarget target_;
};

}  // namespace

domain::Result<std::unique_ptr<ports::PetArchive>> make_postgres_pet_archive(
    const PostgresOptions& options) {
  auto parsed = parse_url(options.database_url);
  if (!parsed) {
    return parsed.error();
  }
  return std::unique_ptr<ports::PetArchive>(
      std::make_unique<PostgresPetArchive>(target_for(options, std::move(*parsed))));
}

}  // namespace petstore::adapters::storage::postgres

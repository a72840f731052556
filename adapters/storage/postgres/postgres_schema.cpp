#include "adapters/storage/postgres/postgres_schema.hpp"

#include <array>
#include <libpq-fe.h>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "adapters/storage/postgres/postgres_create_pets.hpp"
#include "adapters/storage/postgres/postgres_incarnation.hpp"
#include "adapters/storage/postgres/postgres_replay_wait.hpp"
#include "adapters/storage/postgres/postgres_session.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using domain::ErrorCode;

// version_1: pets with a (status, id) index for filtered pages; the counter row that assigns
// ids and keeps the count; idempotency records by (scope, key), with the time they were made for
// retention; and create_pet, which runs one create server-side so that a batch of creates is
// one round trip (docs/decisions/postgres-id-counter-row.md: why a counter row, not a sequence).
constexpr const char* version_1 = R"sql(
CREATE TABLE petstore.pets (
  id bigint PRIMARY KEY,
  name text NOT NULL,
  category_id bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('available', 'pending', 'sold'))
);
CREATE INDEX pets_by_status ON petstore.pets (status, id);
CREATE TABLE petstore.id_counter (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  next_id bigint NOT NULL,
  pet_count bigint NOT NULL
);
INSERT INTO petstore.id_counter (only_row, next_id, pet_count) VALUES (true, 1, 0);
CREATE TABLE petstore.idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL,
  pet_id bigint NOT NULL,
  created_at_ns bigint NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_by_age ON petstore.idempotency_keys (created_at_ns);
CREATE FUNCTION petstore.create_pet(p_name text, p_category_id bigint, p_status text,
    p_scope text, p_key text, p_created_at_ns bigint, p_expired_before_ns bigint)
RETURNS TABLE (r_id bigint, r_name text, r_category_id bigint, r_status text, r_created boolean)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  v_id bigint;
  v_claimed bigint;
BEGIN
  -- The counter row stays locked until this transaction ends: creates of every instance
  -- commit one after another, in the order of their ids.
  SELECT c.next_id INTO v_id FROM petstore.id_counter c FOR UPDATE;
  IF p_key IS NOT NULL THEN
    INSERT INTO petstore.idempotency_keys AS k (scope, key, pet_id, created_at_ns)
      VALUES (p_scope, p_key, v_id, p_created_at_ns)
      ON CONFLICT (scope, key) DO UPDATE
        SET pet_id = EXCLUDED.pet_id, created_at_ns = EXCLUDED.created_at_ns
        WHERE k.created_at_ns < p_expired_before_ns
      RETURNING k.pet_id INTO v_claimed;
    IF v_claimed IS NULL THEN
      -- An unexpired record exists (perhaps committed by another instance a moment ago).
      RETURN QUERY SELECT p.id, p.name, p.category_id, p.status, false
        FROM petstore.idempotency_keys k JOIN petstore.pets p ON p.id = k.pet_id
        WHERE k.scope = p_scope AND k.key = p_key;
      RETURN;
    END IF;
  END IF;
  UPDATE petstore.id_counter SET next_id = v_id + 1, pet_count = pet_count + 1;
  INSERT INTO petstore.pets (id, name, category_id, status)
    VALUES (v_id, p_name, p_category_id, p_status);
  RETURN QUERY SELECT v_id, p_name, p_category_id, p_status, true;
END
$fn$;
)sql";

// version_2: a NULL next_id means every id is taken (an import may store the largest bigint,
// whose successor a bigint cannot hold); create_pet then answers idempotent replays as before
// and otherwise raises SQLSTATE PS001, which the adapter reports as unavailable ("no pet ids are
// left"), as the other backends do. It repeats version_1's create_pet whole, by design: a
// migration that has shipped is never edited, so each version states its function in full.
constexpr const char* version_2 = R"sql(
ALTER TABLE petstore.id_counter ALTER COLUMN next_id DROP NOT NULL;
CREATE OR REPLACE FUNCTION petstore.create_pet(p_name text, p_category_id bigint, p_status text,
    p_scope text, p_key text, p_created_at_ns bigint, p_expired_before_ns bigint)
RETURNS TABLE (r_id bigint, r_name text, r_category_id bigint, r_status text, r_created boolean)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  v_id bigint;
  v_claimed bigint;
BEGIN
  -- The counter row stays locked until this transaction ends: creates of every instance
  -- commit one after another, in the order of their ids.
  SELECT c.next_id INTO v_id FROM petstore.id_counter c FOR UPDATE;
  IF v_id IS NULL THEN
    IF p_key IS NOT NULL THEN
      RETURN QUERY SELECT p.id, p.name, p.category_id, p.status, false
        FROM petstore.idempotency_keys k JOIN petstore.pets p ON p.id = k.pet_id
        WHERE k.scope = p_scope AND k.key = p_key AND k.created_at_ns >= p_expired_before_ns;
      IF FOUND THEN
        RETURN;
      END IF;
    END IF;
    RAISE EXCEPTION 'no pet ids are left' USING ERRCODE = 'PS001';
  END IF;
  IF p_key IS NOT NULL THEN
    INSERT INTO petstore.idempotency_keys AS k (scope, key, pet_id, created_at_ns)
      VALUES (p_scope, p_key, v_id, p_created_at_ns)
      ON CONFLICT (scope, key) DO UPDATE
        SET pet_id = EXCLUDED.pet_id, created_at_ns = EXCLUDED.created_at_ns
        WHERE k.created_at_ns < p_expired_before_ns
      RETURNING k.pet_id INTO v_claimed;
    IF v_claimed IS NULL THEN
      -- An unexpired record exists (perhaps committed by another instance a moment ago).
      RETURN QUERY SELECT p.id, p.name, p.category_id, p.status, false
        FROM petstore.idempotency_keys k JOIN petstore.pets p ON p.id = k.pet_id
        WHERE k.scope = p_scope AND k.key = p_key;
      RETURN;
    END IF;
  END IF;
  UPDATE petstore.id_counter
    SET next_id = CASE WHEN v_id = 9223372036854775807 THEN NULL ELSE v_id + 1 END,
        pet_count = pet_count + 1;
  INSERT INTO petstore.pets (id, name, category_id, status)
    VALUES (v_id, p_name, p_category_id, p_status);
  RETURN QUERY SELECT v_id, p_name, p_category_id, p_status, true;
END
$fn$;
)sql";

// migrations[v]: from version v to v + 1.
constexpr std::array<const char*, schema_version> migrations{
    version_1, version_2, create_pets_migration, incarnation_migration, replay_wait_migration};

// current_version: the schema's version, 0 when there is none yet. Nothing is created when it
// exists, so a role that may not create schemas can run a migrated database.
domain::Result<int> current_version(BlockingSession& db) {
  auto exists = db.run("SELECT to_regclass('petstore.schema_version') IS NOT NULL");
  if (!exists) {
    return exists.error();
  }
  if (std::string_view(PQgetvalue(exists->get(), 0, 0)) != "t") {
    auto created = db.run(
        "CREATE SCHEMA IF NOT EXISTS petstore; "
        "CREATE TABLE petstore.schema_version (version integer NOT NULL)");
    if (!created) {
      return created.error();
    }
    return 0;
  }
  // As text: a damaged table (another column type) must be reported, not crash the process.
  auto found = db.run("SELECT max(version)::text FROM petstore.schema_version");
  if (!found) {
    return found.error();
  }
  if (PQgetisnull(found->get(), 0, 0) != 0) {
    return 0;
  }
  const std::string_view stored = PQgetvalue(found->get(), 0, 0);
  const auto version = parse_whole<int>(stored);
  if (!version || *version < 0) {
    constexpr std::size_t shown = 40;
    return domain::make_error(
        ErrorCode::internal, "",
        "the database's petstore.schema_version holds '" + std::string(stored.substr(0, shown)) +
            (stored.size() > shown ? "..." : "") +
            "', which is no schema version: repair it or restore the database");
  }
  return *version;
}

domain::Result<void> migrate(BlockingSession& db) {
  auto locked = db.run("BEGIN; SELECT pg_try_advisory_xact_lock(8098991380479520357)");
  if (!locked) {
    return locked.error();
  }
  if (std::string_view(PQgetvalue(locked->get(), 0, 0)) != "t") {
    // Another instance that holds the lock is migrating: this attempt gives way and is tried
    // again later, rather than waiting on the server for a lock whose holder may never let go.
    return domain::make_error(ErrorCode::unavailable, "",
                              "another session holds the petstore schema's migration lock");
  }
  const auto found = current_version(db);
  if (!found) {
    return found.error();
  }
  const int version = *found;
  if (version > schema_version) {
    return domain::make_error(ErrorCode::internal, "",
                              "the database's petstore schema is version " +
                                  std::to_string(version) + ", newer than this petstore knows (" +
                                  std::to_string(schema_version) + "): upgrade petstore");
  }
  for (int step = version; step < schema_version; ++step) {
    if (auto done = db.run(migrations.at(static_cast<std::size_t>(step))); !done) {
      return done.error();
    }
  }
  if (version < schema_version) {
    const std::string record =
        "DELETE FROM petstore.schema_version; INSERT INTO "
        "petstore.schema_version (version) VALUES (" +
        std::to_string(schema_version) + ")";
    if (auto done = db.run(record.c_str()); !done) {
      return done.error();
    }
  }
  if (auto done = db.run("COMMIT"); !done) {
    return done.error();
  }
  return {};
}

}  // namespace

domain::Result<void> migrate_schema(const ConnectTarget& target,
                                    std::chrono::steady_clock::time_point deadline,
                                    const std::stop_token& stop) {
  auto db = BlockingSession::open(target, deadline, stop);
  if (!db) {
    return db.error();
  }
  const char* encoding = PQparameterStatus(db->get(), "server_encoding");
  if (encoding == nullptr || std::string_view(encoding) != "UTF8") {
    return domain::make_error(ErrorCode::internal, "",
                              std::string("the database's encoding is ") +
                                  (encoding != nullptr ? encoding : "unknown") +
                                  ", not UTF8: create it with ENCODING 'UTF8'");
  }
  // Whatever fails leaves the transaction to the server: closing the session rolls it back.
  return migrate(*db);
}

}  // namespace petstore::adapters::storage::postgres

#pragma once
// Schema version 4: an incarnation marker that moves the id counter past every id a lost server
// may have shown: a reader may see a pet that a crash or failover then loses, and its id must
// never name another pet (contract section 8; docs/decisions/postgres-flush-barrier.md).

#include <cstdint>

namespace petstore::adapters::storage::postgres {

// incarnation_gap: how far the first batch of a new incarnation moves next_id. Ids that a lost
// server handed out but never made durable number fewer: at most one unflushed batch (256 pets)
// per session at a crash, and one per session cut short while a synchronous standby was away.
inline constexpr std::int64_t incarnation_gap = std::int64_t{1} << 32;

// incarnation_migration, from schema version 3 to 4.
// - petstore.incarnation is UNLOGGED: crash recovery empties it, a standby has it empty when
//   promoted, and a clean restart keeps it. Its one row says that next_id already lies above every
//   id this server's predecessors may have shown.
// - petstore.open_incarnation() returns next_id (read without the lock, as version 3's batch read
//   it), first writing the row and moving next_id by the gap if the row is missing. Each batch
//   calls it before create_pets; under the counter row's lock, so one batch moves it.
// - A trigger refuses every change of the counter while the row is missing (55P03, which every
//   petstore answers 503 and retries): an instance of version 3 still running mid-upgrade never
//   hands out an id below the gap. The row is written before its own batch's update.
// The database made by this migration has the row: only a new incarnation lacks it.
inline constexpr const char* incarnation_migration = R"sql(
CREATE UNLOGGED TABLE petstore.incarnation (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row)
);
INSERT INTO petstore.incarnation DEFAULT VALUES;
CREATE FUNCTION petstore.open_incarnation() RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  v_next bigint;
BEGIN
  IF EXISTS (SELECT FROM petstore.incarnation) THEN
    RETURN (SELECT c.next_id FROM petstore.id_counter c);
  END IF;
  SELECT c.next_id INTO v_next FROM petstore.id_counter c FOR UPDATE;
  IF NOT EXISTS (SELECT FROM petstore.incarnation) THEN
    INSERT INTO petstore.incarnation DEFAULT VALUES;
    IF v_next IS NOT NULL THEN
      v_next := CASE WHEN v_next > 9223372036854775807 - 4294967296 THEN NULL
                     ELSE v_next + 4294967296 END;
      UPDATE petstore.id_counter SET next_id = v_next;
    END IF;
  END IF;
  RETURN v_next;
END
$fn$;
CREATE FUNCTION petstore.counter_needs_incarnation() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF NOT EXISTS (SELECT FROM petstore.incarnation) THEN
    RAISE EXCEPTION 'the id counter waits for petstore.open_incarnation()'
      USING ERRCODE = '55P03';
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER counter_needs_incarnation BEFORE UPDATE ON petstore.id_counter
  FOR EACH ROW EXECUTE FUNCTION petstore.counter_needs_incarnation();
)sql";

}  // namespace petstore::adapters::storage::postgres
